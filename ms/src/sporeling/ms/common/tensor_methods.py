"""MindSpore 2.10's ``Tensor`` methods, as tables over the facade's ``ms.ops`` functions.

``ms.Tensor`` *is* ``sporeling.expression.Tensor`` (ops return it), so the facade adds the
methods MindSpore has and Sporeling's Tensor lacks to that class when ``sporeling.ms`` is
imported. Every method is a row of a table: ``name -> ms.ops function`` called with the
tensor first, through an argument adapter (keywords renamed, arguments reordered). They
are op calls, so they differentiate and trace into ``ms.jit`` graphs like the functions.

* :data:`SAME` -- ``x.name(*args, **kw) == ops.name(x, *args, **kw)``.
* :data:`RENAMED` -- MindSpore's method keywords renamed to the function's (``dim`` ->
  ``axis``, ...), and positional arguments taken as they come.
* :data:`ADAPTED` -- the rest: a small function ``(x, ...) -> result`` each
  (``tensor_method_adapters``, with the in-place ones).
* :data:`INPLACE` -- ``x.add_(y)``: the out-of-place method's result written into ``x``
  (its dtype kept), ``x`` returned; in a traced graph or while ``grad`` records, ``x`` is
  rebound to the result instead (functional), and a Parameter takes it with ``set_data``.
* ``tensor_methods_linalg.LINALG`` -- ``qr``, ``triangular_solve`` (``ms.ops``' function
  when the facade has one, else LAPACK on the values) and ``choose``;
  ``tensor_methods_grad.GRAD`` -- ``register_hook``, ``hooks``; ``tensor_methods_host.HOST`` -- the data's
  place and flags on the one host device (``device``, ``move_to``, ``data_ptr``, DLPack,
  ``assign_value``, ``itemset``, ``resize``, ``random_``, ``const_arg``, ...).
* :data:`EXTENDED` -- Sporeling's own methods that take MindSpore's ``dim``/``keepdim``
  keywords too (``x.sum(dim=1, keepdim=True)``); their positional forms are unchanged.

Methods Sporeling's Tensor already has keep their meaning: :data:`SUPERSETS` only add calls
that were errors there (``view(dtype)``, ``transpose(dim0, dim1)`` of a 3-d tensor,
``max(dim=1)`` -> ``(values, indices)``, ``squeeze`` of a size > 1 axis). Where 2.10 gives
the same call another meaning, Sporeling's stays: ``x.max(1)`` is the values (2.10:
``(values, indices)``), ``x.repeat(2, 1)`` is ``np.repeat`` (2.10: ``tile``), ``x.norm(2)`` of
a matrix is the 2-norm of its elements (2.10: the spectral norm).

    >>> import sporeling.ms as ms
    >>> x = ms.Tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    >>> x.add(1, alpha=2).sub(x).tolist()
    [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]
    >>> x.sum(dim=1, keepdim=True).shape, x.cumsum(1)[1].tolist()
    ((2, 1), [4.0, 6.0, 12.0])
"""
from __future__ import annotations

from sporeling.compiler import ops as _sops
from sporeling.expression import Parameter, Tensor

from .dtype import to_numpy
from .tensor_method_adapters import (ADAPTED, EAGER_ONLY, INPLACE, INPLACE_ADAPTED, SUPERSETS,
                                     _ops, _strides, _tensor, _write)
from .tensor_methods_host import (HOST, HOST_ATTRIBUTES, HOST_EAGER_ONLY, HOST_PROPERTIES,
                                  HOST_STATIC)
from .tensor_methods_grad import GRAD
from .tensor_methods_linalg import LINALG, PreferOp
from . import tensor_print

__all__ = ["SAME", "RENAMED", "ADAPTED", "INPLACE", "INPLACE_ADAPTED", "EXTENDED",
           "PROPERTIES", "SETTABLE", "SUPERSETS", "EAGER_ONLY", "install", "installed"]


