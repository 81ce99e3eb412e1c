"""The NumPy backend's kernel table and the helpers that make a kernel a one-liner.

A kernel is ``fn(backend, *inputs, out=None, **attrs)``: it writes into ``out`` when the
caller planned a buffer, else into ``backend.allocate(shape, dtype)``, and returns it.
Adding a NumPy kernel, with what it does with memory (:class:`KernelMemory`, which the
compiler's memory planner relies on; undeclared: ``opaque``, it allocates and may alias):

    define_ufunc("abs", np.absolute)                       # elementwise, broadcasting

    @define("square", memory=writes_out(0))
    def square(backend, x, out=None):
        return np.square(x, out=output(backend, out, np.shape(x), x.dtype))

``in_place`` lists the inputs ``out`` may share memory with: the kernel reads each element
of them before writing the same element of ``out``.

Dtypes follow NumPy (this is the reference backend); promotion policy is the compiler's job,
so kernels normally see inputs already cast.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

import numpy as np

from sporeling.core import ShapeError

from ..kernel_registry import KernelMemory

__all__ = ["NUMPY_KERNELS", "NUMPY_KERNEL_MEMORY", "define", "define_ufunc", "writes_out",
           "from_ufunc", "output", "result_dtype", "broadcast_shape", "normalize_axes"]

_ndarray = np.ndarray

NUMPY_KERNELS: dict[str, Callable] = {}
"""Primitive name -> NumPy kernel; runtime's plugin registers them for backend "numpy"."""

NUMPY_KERNEL_MEMORY: dict[str, KernelMemory] = {}
"""Primitive name -> what its NumPy kernel declared about memory where it was defined
(``define(..., memory=...)``); registered with the kernel."""


def define(name: str, fn: Callable | None = None, *, memory: KernelMemory | None = None):
    """Put ``fn`` in the table as ``name``, declaring what it does with ``memory`` (default
    ``opaque``); also usable as a decorator."""
    def put(fn: Callable) -> Callable:
        if name in NUMPY_KERNELS:
            raise ValueError(f"NumPy kernel {name!r} defined twice")
        NUMPY_KERNELS[name] = fn
        NUMPY_KERNEL_MEMORY[name] = memory or KernelMemory.OPAQUE
        return fn
    return put if fn is None else put(fn)


def define_ufunc(name: str, ufunc: np.ufunc) -> Callable:
    """Define ``name`` as :func:`from_ufunc`'s kernel: it writes ``out=``, which may be any
    of its inputs (a ufunc reads each element before writing it)."""
    return define(name, from_ufunc(name, ufunc),
                  memory=KernelMemory.writes_out(in_place=tuple(range(ufunc.nin))))


def writes_out(*in_place: int) -> KernelMemory:
    """``KernelMemory.writes_out(in_place)``: the kernel writes its whole result into
    ``out=``, which may share memory with the inputs at ``in_place``."""
    return KernelMemory.writes_out(in_place=in_place)


def output(backend, out, shape, dtype):
    """``out`` if the caller gave one, else a fresh buffer from ``backend``."""
    return backend.allocate(shape, dtype) if out is None else out


def _dtype_key(x):
    # Python scalars stay "weak" (NEP 50): float32 array + 2.0 stays float32
    # (exact types: NumPy scalars such as np.float64 subclass float but carry a dtype)
    return type(x) if type(x) in (bool, int, float, complex) else np.asarray(x).dtype


@lru_cache(maxsize=4096)
def _resolve(ufunc: np.ufunc, keys: tuple) -> np.dtype:
    return ufunc.resolve_dtypes(keys + (None,) * ufunc.nout)[-1]


def result_dtype(ufunc: np.ufunc, inputs) -> np.dtype:
    """The dtype NumPy's ``ufunc`` would give for ``inputs``."""
    return _resolve(ufunc, tuple(_dtype_key(x) for x in inputs))


def broadcast_shape(op: str, *shapes) -> tuple[int, ...]:
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ShapeError("operands do not broadcast", op=op,
                         expected="per axis, equal sizes or 1",
                         got=" and ".join(map(str, shapes))) from None


def from_ufunc(name: str, ufunc: np.ufunc) -> Callable:
    """A broadcasting elementwise kernel for primitive ``name`` from a NumPy ufunc."""
    same_dtype_result: dict = {}  # input dtype -> result dtype, for the common case
    nin = ufunc.nin

    def kernel(backend, *inputs, out=None):
        if len(inputs) != nin:
            raise TypeError(f"{name} takes {nin} inputs, got {len(inputs)}")
        if out is None:
            first = inputs[0]
            if type(first) is _ndarray:  # hottest: arrays of one shape and dtype
                dtype = same_dtype_result.get(first.dtype)
                if dtype is not None:
                    # operands named, not unpacked: ufunc(*inputs, out=...) costs a
                    # third of a small op more (out stays a keyword: NumPy deprecates a
                    # positional one for maximum and minimum)
                    if nin == 1:
                        return ufunc(first, out=backend.allocate(first.shape, dtype))
                    last = inputs[1]
                    # same shape, or a 0-d second operand (a Python scalar the op promoted)
                    if nin == 2 and type(last) is _ndarray and last.dtype is first.dtype \
                            and (last.shape == first.shape or not last.ndim):
                        return ufunc(first, last, out=backend.allocate(first.shape, dtype))
            out = backend.allocate(*_result(inputs))
        return ufunc(*inputs, out=out)

    def _result(inputs):
        # hot path: arrays of one dtype whose shapes are equal or 0-d (a promoted scalar)
        first = inputs[0]
        shape = getattr(first, "shape", None)
        dtype = getattr(first, "dtype", None)
        if shape is not None:
            for x in inputs[1:]:
                if getattr(x, "dtype", None) != dtype:
                    break
                other = getattr(x, "shape", None)
                if other != shape and other != ():
                    if shape != ():
                        shape = broadcast_shape(name, *(np.shape(x) for x in inputs))
                        continue
                    shape = other
            else:
                result = same_dtype_result.get(dtype)
                if result is None:
                    result = same_dtype_result[dtype] = result_dtype(ufunc, inputs)
                return shape, result
        return (broadcast_shape(name, *(np.shape(x) for x in inputs)),
                result_dtype(ufunc, inputs))

    kernel.__name__ = kernel.__qualname__ = f"numpy_{name}"
    kernel.__doc__ = f"NumPy kernel of ``{name}``: ``np.{ufunc.__name__}`` into pool memory."
    return kernel


def normalize_axes(op: str, axis, ndim: int) -> tuple[int, ...]:
    """``axis`` (None, an int, or a sequence) as sorted non-negative axes, checked."""
    if axis is None:
        return tuple(range(ndim))
    raw = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    axes = []
    for a in raw:
        if not isinstance(a, (int, np.integer)) or not -ndim <= a < ndim:
            raise ShapeError("axis out of range", op=op,
                             expected=f"ints in [-{ndim}, {ndim}) for a {ndim}-d input",
                             got=repr(axis))
        axes.append(int(a) % ndim)
    if len(set(axes)) != len(axes):
        raise ShapeError("repeated axis", op=op, expected="distinct axes", got=repr(axis))
    return tuple(sorted(axes))
