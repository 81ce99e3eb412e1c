"""The ``bn_fold`` pass: ``conv2d [+ bias] -> * scale -> + shift`` with per-channel
constants becomes one ``conv2d`` with scaled weights and one bias ``add``.

It matches the ``add`` that ends the chain, after constant folding has reduced batch
norm's statistics to constants; each intermediate value must have no other user.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> from sporeling.compiler.passes import optimize
    >>> w = np.ones((2, 1, 3, 3), np.float32)
    >>> mean, var = np.zeros(2, np.float32), np.ones(2, np.float32)
    >>> g = make_graph(lambda x: ops.nn.batch_norm(ops.nn.conv2d(x, w), mean, var),
    ...                np.ones((1, 1, 5, 5), np.float32))
    >>> optimize(g, "O1", only={"fold_constants", "bn_fold", "dce"}).primitive_counts()
    {'conv2d': 1, 'add': 1}
"""
from __future__ import annotations

import numpy as np

from sporeling.compiler.ir import Const, Equation, Graph
from sporeling.compiler.passes import Pass, PassContext, Rewriter, rewrite

__all__ = ["fold_batch_norm", "BN_FOLD"]


def per_channel(v, channels: int) -> np.ndarray | None:
    """``v`` as a (channels,) vector if it is a Const that broadcasts per channel against an
    (N, C, H, W) value, else None."""
    if not isinstance(v, Const) or v.value.ndim > 4:
        return None
    shape = (1,) * (4 - v.value.ndim) + tuple(v.value.shape)
    if shape[0] != 1 or shape[2] != 1 or shape[3] != 1 or shape[1] not in (1, channels):
        return None
    return np.broadcast_to(v.value.reshape(shape[1]), (channels,))


def _split(eq: Equation, rw: Rewriter, uses: dict, channels_of):
    """(the non-constant operand's producer, the per-channel constant) or None."""
    for value, const in ((eq.inputs[0], eq.inputs[1]), (eq.inputs[1], eq.inputs[0])):
        producer = rw.producer(value)
        if producer is None or uses.get(value) != 1:
            continue
        channels = channels_of(value)
        vec = per_channel(const, channels) if channels else None
        if vec is not None:
            return producer, vec
    return None



def fold_batch_norm(graph: Graph, ctx: PassContext) -> Graph:
    """``graph`` with per-channel affine maps after convolutions folded into them."""
    uses = graph.use_counts()

    def channels_of(v):
        shape = v.aval.shape
        return shape[1] if len(shape) == 4 else None

    def rule(eq: Equation, rw: Rewriter):
        if eq.prim.name != "add":
            return None
        shift_match = _split(eq, rw, uses, channels_of)
        if shift_match is None or shift_match[0].prim.name != "mul":
            return None
        mul_eq, shift = shift_match
        scale_match = _split(mul_eq, rw, uses, channels_of)
        if scale_match is None:
            return None
        inner, scale = scale_match
        bias = np.zeros_like(scale)
        if inner.prim.name == "add":  # the convolution's own bias
            bias_match = _split(inner, rw, uses, channels_of)
            if bias_match is None:
                return None
            inner, bias = bias_match
        if inner.prim.name != "conv2d" or not isinstance(inner.inputs[1], Const):
            return None
        x, w = inner.inputs[0], inner.inputs[1].value
        dtype = w.dtype
        folded_w = (w * scale.reshape(-1, 1, 1, 1)).astype(dtype)
        folded_b = (bias * scale + shift).astype(dtype).reshape(-1, 1, 1)
        y = rw.bind(inner.prim, x, Const(folded_w), **inner.params)
        ctx.count("bn_fold.folded")
        return rw.bind("add", y, Const(folded_b))

    return rewrite(graph, rule, ctx)


BN_FOLD = Pass("bn_fold", fold_batch_norm, stage="simplify", order=25,
               doc="fold per-channel scale and shift (inference batch norm) into conv2d")
