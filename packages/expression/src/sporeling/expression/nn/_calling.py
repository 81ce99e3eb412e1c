"""The slower ways of calling a Cell: with a custom ``bprop``, or cast by ``to_float``.

Kept out of ``Cell.__call__`` so that the common call is one attribute test and
``construct``.
"""
from __future__ import annotations

from sporeling.compiler import ops
from sporeling.core import dtypes


def call_bprop(cell, args: tuple, kwargs: dict):
    """Run ``cell.construct`` with ``cell.bprop`` as its backward.

    ``bprop(*inputs, out, dout)`` is called with ``out``/``dout`` as keywords when it names
    them, so both MindSpore's positional style (``def bprop(self, x, out, dout)``) and the
    keyword-only style work; a ``bprop(self, *args)`` gets them positionally, last.
    """
    import inspect

    from ..autograd import call_with_bprop

    # MindSpore: a cell listing ``internal_params`` may return ``(input grads, {param:
    # grad})``; the parameters ride along as extra inputs so their gradients flow
    params = tuple(getattr(cell, "internal_params", None) or ())
    n = len(args)

    def forward(*inputs):
        return cell.construct(*inputs[:n], **kwargs)

    by_name = "dout" in inspect.signature(cell.bprop).parameters

    def backward(*args):  # call_with_bprop passes (*inputs, out, dout) positionally
        *inputs, out, dout = args
        inputs = inputs[:n]
        grads = cell.bprop(*inputs, out=out, dout=dout) if by_name else \
            cell.bprop(*inputs, out, dout)
        if not params:
            return grads
        by_param = {}
        if isinstance(grads, tuple) and len(grads) == 2 and isinstance(grads[1], dict):
            grads, by_param = grads
        by_id = {id(p): g for p, g in by_param.items()}
        return tuple(grads) + tuple(by_id.get(id(p)) for p in params)

    return call_with_bprop(forward, backward, *args, *params)


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
