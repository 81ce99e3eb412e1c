"""``ms.mint``: MindSpore 2.10's PyTorch-style operator namespace over ``ms.ops``.

mint names take ``input``/``dim``/``keepdim`` where ``ms.ops`` takes ``x``/``axis``/
``keep_dims``; most names are the ``ms.ops`` function itself (same positions) or it with its
keywords renamed (the tables below); the rest are a few lines over ``ms.ops``. Subpackages:
``mint.nn`` (layers), ``mint.nn.functional``, ``mint.optim`` (PyTorch's update rules).
"""
from __future__ import annotations

import builtins

import numpy as _np

from .. import ops as _ops
from ..common import dtype as _mstype
from ._adapt import same as _same, table as _table

_D = {"dim": "axis"}
_DK = {"dim": "axis", "keepdim": "keep_dims"}
_DKs = {"dim": "axis", "keepdim": "keepdims"}

# the ms.ops function as it is (same positions and keyword names)
_SAME = (
    "abs acos acosh addbmm addcdiv addmm addmv arange arccos arccosh arcsin arcsinh arctan "
    "arctan2 arctanh argmax asin asinh atan atan2 atanh bincount bitwise_and bitwise_or "
    "bitwise_xor broadcast_to ceil clamp cos cosh cross cumprod diff div divide dot dstack "
    "einsum eq erf erfc erfinv exp exp2 expm1 eye flip float_power floor floor_divide fmod "
    "frac full_like gcd greater greater_equal gt histc hstack imag inverse isclose "
    "isfinite isinf isnan isneginf le lerp less less_equal log log10 log1p log2 logaddexp "
    "logaddexp2 logical_and logical_not logical_or logical_xor logsumexp lt masked_select "
    "matmul maximum minimum mm mul mv nan_to_num ne neg negative nonzero not_equal ones_like "
    "outer pow ravel real reciprocal remainder reshape roll round rsqrt searchsorted sigmoid "
    "sign sin sinc sinh sqrt square swapaxes t tan tanh tile tril triu unbind "
    "unsqueeze xlogy zeros_like baddbmm cumsum").split()

_RENAMED = {
    "all": (_ops.all, _DK), "any": (_ops.any, _DK),
    "cat": (_ops.cat, _D), "concat": (_ops.concat, _D), "stack": (_ops.stack, _D),
    "chunk": (_ops.chunk, _D), "split": (_ops.split, _D),
    "index_select": (_ops.index_select, _D), "narrow": (_ops.narrow, _D),
    "scatter": (_ops.scatter, _D), "squeeze": (_ops.squeeze, _D),
    "repeat_interleave": (_ops.repeat_interleave, _D),
    "gather": (_ops.gather_elements, {}), "permute": (_ops.permute, {"dims": "axis"}),
    "sum": (_ops.sum, {}), "trace": (_ops.trace, {}), "bmm": (_ops.bmm, {"input": "input_x"}),
}


def _dtype(t, dtype):
    return t if dtype is None else t.astype(dtype)


def add(input, other, *, alpha=1):  # noqa: A002 - mint's keyword names
    """``input + alpha * other``."""
    return _ops.add(input, other if alpha == 1 else _ops.mul(other, alpha))


def sub(input, other, *, alpha=1):  # noqa: A002
    """``input - alpha * other``."""
    return _ops.sub(input, other if alpha == 1 else _ops.mul(other, alpha))


def max(input, dim=None, keepdim=False):  # noqa: A001,A002
    """``max(input)``: the largest element; ``max(input, dim, keepdim=False)``: (values,
    indices) along ``dim``; ``max(input, other)``: ``maximum``."""
    if dim is None:
        return _ops.amax(input)
    if not isinstance(dim, int):
        return _ops.maximum(input, dim)
    return _ops.max(input, dim, keepdim)


def min(input, dim=None, keepdim=False):  # noqa: A001,A002
    """``min(input)``, ``min(input, dim, keepdim=False)`` -> (values, indices), ``min(input,
    other)``: as ``max``."""
    if dim is None:
        return _ops.amin(input)
    if not isinstance(dim, int):
        return _ops.minimum(input, dim)
    return _ops.min(input, dim, keepdim)


def amax(input, dim=(), keepdim=False):  # noqa: A002
    """The largest values over ``dim`` (every dimension for ``()``)."""
    return _ops.amax(input, None if dim == () else dim, keepdim)