# --- x.name(...) == ops.name(x, ...) ----------------------------------------------------
SAME = """
absolute acos acosh arccos arccosh arcsin arcsinh arctan arctan2 arctanh asin asinh atan
atan2 atanh ceil cos cosh deg2rad digamma erf erfc erfinv expm1 floor frac i0 imag
inv invert isfinite isinf isnan isneginf isposinf isreal lgamma log10 log1p log2 logit neg
negative positive rad2deg real reciprocal rsqrt sgn sigmoid sign signbit sin sinc sinh tan
tanh trunc conj angle
mul div divide floor_divide remainder fmod fmax fmin maximum minimum eq ne lt le gt
ge greater greater_equal less less_equal not_equal equal isclose logical_and logical_or
logical_xor logical_not bitwise_and bitwise_or bitwise_xor bitwise_left_shift
bitwise_right_shift gcd lcm hypot heaviside copysign nextafter ldexp logaddexp logaddexp2
xlogy xdivy float_power igamma igammac true_divide multiply lerp addcdiv addcmul
mm bmm dot outer inner ger addmm addbmm baddbmm addmv addr matrix_power
det logdet slogdet inverse trace t adjoint diag diagflat tril triu cross
broadcast_to roll flip fliplr flipud rot90 moveaxis movedim swapdims swapaxes ravel
hsplit vsplit dsplit tensor_split narrow unbind unfold fold col2im
diagonal_scatter select_scatter slice_scatter masked_select masked_fill index_fill
gather_elements gather_nd nonzero argwhere count_nonzero
cummax cummin cumprod logcumsumexp logsumexp amax amin aminmax median nanmedian nanmean
nansum msort argsort searchsorted bincount histc unique unique_consecutive
multinomial random_categorical nan_to_num renorm hardshrink diff cov mvlgamma numel
is_complex is_floating_point
approximate_equal unsorted_segment_max unsorted_segment_min unsorted_segment_prod
reverse reverse_sequence repeat_interleave scatter_div scatter_max scatter_min scatter_mul
scatter_sub inplace_update index_add cholesky cholesky_solve svd unique_with_pad
geqrf orgqr lstsq lu_solve cholesky_inverse nanquantile matrix_determinant
log_matrix_determinant
""".split()

# --- MindSpore's method keywords -> the function's; positional arguments pass through -----
RENAMED: dict[str, tuple[str, dict[str, str]]] = {
    # method: (ops function, {method keyword: function keyword})
    "cumsum": ("cumsum", {"dim": "axis"}),
    "chunk": ("chunk", {"dim": "axis"}),
    "split": ("split", {"split_size": "split_size_or_sections", "dim": "axis"}),
    "index_select": ("index_select", {"dim": "axis"}),
    "argsort": ("argsort", {"dim": "axis"}),
    "topk": ("topk", {}),
    "scatter": ("scatter", {"dim": "axis"}),
    "narrow": ("narrow", {"dim": "axis"}),
    "median": ("median", {"dim": "axis", "keepdim": "keepdims"}),
    "amax": ("amax", {"dim": "axis", "keepdim": "keepdims"}),
    "amin": ("amin", {"dim": "axis", "keepdim": "keepdims"}),
    "nansum": ("nansum", {"dim": "axis", "keepdim": "keepdims"}),
    "count_nonzero": ("count_nonzero", {"dim": "axis", "keepdim": "keep_dims"}),
    "cummax": ("cummax", {"dim": "axis"}),
    "cummin": ("cummin", {"dim": "axis"}),
    "cumprod": ("cumprod", {"axis": "dim"}),
    "logcumsumexp": ("logcumsumexp", {"dim": "axis"}),
    "repeat_interleave": ("repeat_interleave", {"dim": "axis"}),
    "diagonal": ("diagonal", {"axis1": "dim1", "axis2": "dim2"}),
    "float_power": ("float_power", {"other": "exponent"}),
    "approximate_equal": ("approximate_equal", {"other": "y"}),
    "true_divide": ("true_divide", {}),
    "ormqr": ("ormqr", {"input2": "tau", "input3": "other"}),
}


# --- properties ---------------------------------------------------------------------------
def _last_two_swapped(x):
    return x if x.ndim < 2 else _ops().swapaxes(x, -1, -2)


PROPERTIES = {  # (a 0-d or 1-d tensor is returned as is, conjugated for H/mH)
    "mT": _last_two_swapped,
    "strides": lambda x: tuple(n * x.itemsize for n in _strides(x)),
    "mH": lambda x: _last_two_swapped(_ops().conj(x)),
    "H": lambda x: _last_two_swapped(_ops().conj(x)),
    **HOST_PROPERTIES,  # device, const_arg
}

def _data_get(x):
    """The data without a gradient history (a tensor sharing the memory)."""
    return x.detach()


def _data_set(x, value):
    """``x.data = value``: ``x`` holds ``value``'s data from now on (shape and dtype too)."""
    value = _tensor(value)
    if isinstance(x, Parameter):
        x.set_data(value, slice_shape=tuple(value.shape) != tuple(x.shape))
        return
    x._data, x._node, x._tape, x._index = value._data, None, None, 0


SETTABLE = {"data": (_data_get, _data_set)}  # properties with a setter


# --- Sporeling's methods given MindSpore's dim/keepdim keywords ---------------------------
EXTENDED = {
    # method: {MindSpore keyword: Sporeling keyword}
    "sum": {"dim": "axis", "keepdim": "keepdims", "dtype": "dtype"},
    "mean": {"dim": "axis", "keepdim": "keepdims", "dtype": "dtype"},
    "prod": {"dim": "axis", "keepdim": "keepdims", "dtype": "dtype"},
    "argmax": {"dim": "axis", "keepdim": "keepdims"},
    "argmin": {"dim": "axis", "keepdim": "keepdims"},
    "all": {"dim": "axis", "keepdim": "keepdims", "keep_dims": "keepdims"},
    "any": {"dim": "axis", "keepdim": "keepdims", "keep_dims": "keepdims"},
    "std": {"dim": "axis", "keepdim": "keepdims"},
    "var": {"dim": "axis", "keepdim": "keepdims"},
    "norm": {"p": "ord", "dim": "axis", "keepdim": "keepdims"},
    "unsqueeze": {"dim": "axis"},
    "expand_dims": {"dim": "axis"},
}

