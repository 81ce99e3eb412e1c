"""Batching rules of the elementwise family: arithmetic, math, activations, comparisons,
``where``, ``clip``, ``cast``. One rule serves them all: line the batched operands up as
``(B, 1.., *example shape)`` so that NumPy broadcasting treats each example as it would alone."""
from __future__ import annotations

from ...core import bind, defined_primitives
from ...core.batching import def_batching
from ._util import aligned, logical_shape

ELEMENTWISE = (
    # arithmetic and math
    "add", "sub", "mul", "div", "floordiv", "mod", "pow", "maximum", "minimum", "atan2",
    "neg", "exp", "log", "abs", "sign", "expm1", "log1p", "sqrt", "rsqrt", "square",
    "reciprocal", "sin", "cos", "floor", "ceil", "round", "pow_scalar", "clip",
    "clip_scalar", "cast", "rsqrt_eps",
    # activations and their fused backward primitives
    "relu", "leaky_relu", "tanh", "sigmoid", "silu", "gelu", "softplus", "erf",
    "relu_grad", "tanh_grad", "sigmoid_grad",
    # comparisons, logic, predicates, where
    "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "logical_and",
    "logical_or", "logical_xor", "logical_not", "isnan", "isinf", "isfinite", "where",
    # one new trailing axis: the batch axis stays where it is
    "one_hot",
)


def elementwise_rule(prim):
    """The batching rule of a broadcasting elementwise primitive."""
    def rule(args, dims, **params):
        if len(args) == 1:  # nothing to line up: the batch axis stays put
            return bind(prim, args[0], **params), dims[0]
        batched = [d for d in dims if d is not None]
        if len(batched) == 1 and all(d is not None or not a.shape for a, d in zip(args, dims)):
            # one batched operand, the rest scalars: no alignment needed
            return bind(prim, *args, **params), batched[0]
        rank = max(len(logical_shape(a, d)) for a, d in zip(args, dims))
        return bind(prim, *[aligned(a, d, rank) for a, d in zip(args, dims)], **params), 0
    rule.__name__ = f"batch_{prim.name}"
    return rule


_P = defined_primitives()
for _name in ELEMENTWISE:
    def_batching(_P[_name])(elementwise_rule(_P[_name]))
