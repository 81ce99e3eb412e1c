"""The two primitives Graph mode's layout pass (:mod:`.assign`) writes: values in oneDNN's
channel-blocked layout are ordinary arrays ``(N, C/b, H, W, b)`` (``nChw8c`` /
``nChw16c``), so elementwise ops and the memory plan handle them as they are; these two
primitives are what only the oneDNN backend runs.

* ``onednn_reorder(x; block, to)``: ``(N, C, H, W)`` into the blocked array (``to="blocked"``)
  or back (``to="plain"``).
* ``onednn_blocked(*inputs; op, params, blocks_in, blocks_out, epilogue=())``: primitive
  ``op`` (a convolution, batch normalisation or max pooling) with the inputs and results
  whose block is set blocked. Its abstract rule is ``op``'s on the logical shapes. A
  convolution's ``epilogue`` (:mod:`.epilogues`) names what oneDNN applies to its result
  as it writes it: ``"bias"`` (the last input, one value per output channel, added) and
  activations (``plan.POST_OPS``), in order. A max pooling's ``argmax="bytes"``: its
  argmax is oneDNN's workspace, a uint8 window offset per output (the layout pass asks
  for it where only the blocked gradient reads the argmax), not an int64 copy.

They appear only after autodiff, in graphs lowered on the oneDNN backend: neither has a
backward or batching rule.
"""
from __future__ import annotations

import numpy as np

from sporeling.compiler import Aval, Primitive, primitives

from ..blocking import blocked_shape, logical_shape

__all__ = ["onednn_reorder_p", "onednn_blocked_p", "BLOCKED_OPS"]

BLOCKED_OPS = ("conv2d", "conv_transpose2d", "conv2d_weight_grad", "normalize", "max_pool2d",
               "max_pool2d_scatter")
"""The primitives ``onednn_blocked`` wraps (kernels in ``kernels/blocked.py``)."""


onednn_reorder_p = Primitive("onednn_reorder", differentiable=False,
                             doc="an (N, C, H, W) value into oneDNN's channel-blocked "
                                 "array (N, C/b, H, W, b), or back")


@onednn_reorder_p.def_abstract_eval
def _reorder_aval(x, *, block, to):
    if to == "blocked":
        return Aval(blocked_shape(x.shape, block), x.dtype)
    return Aval(logical_shape(x.shape, block), x.dtype)


onednn_blocked_p = Primitive("onednn_blocked", multiple_results=True, differentiable=False,
                             doc="a convolution, batch normalisation or max pooling on "
                                 "channel-blocked activations (oneDNN backend)")


@onednn_blocked_p.def_abstract_eval
def _blocked_aval(*avals, op, params, blocks_in, blocks_out, epilogue=(), argmax=None):
    prim = primitives()[op]
    operands = avals[:len(avals) - ("bias" in epilogue)]
    logical = [Aval(logical_shape(a.shape, b), a.dtype) for a, b in zip(operands, blocks_in)]
    out = prim.abstract(*logical, **dict(params))
    outs = list(out) if prim.multiple_results else [out]
    if argmax == "bytes":  # a max pooling's argmax: oneDNN's one-byte workspace itself
        outs[1] = Aval(outs[1].shape, np.dtype(np.uint8))
    return tuple(Aval(blocked_shape(a.shape, b), a.dtype) for a, b in zip(outs, blocks_out))


@onednn_blocked_p.def_describe
def _describe(*, op, params, blocks_in, blocks_out, epilogue=(), argmax=None):
    """``conv2d, blocked 16 + bias, relu``: the op, its channel block, what it adds."""
    block = next((b for b in blocks_in + blocks_out if b), None)
    text = op + (f", blocked {block}" if block else "")
    if epilogue:
        text += " + " + ", ".join(epilogue)
    return text + (", argmax bytes" if argmax == "bytes" else "")