_installed: list[str] = []


def installed() -> list[str]:
    """The names :func:`install` added or extended on ``Tensor``."""
    return list(_installed)


def _renamer(renames):
    def adapt(kwargs):
        return {renames.get(k, k): v for k, v in kwargs.items()}
    return adapt


def _from_op(name, fn_name, adapt=None, doc=None):
    def method(self, *args, **kwargs):
        return getattr(_ops(), fn_name)(self, *args, **(adapt(kwargs) if adapt else kwargs))
    method.__doc__ = doc or f"``ms.ops.{fn_name}(self, ...)`` (MindSpore's ``Tensor.{name}``)."
    if getattr(getattr(_ops(), fn_name), "__ms_eager_only__", False) is True:
        method.__ms_eager_only__ = True  # as its function: no Graph mode
    return method


def _from_fn(name, fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__doc__ = fn.__doc__ or f"MindSpore's ``Tensor.{name}``."
    if name in EAGER_ONLY or name in HOST_EAGER_ONLY or getattr(fn, "__ms_eager_only__", False):
        method.__ms_eager_only__ = True
    return method


def _inplace(name, fn):
    def method(self, *args, **kwargs):
        return _write(self, fn(self, *args, **kwargs))
    method.__doc__ = (f"In place: ``self.{name[:-1]}(...)`` written into ``self`` (its dtype "
                      "kept); returns ``self``.")
    return method


def _extended(name, original, renames):
    def method(self, *args, **kwargs):
        if "dtype" in renames and kwargs.get("dtype") is not None:  # cast, then reduce
            self = _sops.cast(self, to_numpy(kwargs.pop("dtype")))
        kwargs.pop("dtype", None)
        return original(self, *args, **{renames.get(k, k): v for k, v in kwargs.items()})
    method.__doc__ = (original.__doc__ or "") + \
        f" Also MindSpore's keywords: {', '.join(sorted(renames))}" + \
        (" (the tensor is cast to dtype first)." if "dtype" in renames else ".")
    method.__wrapped__ = original
    return method


def _set(name, method):
    method.__name__ = name
    method.__qualname__ = f"Tensor.{name}"
    method.__module__ = __name__
    setattr(Tensor, name, method)
    _installed.append(name)


def install() -> None:
    """Add the tables' methods to ``Tensor`` (those it lacks; :data:`EXTENDED` wraps its
    own). Idempotent."""
    if _installed:
        return
    ops = _ops()
    new: dict = {}
    for name in SAME:
        if hasattr(ops, name):
            new[name] = _from_op(name, name)
    for name, (fn_name, renames) in RENAMED.items():
        if hasattr(ops, fn_name):
            new[name] = _from_op(name, fn_name, _renamer(renames) if renames else None)
    for name, fn in {**ADAPTED, **LINALG, **HOST, **GRAD}.items():
        new[name] = fn if isinstance(fn, PreferOp) else _from_fn(name, fn)
    for name, method in new.items():
        if not hasattr(Tensor, name):
            _set(name, method)
        elif name in SUPERSETS and not hasattr(getattr(Tensor, name), "__wrapped__"):
            method.__wrapped__ = getattr(Tensor, name)
            _set(name, method)
    for name in INPLACE:
        if hasattr(Tensor, name) and not hasattr(Tensor, name + "_"):
            _set(name + "_", _inplace(name + "_", getattr(Tensor, name)))
    for name, fn in INPLACE_ADAPTED.items():
        if not hasattr(Tensor, name):
            _set(name, _from_fn(name, fn))
    for name, renames in EXTENDED.items():
        original = getattr(Tensor, name)
        if getattr(original, "__wrapped__", None) is None:
            _set(name, _extended(name, original, renames))
    for name, (getter, setter) in SETTABLE.items():
        if not hasattr(Tensor, name):
            setattr(Tensor, name, property(getter, setter, doc=getter.__doc__))
            _installed.append(name)
    for name, getter in PROPERTIES.items():
        if not hasattr(Tensor, name):
            setattr(Tensor, name, property(getter, doc=getter.__doc__ or
                                           f"MindSpore's ``Tensor.{name}``."))
            _installed.append(name)
    for name, value in HOST_ATTRIBUTES.items():
        if not hasattr(Tensor, name):
            setattr(Tensor, name, value)
            _installed.append(name)
    for name, fn in HOST_STATIC.items():
        if not hasattr(Tensor, name):
            setattr(Tensor, name, staticmethod(fn))
            _installed.append(name)
    tensor_print.install(Tensor)  # print(x) and repr(x) as MindSpore 2.10
