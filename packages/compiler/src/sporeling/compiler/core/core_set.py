"""The core set: the primitives a new backend implements itself.

Every other primitive either has a decomposition on its record (``prim.def_decomposition``:
softmax, the activations and their gradient kernels, normalisation, cross entropy, the fused
elementwise chains, ...), which lowering traces into the graph where the backend has no
kernel for it (:mod:`sporeling.compiler.lowering.decompose`), or is *extended*: a kernel the
backend may add (einsum, the fused RNNs, quantised kernels, ...; without one, lowering
raises a :class:`~sporeling.compiler.core.primitive.MissingRuleError` naming it). So a
backend that registers kernels for these runs Graph-mode training of the usual models, and
adds kernels beyond them only where it is faster: its own kernel always wins over a
decomposition.

    >>> is_core("matmul"), is_core("softmax")
    (True, False)
"""
from __future__ import annotations

__all__ = ["CORE_PRIMITIVES", "is_core"]

CORE_PRIMITIVES: frozenset[str] = frozenset({
    # elementwise arithmetic
    "neg", "add", "sub", "mul", "div", "maximum", "minimum", "pow", "abs", "sign", "floor",
    "ceil", "round", "floordiv", "mod",
    # elementwise functions
    "exp", "log", "expm1", "log1p", "sqrt", "sin", "cos", "tanh", "erf", "atan2",
    # comparisons, logic, selection, conversion
    "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "logical_and",
    "logical_or", "logical_xor", "logical_not", "isnan", "isinf", "isfinite", "where", "cast",
    # reductions
    "sum", "max", "min", "prod", "all", "any", "argmax", "argmin", "cumsum",
    # linear algebra
    "matmul",
    # shapes
    "reshape", "transpose", "broadcast_to", "concat", "split", "slice", "getitem", "pad",
    "flip",
    # gather and scatter
    "gather", "take_along_axis", "scatter_add", "add_at", "argsort",
    # convolution and pooling
    "conv2d", "conv_transpose2d", "conv2d_weight_grad", "max_pool2d", "max_pool2d_scatter",
    "max_pool2d_gather", "avg_pool2d", "avg_pool2d_transpose",
    # random draws (a backend's own generator; a decomposition could not match the stream)
    "rng_seed", "uniform", "normal", "bernoulli", "randint", "permutation", "dropout",
    # writing a Parameter
    "assign",
})
"""Names of the primitives every backend implements (see the module doc)."""


def is_core(primitive) -> bool:
    """Whether ``primitive`` (a name or a :class:`Primitive`) is in the core set."""
    return getattr(primitive, "name", primitive) in CORE_PRIMITIVES
