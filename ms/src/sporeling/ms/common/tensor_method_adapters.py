"""The functions behind ``tensor_methods``' ADAPTED and in-place tables: MindSpore 2.10's
``Tensor`` methods that are not one ``ms.ops`` call with the tensor first, and
:func:`_write`, which writes a result into a tensor for the ``name_`` forms."""
from __future__ import annotations

import numpy as np

from sporeling.compiler import ops as _sops
from sporeling.core import SporelingError, dtypes
from sporeling.expression import Parameter, Tensor

from .dtype import to_numpy


def _ops():
    from .. import ops  # the facade's functions (imported after this module)
    return ops


# --- everything else: x first, then MindSpore's method arguments --------------------------
def _alpha(op):
    def method(x, other, *, alpha=1):
        return op(x, other if alpha == 1 else _ops().mul(other, alpha))
    return method


def _sort(x, dim=-1, descending=False, stable=False, *, axis=None):
    return _ops().sort(x, dim if axis is None else axis, descending)


def _topk(x, k, dim=-1, largest=True, sorted=True):  # noqa: A002 - MindSpore's name
    return _ops().topk(x, k, dim, largest, sorted)


def _gather(x, dim, index):
    """``Tensor.gather(dim, index)`` (``torch.gather``) in 2.10; the older
    ``gather(input_indices, axis, batch_dims=0)`` when the first argument is a tensor."""
    ops = _ops()
    if isinstance(dim, (Tensor, np.ndarray, list)):
        return ops.gather(x, dim, index)
    return ops.gather_elements(x, dim, index)


def _where(x, condition, y):
    return _ops().where(condition, x, y)


def _select(x, dim, index):
    """``x.select(dim, index)``: the slice at ``index`` along ``dim`` (that axis removed)."""
    key = [slice(None)] * x.ndim
    key[dim] = int(index)
    return x[tuple(key)]


def _scatter_add(x, dim, index, src):
    return _ops().tensor_scatter_elements(x, index, src, dim, "add")


def _expand(x, *size):
    shape = size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    shape = tuple(x.shape[i - (len(shape) - x.ndim)] if s == -1 else s
                  for i, s in enumerate(shape))
    return _ops().broadcast_to(x, shape)


def _transpose(x, *axes):
    """``transpose(dim0, dim1)`` swaps two axes (2.10); ``transpose(*axes)`` permutes."""
    if len(axes) == 2 and x.ndim != 2 and all(isinstance(a, int) for a in axes):
        return _sops.swapaxes(x, *axes) if hasattr(_sops, "swapaxes") else x.swapaxes(*axes)
    return x.transpose.__wrapped__(x, *axes)


def _squeeze(x, *axis, dim=None):
    """``squeeze(*axis)`` / ``squeeze(dim=...)``: an axis whose size is not 1 is left as is
    (2.10); none given: every size-1 axis removed."""
    axes = axis if dim is None else (dim,)
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    original = Tensor.squeeze.__wrapped__
    if not axes or axes == (None,):
        return original(x)
    keep = tuple(a % x.ndim for a in axes if x.shape[a] == 1)
    return original(x, keep) if keep else x


def _view(x, *shape):
    """``view(*shape)``; ``view(dtype)`` reinterprets the bytes (NumPy's ``view``)."""
    if len(shape) == 1 and not isinstance(shape[0], (tuple, list, int)):
        data = x.asnumpy()
        return Tensor(data.view(to_numpy(shape[0])))
    from sporeling.compiler import ops
    shape = tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) \
        else shape
    return ops.reshape(x, shape)


