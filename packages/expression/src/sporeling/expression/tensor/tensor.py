"""``Tensor``: an array in pool memory that every op accepts, with MindSpore's API.

A Tensor holds a NumPy array ``_data`` (pool memory when a kernel produced it; a pool copy
when built from user data) and, while ``grad`` records, the node that produced it
(``_node``, output ``_index``, and the ``_tape`` that node belongs to). Ops on Tensors go
through ``sporeling.compiler.bind`` to the PyNative interpreter (``Tensor._interpreter``).

Python data takes MindSpore's and PyTorch's defaults: floats become float32, ints int64;
NumPy arrays keep their dtype.

    >>> import numpy as np
    >>> import sporeling.expression as sx
    >>> x = sx.Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> x
    Tensor(shape=[2, 3], dtype=Float32, value=
    [[1., 2., 3.],
     [4., 5., 6.]])
    >>> (x * 2 + 1).sum(axis=1)
    Tensor(shape=[2], dtype=Float32, value= [15., 33.])
    >>> sx.Tensor(np.arange(3)).dtype, sx.Tensor(7).dtype
    (dtype('int64'), dtype('int64'))
"""
from __future__ import annotations

import numpy as np

from sporeling.core import DTypeError, SporelingError, dtypes
from sporeling.compiler import ops
from sporeling.compiler.core import eager
from sporeling.compiler.ir.trace import Tracer, read_value

from .indexing import TensorIndexing
from .methods import TensorMethods
from .operators import TensorOperators

__all__ = ["Tensor", "wrap", "dtype_name"]

_ndarray = np.ndarray
_new = object.__new__
_NAMES = {dtypes.bool_: "Bool", dtypes.uint8: "UInt8", dtypes.bfloat16: "BFloat16"}


def dtype_name(dtype) -> str:
    """MindSpore's name of a dtype: ``Float32``, ``Int64``, ``BFloat16``, ``Bool``."""
    dtype = np.dtype(dtype)
    return _NAMES.get(dtype) or str(dtype).capitalize()


def _as_array(data, dtype) -> np.ndarray:
    """User data as an array of a Sporeling dtype (Python floats float32, ints int64)."""
    if isinstance(data, Tensor):
        array = data._data
    elif isinstance(data, (_ndarray, np.generic)):
        array = np.asarray(data)
    else:
        try:
            array = np.asarray(data)
        except ValueError as exc:  # ragged lists
            raise SporelingError("cannot build a Tensor from this data", op="Tensor",
                                 expected="a scalar, a (nested) list of equal-length rows, "
                                          "an array or a Tensor", got=str(exc)) from None
        if array.dtype.kind == "f" and dtype is None:
            array = array.astype(dtypes.default_float)
        elif array.dtype.kind in "iu" and dtype is None:
            array = array.astype(dtypes.default_int)
    if dtype is not None:
        return array.astype(dtypes.dtype(dtype), copy=False)
    if array.dtype not in dtypes.ALL_DTYPES:
        raise DTypeError("unsupported dtype for a Tensor", op="Tensor",
                         expected=f"one of {', '.join(map(str, dtypes.ALL_DTYPES))}",
                         got=str(array.dtype), hint="pass dtype= to convert")
    return array


def _initialized(init, input_data, shape, dtype) -> np.ndarray:
    """The values of ``Tensor(init=..., shape=..., dtype=...)``."""
    if input_data is not None or shape is None:
        raise SporelingError("Tensor(init=...) takes shape= and no input_data", op="Tensor",
                             expected="Tensor(init=initializer, shape=..., dtype=...)",
                             got=f"input_data={'given' if input_data is not None else None}, "
                                 f"shape={shape!r}")
    from ..nn.init import initializer
    return initializer(init, shape, dtype if dtype is not None else dtypes.float32)._data


def _traced(data) -> bool:
    """True for a value being traced into a graph (Graph mode): it has no data."""
    return getattr(data, "_interpreter", None) is not None and not isinstance(data, Tensor)


def _concrete(data):
    """``data``'s values. A traced value has them only where its trace knows them (a
    Graph-mode function specialised on its inputs' values: ``read_value``, which records
    the read); otherwise it raises its clear error (no data while compiling)."""
    if type(data) is not _ndarray and _traced(data):
        if isinstance(data, Tracer):
            return read_value(data)  # the value, or the error naming the user's line
        np.asarray(data)  # another transformation's value: its __array__ raises
    return data


def wrap(data) -> "Tensor":
    """A Tensor around ``data`` (an array a kernel returned, or a traced value in Graph
    mode), without copying."""
    t = _new(Tensor)
    t._data = data if type(data) is _ndarray or _traced(data) else np.asarray(data)
    t._node = t._tape = None
    t._index = 0
    return t


