"""``Parameter``: a trainable Tensor with a name, kept in the pool's persistent region.

    >>> import numpy as np
    >>> import sporeling.expression as sx
    >>> w = sx.Parameter(np.ones((2, 3), np.float32), name="w")
    >>> w
    Parameter(name=w, shape=[2, 3], dtype=Float32, requires_grad=True)
    >>> before = id(w)
    >>> w = w.set_data(sx.Tensor(np.zeros((2, 3), np.float32)))   # returns itself
    >>> id(w) == before, float(w.sum())
    (True, 0.0)
"""
from __future__ import annotations

import contextlib
import itertools
import threading
import weakref

from sporeling.core import SporelingError
from sporeling.compiler.core import eager
from sporeling.compiler.core.stack import Layer, innermost, pushed
from sporeling.compiler.frontend.runtime import add_outside_state

from ..structure_epoch import changed as _structure_changed
from .tensor import Tensor, _as_array, _traced, dtype_name

__all__ = ["Parameter", "ParameterTuple", "live_parameters", "lifted"]

# every Parameter alive, in the order they were made (a WeakSet's order is its objects'
# addresses': a program's inputs came in another order in every process, and a compiled
# step cached on disk by its inputs' layout was never found again)
_LIVE: "weakref.WeakValueDictionary[int, Parameter]" = weakref.WeakValueDictionary()
_MADE = itertools.count()


def live_parameters() -> list:
    """Every Parameter object currently alive, oldest first (what Graph mode may lift to
    graph inputs, in that order)."""
    return list(_LIVE.values())


class Lift(Layer):
    """A Graph-mode trace's stand-ins for Parameters, in the tracing thread only:
    ``values[id(parameter)]`` is what the Parameter's ``_data`` reads and writes there."""

    def __init__(self, values: dict):
        self.values = values


_LIFTING = [0]  # lifts open in any thread: when 0, reading a Parameter skips the lookup
_LIFTING_LOCK = threading.Lock()
_SLOT = Tensor._data  # the slot that holds a Parameter's own data


@contextlib.contextmanager
def lifted(values: dict):
    """``with lifted({id(p): tracer}):`` -- in this thread (only), those Parameters read
    and write the given values instead of their data; other threads see their data."""
    with _LIFTING_LOCK:
        _LIFTING[0] += 1
    try:
        with pushed(Lift(values)) as lift:
            yield lift
    finally:
        with _LIFTING_LOCK:
            _LIFTING[0] -= 1


def _lifted_values():
    """The innermost Graph-mode lift's values in this thread, or None."""
    return innermost(Lift).values if _LIFTING[0] and innermost(Lift) is not None else None


# a tensor-dependent ``if`` of converted code threads the Parameters its branches write
# (``if is_finite: optimizer(grads)``) through the cond, as its variables
add_outside_state(_lifted_values)


def _get_data(param):
    if _LIFTING[0]:
        lift = innermost(Lift)
        if lift is not None:
            value = lift.values.get(id(param))
            if value is not None:
                return value
    return _SLOT.__get__(param)


def _set_data(param, value) -> None:
    if _LIFTING[0]:
        lift = innermost(Lift)
        if lift is not None and id(param) in lift.values:
            lift.values[id(param)] = value
            return
    try:
        old = _SLOT.__get__(param)
    except AttributeError:  # the first assignment
        old = None
    _SLOT.__set__(param, value)
    if getattr(old, "shape", None) != getattr(value, "shape", None) or \
            getattr(old, "dtype", None) != getattr(value, "dtype", None):
        _structure_changed()  # compiled graphs traced it with the old shape (..structure_epoch)


