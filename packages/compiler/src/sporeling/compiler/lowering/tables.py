"""How each primitive's kernel treats memory -- the facts the memory planner relies on.

Read off the NumPy kernels (``sporeling.runtime.kernels``); anything not listed here is
treated conservatively: its kernel allocates, and its outputs may alias any of its inputs.

* :data:`VIEW` -- the kernel returns a view of its input when given no ``out``: never
  planned, and the input's buffer must outlive every use of the view.
* :data:`WRITES_OUT` -- single-result kernels that write their whole result into ``out=``
  and return it (never a view of an input): their outputs get arena buffers.
* :data:`FRESH` -- multiple-result kernels that allocate every result (not planned, but
  they alias nothing).
* :data:`IN_PLACE` -- for kernels that read each input element before writing the same
  element of ``out`` (ufuncs), the input positions ``out`` may share memory with.

    >>> "reshape" in VIEW and "matmul" in WRITES_OUT and IN_PLACE["where"]
    (2,)
"""
from __future__ import annotations

__all__ = ["VIEW", "WRITES_OUT", "FRESH", "IN_PLACE"]

VIEW = frozenset({"reshape", "broadcast_to", "transpose", "flip", "slice", "getitem", "split"})

_UFUNC = ("neg", "exp", "log", "abs", "sign", "expm1", "log1p", "sqrt", "square",
          "reciprocal", "sin", "cos", "floor", "ceil", "round", "tanh",
          "add", "sub", "mul", "div", "maximum", "minimum", "floordiv", "mod", "pow", "atan2",
          "equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
          "logical_and", "logical_or", "logical_xor", "logical_not",
          "isnan", "isinf", "isfinite")

WRITES_OUT = frozenset(_UFUNC + (
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
    "rng_seed", "uniform", "normal", "bernoulli", "randint", "permutation"))

FRESH = frozenset({"normalize", "max_pool2d"})

IN_PLACE: dict[str, tuple[int, ...]] = {
    **{name: (0,) for name in _UFUNC},
    **{name: (0, 1) for name in _UFUNC if name in (
        "add", "sub", "mul", "div", "maximum", "minimum", "floordiv", "mod", "pow", "atan2",
        "equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
        "logical_and", "logical_or", "logical_xor")},
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