def _unique(x, sorted=True, return_inverse=False, return_counts=False,  # noqa: A002
            dim=None):
    if dim is not None:
        raise SporelingError("Tensor.unique(dim=...) is not in the facade", op="unique",
                             expected="dim=None", got=f"dim={dim}")
    values, inverse, counts = np.unique(x.asnumpy(), return_inverse=True,
                                        return_counts=True)
    out = [Tensor(values)]
    if return_inverse:
        out.append(Tensor(inverse.reshape(x.shape).astype(np.int64)))
    if return_counts:
        out.append(Tensor(counts.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def _kthvalue(x, k, dim=-1, keepdim=False):
    ops = _ops()
    values, indices = ops.sort(x, dim)
    n = ops.narrow(values, dim, k - 1, 1), ops.narrow(indices, dim, k - 1, 1)
    return n if keepdim else (ops.squeeze(n[0], dim), ops.squeeze(n[1], dim))


def _new(fill):
    def method(x, size, *args, dtype=None, **_):
        shape = tuple(size) if isinstance(size, (tuple, list)) else (size,) + \
            tuple(a for a in args if isinstance(a, int))
        return Tensor(np.full(shape, fill, to_numpy(dtype or x.dtype)))
    return method


def _new_full(x, size, fill_value, *, dtype=None, **_):
    return Tensor(np.full(tuple(size), fill_value, to_numpy(dtype or x.dtype)))


def _cast_to(dtype):
    def method(x):
        return _sops.cast(x, dtype)
    return method


def _type(x, dtype=None):
    """``x.type()``: the dtype's name (``'Float32'``); ``x.type(dtype)``: cast."""
    if dtype is None:
        from sporeling.expression.tensor.tensor import dtype_name
        return dtype_name(x.dtype)
    return _sops.cast(x, dtype)


def _argmax_with_value(x, axis=0, keep_dims=False):
    """``(values, indices)`` of the largest entries along ``axis``."""
    return _sops.max(x, axis, keep_dims), _sops.argmax(x, axis, keep_dims)


def _argmin_with_value(x, axis=0, keep_dims=False):
    """``(values, indices)`` of the smallest entries along ``axis``."""
    return _sops.min(x, axis, keep_dims), _sops.argmin(x, axis, keep_dims)


def _fill_diagonal(x, fill_value, wrap=False):
    """A copy with the main diagonal set to ``fill_value`` (NumPy's ``fill_diagonal``)."""
    data = np.array(x.asnumpy())
    np.fill_diagonal(data, fill_value, wrap=wrap)
    return Tensor(data)


def _index_add(x, dim, index, source, *, alpha=1):
    """``x`` with ``alpha * source`` added at ``index`` along ``dim`` (``index_add_``'s
    value)."""
    ops = _ops()
    return ops.index_add(x, index, source if alpha == 1 else ops.mul(source, alpha), dim)


def _masked_scatter(x, mask, source):
    """``x`` where ``mask`` is false; the next elements of ``source`` (in order) where it is
    true."""
    ops = _ops()
    mask = ops.broadcast_to(mask, tuple(x.shape))
    flat = _sops.reshape(mask, (-1,))
    position = ops.cumsum(_sops.cast(flat, dtypes.int32), 0) - 1
    position = ops.clamp(position, 0, None)
    taken = ops.gather(_sops.reshape(source, (-1,)), position, 0)
    return ops.where(mask, _sops.reshape(taken, tuple(x.shape)), x)


def _put(x, index, source, accumulate=False):
    """``x`` with ``source`` at the flat positions ``index`` (added when ``accumulate``)."""
    flat = _sops.reshape(x, (-1,))
    index = _sops.reshape(_ints(index), (-1,))
    index = _ops().remainder(index, flat.shape[0])  # negative positions count from the end
    source = _sops.reshape(_sops.cast(_tensor(source), x.dtype), (-1,))
    out = _ops().tensor_scatter_elements(flat, index, source, 0,
                                         "add" if accumulate else "none")
    return _sops.reshape(out, tuple(x.shape))


def _index_put(x, indices, values, accumulate=False):
    """``x[indices] = values`` for a tuple of integer index tensors (one per leading axis),
    as a new tensor; ``accumulate`` adds."""
    strides = _strides(x)
    indices = [_ints(i) for i in indices]
    shape = tuple(np.broadcast_shapes(*(tuple(i.shape) for i in indices)))
    flat = None
    for axis, index in enumerate(indices):
        index = _ops().remainder(_ops().broadcast_to(index, shape), x.shape[axis])
        term = _ops().mul(index, strides[axis])
        flat = term if flat is None else _ops().add(flat, term)
    rest = tuple(x.shape[len(indices):])
    if rest:  # whole trailing slices: one flat position per element of each
        inner = int(np.prod(rest))
        flat = _ops().add(_sops.reshape(flat, shape + (1,)),
                          Tensor(np.arange(inner, dtype=np.int64)))
    values = _ops().broadcast_to(_sops.cast(_tensor(values), x.dtype),
                                 tuple(flat.shape[:len(shape)]) + rest)
    return _put(x, flat, values, accumulate)


def _index_copy(x, dim, index, source):
    """``x`` with the slices at ``index`` along ``dim`` replaced by ``source``'s."""
    dim = dim % x.ndim
    shape = [1] * x.ndim
    shape[dim] = -1
    index = _ops().broadcast_to(_sops.reshape(_ints(index), tuple(shape)), tuple(source.shape))
    return _ops().tensor_scatter_elements(x, index, _sops.cast(source, x.dtype), dim, "none")


def _ints(index):
    index = _tensor(index)
    return index if index.dtype.kind in "iu" else _sops.cast(index, np.int64)


def _tensor(value):
    return value if isinstance(value, Tensor) else Tensor(np.asarray(value))


def _uniform01(x):
    return _ops().uniform(tuple(x.shape), Tensor(0.0), Tensor(1.0))


def _bernoulli(x, *, generator=None):
    """0/1 samples, 1 with probability ``x`` (each element of ``x`` a probability)."""
    return _sops.cast(_ops().lt(_uniform01(x), x), x.dtype)


def _quantile(x, q, axis=None, keepdims=False):
    """The ``q``-quantiles (linear interpolation between the sorted values), like
    ``np.quantile``; ``q`` a number or a 1-D tensor (its axis first in the result)."""
    ops = _ops()
    dim, keepdim = axis, keepdims
    if dim is None:
        x, dim = _sops.reshape(x, (-1,)), 0
    dim = dim % x.ndim
    values = ops.sort(x, dim)[0]
    n = x.shape[dim]
    qs = np.atleast_1d(q.asnumpy() if isinstance(q, Tensor) else np.asarray(q, np.float64))
    parts = []
    for p in qs:
        pos = float(p) * (n - 1)
        lo, hi = int(np.floor(pos)), int(np.ceil(pos))
        a, b = ops.narrow(values, dim, lo, 1), ops.narrow(values, dim, hi, 1)
        part = ops.add(a, ops.mul(ops.sub(b, a), pos - lo))
        parts.append(part if keepdim else ops.squeeze(part, dim))
    if isinstance(q, Tensor) and q.ndim == 0 or np.ndim(q) == 0:
        return parts[0]
    return ops.stack(parts, 0)


def _strides(x):
    """Elements to step per axis (a contiguous layout, as MindSpore's tensors are)."""
    out, step = [], 1
    for n in reversed(x.shape):
        out.append(step)
        step *= n
    return out[::-1]


def _sample(draw):
    def method(x, *args, **kwargs):
        return _write(x, draw(x, *args, **kwargs))
    return method


def _max_min(op, arg):
    """``max(dim=..., keepdim=...)`` gives ``(values, indices)`` (2.10); without ``dim`` it is
    Sporeling's ``max(axis=None, keepdims=False)`` (the values)."""
    def method(x, *args, dim=None, keepdim=False, **kwargs):
        if dim is None:
            return getattr(x, op).__wrapped__(x, *args, **kwargs)
        return getattr(_sops, op)(x, dim, keepdim), getattr(_sops, arg)(x, dim, keepdim)
    method.__doc__ = _max_min.__doc__.replace("max", op)
    return method


def _add(x, other, *, alpha=1):
    ops = _ops()
    return ops.add(x, other if alpha == 1 else ops.mul(other, alpha))


def _div(x, other, *, rounding_mode=None):
    return _ops().div(x, other, rounding_mode=rounding_mode)


def _allclose(x, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _ops().isclose(x, other, rtol, atol, equal_nan).all()


def _ptp(x, axis=None, keepdims=False):
    ops = _ops()
    return ops.sub(ops.amax(x, axis, keepdims), ops.amin(x, axis, keepdims))


def _sum_to_size(x, *size):
    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape)
                                     if s == 1 and x.shape[lead + i] != 1)
    out = x.sum(axes, keepdims=True) if axes else x
    return out.reshape(shape)


def _take(x, indices, axis=None, mode="clip"):
    ops = _ops()
    if axis is None:
        x, axis = x.reshape(-1), 0
    n = x.shape[axis]
    idx = indices if isinstance(indices, Tensor) else Tensor(np.asarray(indices))
    idx = ops.clip(idx, -n, n - 1) if mode == "clip" else ops.remainder(idx, n)
    return ops.gather(x, idx, axis)


ADAPTED = {
    "index_put": _index_put,
    "bernoulli": _bernoulli,
    "cauchy": lambda x, median=0.0, sigma=1.0: _sops.cast(_ops().add(_ops().mul(
        _ops().tan(_ops().mul(_ops().sub(_uniform01(x), 0.5), np.pi)), sigma), median),
        x.dtype),
    "log_normal": lambda x, mean=1.0, std=2.0: _sops.cast(_ops().exp(_ops().normal(
        tuple(x.shape), Tensor(float(mean)), Tensor(float(std)))), x.dtype),
    "quantile": _quantile,
    "max": _max_min("max", "argmax"),
    "min": _max_min("min", "argmin"),
    "top_k": lambda x, k, sorted=True: _ops().topk(x, k, -1, True, sorted),  # noqa: A006
    "fills": lambda x, value: _ops().full_like(x, value),
    "masked_scatter": _masked_scatter,
    "round": lambda x, decimals=0: _ops().round(x, decimals=decimals),
    "argmax_with_value": _argmax_with_value,
    "argmin_with_value": _argmin_with_value,
    "fill_diagonal": _fill_diagonal,
    "soft_shrink": lambda x, lambd=0.5: _ops().softshrink(x, lambd),
    "stride": lambda x, dim=None: _strides(x) if dim is None else _strides(x)[dim],
    "storage_offset": lambda x: 0,
    "new_empty": _new(0),
    "add": _add,
    "sub": _alpha(lambda x, y: _ops().sub(x, y)),
    "subtract": _alpha(lambda x, y: _ops().sub(x, y)),
    "div": _div,
    "divide": _div,
    "sort": _sort,
    "topk": _topk,
    "gather": _gather,
    "where": _where,
    "select": _select,
    "scatter_add": _scatter_add,
    "expand": _expand,
    "expand_as": lambda x, other: _ops().broadcast_to(x, tuple(other.shape)),
    "broadcast_to": lambda x, *shape: _ops().broadcast_to(
        x, tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list))
        else shape),
    "view": _view,
    "transpose": _transpose,
    "squeeze": _squeeze,
    "view_as": lambda x, other: x.reshape(tuple(other.shape)),
    "reshape_as": lambda x, other: x.reshape(tuple(other.shape)),
    "type_as": lambda x, other: _sops.cast(x, other.dtype),
    "unique": _unique,
    "kthvalue": _kthvalue,
    "allclose": _allclose,
    "ptp": _ptp,
    "sum_to_size": _sum_to_size,
    "take": _take,
    "dim": lambda x: x.ndim,
    "ndimension": lambda x: x.ndim,
    "nelement": lambda x: x.size,
    "numel": lambda x: x.size,
    "is_signed": lambda x: x.dtype.kind in "fic" or x.dtype == dtypes.bfloat16,
    "is_contiguous": lambda x: True,
    "contiguous": lambda x: x,
    "double": _cast_to(dtypes.float64),
    "short": _cast_to(dtypes.int16),
    "byte": _cast_to(dtypes.uint8),
    "bfloat16": _cast_to(dtypes.bfloat16),
    "type": _type,
    "new_zeros": _new(0),
    "new_ones": _new(1),
    "new_full": _new_full,
    "bitwise_not": lambda x: _ops().invert(x),
    "fill": lambda x, value: _ops().full_like(x, value),
    "masked_fill": lambda x, mask, value: _ops().masked_fill(x, mask, value),
}

