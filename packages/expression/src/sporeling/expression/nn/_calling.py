"""The slower ways of calling a Cell: with a custom ``bprop``, or cast by ``to_float``.

Kept out of ``Cell.__call__`` so that the common call is one attribute test and
``construct``.
"""
from __future__ import annotations

from sporeling.compiler import ops
from sporeling.core import dtypes


def call_bprop(cell, args: tuple, kwargs: dict):
    """Run ``cell.construct`` with ``cell.bprop`` as its backward.

    ``bprop(*inputs, out, dout)`` is called with ``out``/``dout`` as keywords, so both
    MindSpore's positional style (``def bprop(self, x, out, dout)``) and the keyword-only
    style work.
    """
    from ..autograd import call_with_bprop

    def forward(*inputs):
        return cell.construct(*inputs, **kwargs)

    def backward(*args):  # call_with_bprop passes (*inputs, out, dout) positionally
        *inputs, out, dout = args
        return cell.bprop(*inputs, out=out, dout=dout)

    return call_with_bprop(forward, backward, *args)


def _cast(value, dtype):
    if hasattr(value, "dtype") and hasattr(value, "shape") and \
            dtypes.is_floating(value.dtype) and value.dtype != dtype:
        return ops.cast(value, dtype)
    if isinstance(value, (tuple, list)):
        return type(value)(_cast(v, dtype) for v in value)
    return value


def call_cast(cell, args: tuple, kwargs: dict):
    """``to_float``: floating inputs and this cell's own parameters cast to the cell's dtype
    for the duration of the call (children cast their own). The casts are ops, so
    gradients flow back to the original parameters."""
    dtype = cell._cast_dtype
    args = tuple(_cast(a, dtype) for a in args)
    kwargs = {k: _cast(v, dtype) for k, v in kwargs.items()}
    d = cell.__dict__
    swapped = {}
    for attr, p in cell._params.items():
        if p is not None and dtypes.is_floating(p.dtype) and p.dtype != dtype \
                and p.requires_grad:
            swapped[attr] = p
            d[attr] = ops.cast(p, dtype)
    try:
        if cell._has_bprop:
            return call_bprop(cell, args, kwargs)
        return cell.construct(*args, **kwargs)
    finally:
        d.update(swapped)