def amin(input, dim=(), keepdim=False):  # noqa: A002
    """The smallest values over ``dim`` (every dimension for ``()``)."""
    return _ops.amin(input, None if dim == () else dim, keepdim)


def mean(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    return _ops.mean(_dtype(input, dtype), dim, keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    return _ops.prod(input, dim, keepdim, dtype)


def nansum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    return _ops.nansum(input, dim, keepdim, dtype=dtype)


def median(input, dim=None, keepdim=False):  # noqa: A002
    """``median(input)``: the lower median of all elements; with ``dim``: (values, indices)."""
    if dim is None:
        return _ops.median(_ops.reshape(input, (-1,)), 0)[0]
    return _ops.median(input, dim, keepdim)


def std(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    return _ops.std(input, dim, correction, keepdim)


def var(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    return _ops.var(input, dim, correction, keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    return _ops.std_mean(input, dim, correction, keepdim)


def var_mean(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    return _ops.var_mean(input, dim, correction, keepdim)


def count_nonzero(input, dim=None):  # noqa: A002
    """The number of non-zero elements (over ``dim``), int64."""
    return _ops.count_nonzero(input, () if dim is None else dim, dtype=_mstype.int64)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """The ``p``-norm over ``dim`` (all elements, flattened, when ``dim`` is None)."""
    x = _dtype(input, dtype)
    if dim is None:
        x, dim = _ops.reshape(x, (-1,)), 0
        if keepdim:
            return _ops.reshape(norm(x, p, 0), (1,) * input.ndim)
    if p == "fro":
        p = 2 if isinstance(dim, int) or len(dim) == 1 else "fro"
    return _ops.norm(x, p, dim, keepdim)


def flatten(input, start_dim=0, end_dim=-1):  # noqa: A002
    return _ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def softmax(input, dim, *, dtype=None):  # noqa: A002
    return _ops.softmax(input, dim, dtype=dtype)


def _i64(t):
    """Indices as mint returns them: int64."""
    return t if t.dtype == _mstype.int64 else t.astype(_mstype.int64)


def _with_i64(pair):
    return pair[0], _i64(pair[1])


def sort(input, *, dim=-1, descending=False, stable=False):  # noqa: A002
    """(values, int64 indices) sorted along ``dim`` (the sort is stable)."""
    return _with_i64(_ops.sort(input, dim, descending))


def argsort(input, dim=-1, descending=False, stable=False):  # noqa: A002
    """int64 indices that sort ``input`` along ``dim`` (stably)."""
    return sort(input, dim=dim, descending=descending)[1]


def argmin(input, dim=None, keepdim=False):  # noqa: A002
    return _i64(_ops.argmin(input, dim, keepdim))


def cummax(input, dim):  # noqa: A002
    return _with_i64(_ops.cummax(input, dim))


def cummin(input, dim):  # noqa: A002
    return _with_i64(_ops.cummin(input, dim))


def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    """(values, int64 indices) of the ``k`` largest (smallest) elements along ``dim``."""
    return _with_i64(_ops.topk(input, k, dim, largest, sorted))


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The ``p``-norm distances of the rows of ``x1`` and ``x2`` (``compute_mode`` is
    PyTorch's speed hint; the result is the same)."""
    return _ops.cdist(x1, x2, p)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    return _ops.unique_consecutive(input, return_inverse, return_counts, dim)


def full(size, fill_value, *, dtype=None):
    """``size`` filled with ``fill_value``; the dtype of a Python ``fill_value``: bool, int64
    or float32."""
    if dtype is None and isinstance(fill_value, (bool, int, float)):
        dtype = (_mstype.bool_ if isinstance(fill_value, bool) else
                 _mstype.int64 if isinstance(fill_value, int) else _mstype.float32)
    return _ops.full(size, fill_value, dtype=dtype)


def kthvalue(input, k, dim=-1, keepdim=False):  # noqa: A002
    """(values, int64 indices) of the ``k``-th smallest element along ``dim``."""
    values, indices = topk(input, k, dim, largest=False, sorted=True)
    values, indices = (_ops.narrow(t, dim, k - 1, 1) for t in (values, indices))
    if not keepdim:
        values, indices = _ops.squeeze(values, dim), _ops.squeeze(indices, dim)
    return values, indices


def transpose(input, dim0, dim1):  # noqa: A002
    return _ops.swapaxes(input, dim0, dim1)


def select(input, dim, index):  # noqa: A002
    """The slice ``index`` of ``dim`` (that dimension removed)."""
    if index < 0:
        index += input.shape[dim]
    return _ops.squeeze(_ops.narrow(input, dim, index, 1), dim)


def take(input, index):  # noqa: A002
    """``input`` flattened, indexed by ``index``."""
    return _ops.gather(_ops.reshape(input, (-1,)), index, 0)


def scatter_add(input, dim, index, src):  # noqa: A002
    return _ops.tensor_scatter_elements(input, index, src, dim, "add")


def index_add(input, dim, index, source, *, alpha=1):  # noqa: A002
    """``input`` with ``alpha * source[i]`` added at ``index[i]`` along ``dim``."""
    shape = [1] * input.ndim
    shape[dim] = -1
    idx = _ops.broadcast_to(_ops.reshape(index, shape), source.shape)
    return scatter_add(input, dim, idx, source if alpha == 1 else _ops.mul(source, alpha))


def diag(input, diagonal=0):  # noqa: A002
    """A 1-D ``input`` on the ``diagonal``-th diagonal of a square matrix, or that diagonal
    of a 2-D ``input``."""
    if input.ndim == 1:
        return _ops.diag_embed(input, diagonal) if diagonal else _ops.diag(input)
    return _ops.diagonal(input, diagonal)


def meshgrid(*tensors, indexing=None):
    """``indexing`` 'ij' (the default) or 'xy'."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return _ops.meshgrid(*tensors, indexing=indexing or "ij")


def where(condition, input=None, other=None):  # noqa: A002
    """``where(condition, input, other)``; ``where(condition)``: ``nonzero(as_tuple=True)``."""
    if input is None and other is None:
        return _ops.nonzero(condition, as_tuple=True)
    return _ops.where(condition, input, other)


def clone(input):  # noqa: A002
    return _ops.deepcopy(input)


def bitwise_not(input):  # noqa: A002
    return _ops.invert(input)


bitwise_not.__ms_eager_only__ = True  # as ops.invert, which it calls


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    """True when every element is ``isclose`` (a Python bool)."""
    return builtins.bool(_ops.isclose(input, other, rtol, atol, equal_nan).all())


def vdot(input, other):  # noqa: A002
    """``sum(conj(input) * other)`` of two 1-D tensors."""
    return _ops.sum(_ops.mul(_ops.conj(input), other))


def _size(size):
    return tuple(size[0]) if len(size) == 1 and isinstance(size[0], (list, tuple)) else size


def zeros(*size, dtype=None):
    return _ops.zeros(_size(size), dtype)


def ones(*size, dtype=None):
    return _ops.ones(_size(size), dtype)


def empty(*size, dtype=None, device=None):
    """A tensor of ``size`` (its values are unspecified: zeros here)."""
    return _ops.zeros(_size(size), dtype)


def empty_like(input, *, dtype=None, device=None):  # noqa: A002
    return _ops.zeros_like(input, dtype=dtype)


def _no_generator(generator):
    if generator is not None:
        raise TypeError("mint: a generator argument is not supported; use ms.set_seed")


def rand(*size, generator=None, dtype=None, device=None):
    _no_generator(generator)
    return _ops.rand(*_size(size), dtype=dtype)


def randn(*size, generator=None, dtype=None, device=None):
    _no_generator(generator)
    return _ops.randn(*_size(size), dtype=dtype)


def rand_like(input, *, dtype=None, device=None):  # noqa: A002
    return _ops.rand_like(input, dtype=dtype)


def randn_like(input, *, dtype=None, device=None):  # noqa: A002
    return _ops.randn_like(input, dtype=dtype)


def randint(*args, generator=None, dtype=None, device=None):
    """``randint(high, size)`` or ``randint(low, high, size)``."""
    _no_generator(generator)
    low, high, size = (0, *args) if len(args) == 2 else args
    return _ops.randint(low, high, tuple(size), dtype=dtype or _mstype.int64)


def randint_like(input, *args, dtype=None, device=None):  # noqa: A002
    """``randint_like(input, high)`` or ``randint_like(input, low, high)``."""
    low, high = (0, *args) if len(args) == 1 else args
    return _ops.randint_like(input, low, high, dtype=dtype or input.dtype)


def randperm(n, *, generator=None, dtype=_mstype.int64):
    _no_generator(generator)
    return _ops.randperm(n, dtype=dtype)


def bernoulli(input, *, generator=None):  # noqa: A002
    """0/1 samples with probabilities ``input``."""
    _no_generator(generator)
    return (_ops.rand_like(input) < input).astype(input.dtype)


def multinomial(input, num_samples, replacement=False, *, generator=None):  # noqa: A002
    _no_generator(generator)
    return _ops.multinomial(input, num_samples, replacement)


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Samples of N(mean, std) (tensor ``mean``/``std`` broadcast; ``size`` for floats)."""
    _no_generator(generator)
    shape = tuple(size) if size is not None else _np.broadcast_shapes(
        getattr(mean, "shape", ()), getattr(std, "shape", ()))
    return _ops.normal(shape, mean, std)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    from .nn import functional
    return functional.conv2d(input, weight, bias, stride, padding, dilation, groups)


def addr_(input, vec1, vec2, beta=1, alpha=1):  # noqa: A002
    """``beta * input + alpha * outer(vec1, vec2)`` written into ``input`` (returned)."""
    return input.copy_(_ops.addr(input, vec1, vec2, beta=beta, alpha=alpha))


def conv_tbc(input, weight, bias, pad=0):  # noqa: A002
    """1-d convolution of a (time, batch, channels) ``input`` with a (kernel, in, out)
    ``weight``: ``conv1d`` over the permuted tensors."""
    from .nn import functional
    y = functional.conv1d(_ops.permute(input, (1, 2, 0)), _ops.permute(weight, (2, 1, 0)),
                          bias, 1, pad)
    return _ops.permute(y, (2, 0, 1))


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):  # noqa: N803
    """(X, A) with ``op(T) @ X = b``: ``T`` the upper (``upper``) or lower triangle of ``A``
    (ones on its diagonal for ``unitriangular``), ``op`` its transpose for ``transpose``."""
    t = _ops.triu(A) if upper else _ops.tril(A)
    if unitriangular:
        eye = _ops.eye(A.shape[-1], A.shape[-1], A.dtype)
        t = t - t * eye + eye
    return _ops.matrix_solve(t, b, adjoint=transpose), _ops.deepcopy(A)


def _channel_shape(input):  # noqa: A002
    return (1, -1) + (1,) * (input.ndim - 2)


def batch_norm_stats(input, eps):  # noqa: A002
    """(mean, invstd) per channel (dimension 1) over every other dimension: ``invstd =
    1 / sqrt(biased var + eps)`` (the local step of a synchronized BatchNorm)."""
    dims = (0, *range(2, input.ndim))
    mean = _ops.mean(input, dims)
    var = _ops.mean(_ops.square(input - _ops.reshape(mean, _channel_shape(input))), dims)
    return mean, _ops.rsqrt(var + eps)


def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None,  # noqa: A002
                     eps=1e-05):
    """``(input - mean) * invstd * weight + bias`` per channel (dimension 1)."""
    shape = _channel_shape(input)
    y = (input - _ops.reshape(mean, shape)) * _ops.reshape(invstd, shape)
    if weight is not None:
        y = y * _ops.reshape(weight, shape)
    if bias is not None:
        y = y + _ops.reshape(bias, shape)
    return y


def batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean=None,  # noqa: A002
                                        running_var=None, momentum=0.1, eps=1e-05,
                                        counts=None):
    """The global (mean, invstd) from per-process ``mean``/``invstd`` (rows) over ``counts``
    elements each; ``running_mean``/``running_var`` updated in place with ``momentum`` (the
    variance unbiased, as PyTorch's SyncBatchNorm)."""
    counts = _ops.reshape(counts.astype(mean.dtype), (-1, 1))
    total = _ops.sum(counts)
    global_mean = _ops.sum(mean * counts, 0) / total
    var_i = 1.0 / _ops.square(invstd) - eps
    var = _ops.sum((var_i + _ops.square(mean - global_mean)) * counts, 0) / total
    if running_mean is not None:
        running_mean.copy_(running_mean * (1 - momentum) + global_mean * momentum)
    if running_var is not None:
        unbiased = var * total / (total - 1)
        running_var.copy_(running_var * (1 - momentum) + unbiased * momentum)
    return global_mean, _ops.rsqrt(var + eps)


def npu_gelu(input, approximate="none"):  # noqa: A002
    """``gelu`` (MindSpore's Ascend kernel name)."""
    return _ops.gelu(input, approximate)


_NAMES = [*_same(_SAME, _ops, globals(), __name__), *_table(_RENAMED, globals(), __name__)]

__all__ = sorted({*_NAMES, *(n for n, v in list(globals().items())
                             if callable(v) and not n.startswith("_")
                             and getattr(v, "__module__", "") == __name__)})

from . import nn, optim, linalg, special  # noqa: E402,F401