# ADAPTED methods that read the data (NumPy): PyNative only, like eager-only functions.
EAGER_ONLY = {"unique", "fill_diagonal"}

# Sporeling's own methods that the ADAPTED one extends (its calls keep their meaning).
# view(dtype); transpose(dim0, dim1) of a 3-d+ tensor; max/min(dim=...) -> (values, indices);
# squeeze of a size > 1 axis: as is.
SUPERSETS = {"view", "transpose", "max", "min", "squeeze"}


# --- x.name_(...) writes x.name(...) into x ------------------------------------------------
INPLACE = """
add sub mul div floor_divide remainder clamp masked_fill exp log sigmoid tanh floor sign
scatter scatter_add index_fill addmm erfinv fill_diagonal
""".split()


def _write(x, out):
    """``out`` (a Tensor) written into ``x``; ``x``."""
    from sporeling.expression.autograd.state import STATE
    from sporeling.compiler import ops
    out = ops.cast(ops.broadcast_to(out, tuple(x.shape)), x.dtype)
    if isinstance(x, Parameter):
        x.set_data(out)
        return x
    data = out._data
    recording = STATE.tape is not None and (out._node is not None or x._node is not None)
    if type(data) is not np.ndarray or type(x._data) is not np.ndarray or recording:
        x._data, x._node, x._tape, x._index = data, out._node, out._tape, out._index
    else:
        np.copyto(x._data, data)
    return x