class Parameter(Tensor):
    """``Parameter(default_input, name=None, requires_grad=True)``.

    ``default_input`` is anything a :class:`Tensor` accepts. The data lives in the memory
    pool's persistent region. ``requires_grad`` marks it trainable (``Cell.trainable_params``
    lists those); ``grad`` differentiates with respect to the parameters passed as
    ``weights``, whatever their flag. ``comm_fusion`` (MindSpore's, default 1) is the
    data-parallel gradient fusion group: gradients of one group may share a fused
    all-reduce, 0 keeps a gradient's all-reduce to itself.
    """

    __slots__ = ("name", "requires_grad", "_comm_fusion")
    _persistent = True
    # a Graph-mode trace lifts Parameters per thread (see ``lifted``), never by swapping data
    _data = property(_get_data, _set_data)

    def __init__(self, default_input, name: str | None = None, requires_grad: bool = True):
        super().__init__(default_input)
        self.name = "Parameter" if name is None else str(name)
        self.requires_grad = bool(requires_grad)
        self._comm_fusion = 1
        _LIVE[next(_MADE)] = self

    @property
    def comm_fusion(self) -> int:
        """The gradient fusion group (see the class doc)."""
        return self._comm_fusion

    @comm_fusion.setter
    def comm_fusion(self, value) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise SporelingError("bad comm_fusion", op="Parameter.comm_fusion",
                                 expected="an int >= 0", got=repr(value), where=self.name)
        self._comm_fusion = int(value)

    def set_data(self, data, slice_shape: bool = False) -> "Parameter":
        """Replace the data (same shape unless ``slice_shape``), keeping this object, so
        optimizers and cells that hold it see the new values. ``data``'s dtype is kept.

        In Graph mode a traced value is kept as is: the compiled graph returns it as an
        extra output, written back to this Parameter after each run."""
        inner = data._data if isinstance(data, Tensor) else data
        if _traced(inner):
            if not slice_shape and tuple(inner.shape) != tuple(self._data.shape):
                raise SporelingError("set_data with a different shape",
                                     op="Parameter.set_data",
                                     expected=f"shape {list(self.shape)}",
                                     got=f"shape {list(inner.shape)}", where=self.name)
            self._data = inner
            return self
        array = _as_array(data, None)
        if not slice_shape and array.shape != self._data.shape:
            raise SporelingError("set_data with a different shape", op="Parameter.set_data",
                                 expected=f"shape {list(self.shape)}",
                                 got=f"shape {list(array.shape)}", where=self.name,
                                 hint="pass slice_shape=True to change the shape")
        self._data = eager.backend().from_numpy(array, persistent=True)
        return self

    def clone(self, prefix: str | None = None, init: str = "same") -> "Parameter":
        """A new Parameter with a copy of the data, named ``prefix.name`` (or ``name``).
        ``init="zeros"`` gives zeros of the same shape instead (optimizer states)."""
        if init not in ("same", "zeros"):
            raise SporelingError("unknown init for clone", op="Parameter.clone",
                                 expected="'same' or 'zeros'", got=repr(init))
        data = self._data if init == "same" else self._data * 0
        name = f"{prefix}.{self.name}" if prefix else self.name
        return Parameter(data, name=name, requires_grad=self.requires_grad)

    def __copy__(self) -> "Parameter":
        return Parameter(self._data, name=self.name, requires_grad=self.requires_grad)

    def __reduce__(self):
        data = Tensor.__reduce__(self)[1][0]
        return (_rebuild, (data, self.dtype, self.name, self.requires_grad))

    def __repr__(self) -> str:
        return (f"Parameter(name={self.name}, shape={list(self.shape)}, "
                f"dtype={dtype_name(self.dtype)}, requires_grad={self.requires_grad})")

    __str__ = __repr__


def _rebuild(data, dtype, name, requires_grad) -> Parameter:
    return Parameter(Tensor(data, dtype), name=name, requires_grad=requires_grad)


class ParameterTuple(tuple):
    """A tuple of Parameters (an error on anything else); ``clone`` copies them all.

        >>> import sporeling.expression as sx
        >>> ps = sx.ParameterTuple([sx.Parameter(1.0, name="a"), sx.Parameter(2.0, name="b")])
        >>> [p.name for p in ps.clone("moments", init="zeros")]
        ['moments.a', 'moments.b']
    """

    def __new__(cls, iterable=()):
        items = tuple(iterable)
        for i, p in enumerate(items):
            if not isinstance(p, Parameter):
                raise SporelingError("ParameterTuple holds Parameters only",
                                     op="ParameterTuple", expected="Parameter",
                                     got=f"{type(p).__name__} at position {i}")
        return super().__new__(cls, items)

    def clone(self, prefix: str, init: str = "same") -> "ParameterTuple":
        """Every parameter cloned with ``prefix`` (see :meth:`Parameter.clone`)."""
        return ParameterTuple(p.clone(prefix, init) for p in self)