class Tensor(TensorOperators, TensorMethods, TensorIndexing):
    """An n-dimensional array for Sporeling's ops, with autodiff support.

    ``Tensor(input_data, dtype=None)``: ``input_data`` is a Python scalar, a (nested) list,
    a NumPy array or a Tensor; it is copied into the memory pool. With ``input_data=None``,
    ``shape=`` gives a tensor of zeros, and ``init=`` (an initializer of
    :mod:`sporeling.expression.nn.init`, its name or a number) with ``shape=`` and ``dtype=``
    (float32 if omitted) a tensor filled by it (MindSpore's lazy ``Tensor(init=...)``: the
    values are drawn here; ``init_data()`` returns the tensor).
    ``Tensor.from_numpy(array)`` shares the array's memory instead of copying it.
    """

    __slots__ = ("_data", "_node", "_index", "_tape", "__weakref__")
    _interpreter = None  # the PyNative interpreter; set by sporeling.expression.autograd
    __hash__ = object.__hash__  # tensors are keys by identity (parameters in dicts)

    def __init__(self, input_data=None, dtype=None, *, shape=None, init=None):
        if init is not None:
            array = _initialized(init, input_data, shape, dtype)
        elif input_data is None:
            if shape is None:
                raise SporelingError("a Tensor needs data or a shape", op="Tensor",
                                     expected="input_data, or shape= (zeros)", got="neither")
            array = np.zeros(tuple(shape), dtypes.dtype(dtype or dtypes.default_float))
        else:
            array = _as_array(input_data, dtype)
        self._data = eager.backend().from_numpy(array, persistent=self._persistent)
        self._node = self._tape = None
        self._index = 0

    _persistent = False

    @staticmethod
    def from_numpy(array) -> "Tensor":
        """A Tensor sharing ``array``'s memory (no copy; writes to either show in both).
        A non-contiguous array is copied once to be made contiguous."""
        array = np.ascontiguousarray(array)
        if array.dtype not in dtypes.ALL_DTYPES:
            raise DTypeError("unsupported dtype for a Tensor", op="Tensor.from_numpy",
                             expected=f"one of {', '.join(map(str, dtypes.ALL_DTYPES))}",
                             got=str(array.dtype))
        return wrap(array)

    @property
    def has_init(self) -> bool:
        """MindSpore's flag for a tensor whose ``init=`` values are not drawn yet: always
        False here, since ``Tensor(init=...)`` draws them when it is made."""
        return False

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None) -> "Tensor":
        """MindSpore's lazy initialisation: the values of ``Tensor(init=...)`` were drawn
        when it was made, so this returns the tensor itself (as MindSpore does)."""
        return self

    # --- what it is -----------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._data.shape

    @property
    def dtype(self) -> np.dtype:
        return self._data.dtype

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def size(self) -> int:
        return self._data.size

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    @property
    def T(self) -> "Tensor":
        """The axes reversed (a differentiable transpose)."""
        return ops.transpose(self)

    # --- conversions ----------------------------------------------------------------
    def asnumpy(self) -> np.ndarray:
        """The data as a NumPy array; it shares memory with the tensor (as on MindSpore's
        CPU), so writing to it changes the tensor."""
        data = self._data
        return data if type(data) is _ndarray else _concrete(data)

    numpy = asnumpy

    def __array__(self, dtype=None, copy=None):
        data = _concrete(self._data)
        if dtype is None or np.dtype(dtype) == data.dtype:
            return data.copy() if copy else data
        return data.astype(dtype)

    def item(self):
        """The single element as a Python number (an error unless ``size == 1``)."""
        if self._data.size != 1:
            raise SporelingError("item() needs a tensor with one element", op="item",
                                 expected="size 1", got=f"shape {list(self.shape)}")
        data = _concrete(self._data)
        value = data.reshape(())[()]
        return float(value) if data.dtype == dtypes.bfloat16 else value.item()

    def tolist(self):
        """The data as (nested) Python lists."""
        data = _concrete(self._data)
        if data.dtype == dtypes.bfloat16:
            return data.astype(np.float32).tolist()
        return data.tolist()

    def __bool__(self) -> bool:
        return bool(self.item()) if self._data.size == 1 else bool(_concrete(self._data))

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        if not dtypes.is_integer(self._data.dtype):
            raise DTypeError("only integer tensors can be used as an index", op="__index__",
                             expected="an integer dtype", got=str(self._data.dtype))
        return int(self.item())

    def __len__(self) -> int:
        if not self._data.ndim:
            raise SporelingError("len() of a 0-d tensor", op="__len__",
                                 expected="at least 1 dimension", got="shape []")
        return self._data.shape[0]

    def __repr__(self) -> str:
        data = _concrete(self._data)
        data = data.astype(np.float32) if self.dtype == dtypes.bfloat16 else data
        text = np.array2string(data, separator=", ", threshold=1000)
        head = f"Tensor(shape={list(self.shape)}, dtype={dtype_name(self.dtype)}, value="
        return f"{head}\n{text})" if data.ndim > 1 else f"{head} {text})"

    __str__ = __repr__

    def __copy__(self) -> "Tensor":
        return wrap(self._data.copy())

    def __deepcopy__(self, memo) -> "Tensor":
        return type(self).__copy__(self)

    def __reduce__(self):
        return (Tensor, (self.tolist() if self.dtype == dtypes.bfloat16 else self._data,
                         self.dtype))
