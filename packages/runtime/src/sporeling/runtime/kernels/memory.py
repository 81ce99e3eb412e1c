"""What each NumPy kernel does with memory (:class:`~sporeling.runtime.KernelMemory`).

The runtime's plugin registers every NumPy kernel with its entry here; the compiler's memory
planner reads these facts from the kernel registry for the backend it compiles for, so
another backend declares its own. A kernel not listed is ``opaque`` (allocates, may alias).

    >>> NUMPY_MEMORY["reshape"].kind, NUMPY_MEMORY["matmul"].kind, NUMPY_MEMORY["where"].in_place
    ('view', 'out', (2,))
"""
from __future__ import annotations

from ..kernel_registry import KernelMemory

__all__ = ["NUMPY_MEMORY"]

# views of their input when given no out
_VIEW = ("reshape", "broadcast_to", "transpose", "flip", "slice", "getitem", "split")

UFUNC_NAMES = ("neg", "exp", "log", "abs", "sign", "expm1", "log1p", "sqrt", "square",
               "reciprocal", "sin", "cos", "floor", "ceil", "round", "tanh",
               "add", "sub", "mul", "div", "maximum", "minimum", "floordiv", "mod", "pow",
               "atan2", "equal", "not_equal", "greater", "greater_equal", "less",
               "less_equal", "logical_and", "logical_or", "logical_xor", "logical_not",
               "isnan", "isinf", "isfinite")
_BINARY_UFUNCS = ("add", "sub", "mul", "div", "maximum", "minimum", "floordiv", "mod", "pow",
                  "atan2", "equal", "not_equal", "greater", "greater_equal", "less",
                  "less_equal", "logical_and", "logical_or", "logical_xor")

# single-result kernels writing their whole result into out= (never a view of an input)
_WRITES_OUT = UFUNC_NAMES + (
    # elementwise beyond ufuncs, activations and their fused gradients
    "relu", "rsqrt", "pow_scalar", "clip", "clip_scalar", "where", "erf", "sigmoid", "silu",
    "softplus", "leaky_relu", "gelu", "relu_grad", "tanh_grad", "sigmoid_grad",
    # reductions
    "sum", "prod", "mean", "max", "min", "all", "any", "logsumexp", "var", "std", "norm",
    "argmax", "argmin", "cumsum",
    # linear algebra, shape copies, indexing into fresh memory
    "matmul", "einsum", "tril", "triu", "cast", "concat", "tile", "repeat", "roll", "pad",
    "add_at", "gather", "take_along_axis", "scatter_add", "one_hot",
    # neural-network kernels
    "conv2d", "conv_transpose2d", "conv2d_weight_grad", "max_pool2d_scatter",
    "max_pool2d_gather", "avg_pool2d", "avg_pool2d_transpose", "softmax", "log_softmax",
    "dropout", "embedding", "embedding_grad", "rsqrt_eps", "softmax_cross_entropy",
    "softmax_cross_entropy_grad",
    # a fused elementwise chain (the fusion pass): its last node writes into out
    "fused_elementwise",
    # random draws (and the seed they draw from)
    "rng_seed", "uniform", "normal", "bernoulli", "randint", "permutation")

# multiple-result kernels allocating every result
_FRESH = ("normalize", "max_pool2d", "lstm", "gru", "lstm_grad", "gru_grad")

# input positions out= may share: the kernel reads each element before writing it
_IN_PLACE: dict[str, tuple[int, ...]] = {
    **{name: (0,) for name in UFUNC_NAMES},
    **{name: (0, 1) for name in _BINARY_UFUNCS},
    # np.maximum(x, 0, out); sqrt then reciprocal in out; power; clip: all elementwise in x
    "relu": (0,), "rsqrt": (0,), "pow_scalar": (0,), "clip_scalar": (0,), "clip": (0,),
    # greater(y, 0, out) then out * g, or multiply(g, greater(y, 0), out) when out is g
    "relu_grad": (0, 1),
    # y*y into out, then 1 - out, then out * g: out may be y (read first), never g
    "tanh_grad": (0,),
    # copyto(out, y) then copyto(out, x, where=cond): out may only be y
    "where": (2,),
    # x - max(x) into out, then only out and the labels are read: out may be the logits
    "softmax_cross_entropy_grad": (0,),
}

NUMPY_MEMORY: dict[str, KernelMemory] = {
    **{name: KernelMemory.VIEW for name in _VIEW},
    **{name: KernelMemory.FRESH for name in _FRESH},
    **{name: KernelMemory.writes_out(_IN_PLACE.get(name, ())) for name in _WRITES_OUT},
}
"""Primitive name -> the NumPy kernel's memory facts."""