def _zero(x):
    return _write(x, _ops().zeros_like(x))


def _fill(x, value):
    return _write(x, _ops().full_like(x, value))


def _copy(x, src, non_blocking=False):
    return _write(x, src if isinstance(src, Tensor) else Tensor(src))


INPLACE_ADAPTED = {
    "put_": lambda x, *a, **k: _write(x, _put(x, *a, **k)),
    "index_put_": lambda x, *a, **k: _write(x, _index_put(x, *a, **k)),
    "index_copy_": lambda x, *a, **k: _write(x, _index_copy(x, *a, **k)),
    "bernoulli_": _sample(lambda x, p=0.5, *, generator=None: _sops.cast(
        _ops().lt(_uniform01(x), p), x.dtype)),
    "exponential_": _sample(lambda x, lambd=1.0, *, generator=None: _ops().div(
        _ops().neg(_ops().log1p(_ops().neg(_uniform01(x)))), lambd)),
    "index_add_": lambda x, *a, **k: _write(x, _index_add(x, *a, **k)),
    "masked_scatter_": lambda x, *a, **k: _write(x, _masked_scatter(x, *a, **k)),
    "uniform_": _sample(lambda x, from_=0.0, to=1.0, generator=None: _ops().uniform(
        tuple(x.shape), Tensor(float(from_)), Tensor(float(to)))),
    "normal_": _sample(lambda x, mean=0.0, std=1.0, *, generator=None: _ops().normal(
        tuple(x.shape), Tensor(float(mean)), Tensor(float(std)))),
    "zero_": _zero,
    "fill_": _fill,
    "copy_": _copy,
}
