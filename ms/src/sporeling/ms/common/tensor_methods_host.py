"""MindSpore 2.10's ``Tensor`` methods about the data's place and flags, on Sporeling's one
host device: ``device``, ``move_to``/``to_``, ``data_ptr``, ``get_bytes``, DLPack exchange,
``assign_value``/``set_``, ``itemset``, ``resize``, ``random_``/``uniform``, sparse
conversions, and the flags ``const_arg``/``init``/``symbolic_shape``.

Sporeling's Tensor has ``__slots__`` (no per-instance ``__dict__``), so the one per-tensor
flag MindSpore lets a program set, ``const_arg``, is kept in a table keyed by the tensor's
identity (dropped with the tensor).
"""
from __future__ import annotations

import weakref

import numpy as np

from sporeling.compiler import ops as _sops
from sporeling.core import SporelingError, dtypes
from sporeling.expression import Tensor

from .dtype import to_numpy
from .tensor_method_adapters import _tensor, _uniform01, _write

__all__ = ["HOST", "HOST_EAGER_ONLY", "HOST_PROPERTIES", "HOST_ATTRIBUTES",
           "HOST_STATIC"]

DEVICE = "CPU"  # Sporeling's one device: host memory


def _ops():
    from .. import ops  # the facade's functions (imported after this module)
    return ops


def _device_checked(op: str, device):
    """``device`` names the host (``"CPU"``, ``"cpu"``, ``"CPU:0"``) or is None."""
    if device is None:
        return
    if not isinstance(device, str) or device.split(":")[0].upper() != DEVICE:
        raise SporelingError("Sporeling keeps tensors in host memory only", op=op,
                             expected="device 'CPU' (or None)", got=repr(device))


def _bool_checked(op: str, name: str, value):
    if not isinstance(value, bool):
        raise SporelingError(f"{name} must be a bool", op=op, expected="True or False",
                             got=f"{type(value).__name__} {value!r}")


# --- where the data lives --------------------------------------------------------------------
def _move_to(x, to, blocking=True):
    """A copy on device ``to`` (only ``"CPU"`` here)."""
    _bool_checked("Tensor.move_to", "blocking", blocking)
    _device_checked("Tensor.move_to", to)
    return Tensor(x.asnumpy().copy())


def _to_(x, device=None, non_blocking=False):
    """``x`` moved to ``device`` in place (it already is in host memory); ``x``."""
    _bool_checked("Tensor.to_", "non_blocking", non_blocking)
    _device_checked("Tensor.to_", device)
    return x


def _data_ptr(x) -> int:
    """The address of the first element in host memory."""
    return int(x.asnumpy().__array_interface__["data"][0])


def _get_bytes(x) -> bytes:
    """The raw bytes of the data (C order, native byte order)."""
    return np.ascontiguousarray(x.asnumpy()).tobytes()


def _to_dlpack(x):
    """A DLPack capsule sharing ``x``'s memory (``Tensor.from_dlpack`` and
    ``np.from_dlpack``-capable libraries read it)."""
    return x.asnumpy().__dlpack__()


class _Capsule:
    """A DLPack capsule presented as the object ``np.from_dlpack`` expects."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __dlpack__(self, **_):
        return self._capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0


def from_dlpack(dlpack):
    """A Tensor sharing the memory of a DLPack capsule (or of an object with
    ``__dlpack__``) from host memory."""
    source = dlpack if hasattr(dlpack, "__dlpack__") else _Capsule(dlpack)
    try:
        return Tensor.from_numpy(np.from_dlpack(source))
    except (TypeError, BufferError, RuntimeError) as exc:
        raise SporelingError("cannot read this DLPack tensor", op="Tensor.from_dlpack",
                             expected="a DLPack capsule or __dlpack__ object in CPU memory",
                             got=str(exc)) from None


def convert_bytes_to_tensor(data: bytes, shape, dtype):
    """The tensor of ``shape`` and ``dtype`` whose raw bytes are ``data`` (``get_bytes``'s
    inverse)."""
    array = np.frombuffer(data, to_numpy(dtype))
    if array.size != int(np.prod(shape)):
        raise SporelingError("the bytes do not fill the shape",
                             op="Tensor.convert_bytes_to_tensor",
                             expected=f"{int(np.prod(shape))} elements of {to_numpy(dtype)}",
                             got=f"{array.size} elements")
    return Tensor(array.reshape(tuple(shape)))


# --- writing -----------------------------------------------------------------------------------
def _assign_value(x, value):
    """``x`` holds ``value`` from now on (its shape and dtype too); ``x``."""
    value = _tensor(value)
    x._data, x._node, x._tape, x._index = value._data, value._node, value._tape, value._index
    return x


def _itemset(x, *args):
    """A copy of ``x`` with one element set: ``itemset(value)`` for a one-element tensor,
    ``itemset(index, value)`` with a flat int index or a tuple of ``ndim`` ints."""
    if not args or len(args) > 2:
        raise SporelingError("itemset takes (value) or (index, value)", op="Tensor.itemset",
                             expected="1 or 2 arguments", got=f"{len(args)} arguments")
    data = np.array(x.asnumpy())
    data.itemset(*args) if hasattr(data, "itemset") else _np2_itemset(data, args)
    return Tensor(data)


def _np2_itemset(data, args):
    """``ndarray.itemset`` (gone in NumPy 2): the same checks and assignment."""
    if len(args) == 1:
        if data.size != 1:
            raise IndexError("itemset with one argument needs a one-element tensor")
        data.reshape(-1)[0] = args[0]
        return
    index, value = args
    if isinstance(index, (tuple, list)):
        if len(index) != data.ndim:
            raise ValueError(f"itemset: index {tuple(index)} does not have {data.ndim} entries")
        data[tuple(index)] = value
    else:
        data.reshape(-1)[int(index)] = value


def _resize(x, *new_shape):
    """A tensor of shape ``new_shape`` with ``x``'s elements in order, zeros after them
    (``x`` is unchanged; NumPy's ``ndarray.resize`` without ``refcheck``)."""
    if not new_shape:
        return x
    if len(new_shape) == 1 and isinstance(new_shape[0], (tuple, list)):
        new_shape = tuple(new_shape[0])
    shape = tuple(int(n) for n in new_shape)
    flat = x.asnumpy().reshape(-1)
    out = np.zeros(int(np.prod(shape)), flat.dtype)
    n = min(out.size, flat.size)
    out[:n] = flat[:n]
    return Tensor(out.reshape(shape))


def _set_(x, source=None, *args, **kwargs):
    """``x`` holds ``source``'s data from now on (shares it; the dtypes must agree);
    ``x.set_()`` empties it."""
    if args or kwargs:
        raise SporelingError("set_ with storage offsets and strides is not in the facade",
                             op="Tensor.set_", expected="set_(source) or set_()",
                             got=f"{len(args)} more positional, keywords {sorted(kwargs)}")
    if source is None:
        return _assign_value(x, Tensor(np.zeros((0,), x.dtype)))
    source = _tensor(source)
    if source.dtype != x.dtype:
        raise SporelingError("set_ shares data of the tensor's own dtype", op="Tensor.set_",
                             expected=f"a {x.dtype} source", got=f"a {source.dtype} source")
    return _assign_value(x, source)


def _set_dtype(x, dtype):
    """``x``'s values cast to ``dtype`` in place; returns the dtype."""
    from .dtype import from_numpy
    target = to_numpy(dtype)
    _assign_value(x, _sops.cast(x, target))
    return from_numpy(target)


def _index(x, indices):
    """``x[indices]`` for a tuple (or list) of index tensors, one per leading axis
    (advanced indexing)."""
    if not isinstance(indices, (tuple, list)) or not all(isinstance(i, Tensor)
                                                          for i in indices):
        raise SporelingError("index takes a tuple of Tensors", op="Tensor.index",
                             expected="(Tensor, ...)", got=repr(indices))
    return x[tuple(indices)]


class UntypedStorage:
    """The bytes under a tensor (MindSpore 2.10's ``UntypedStorage``): shares its memory."""

    def __init__(self, tensor):
        self._bytes = tensor.asnumpy().reshape(-1).view(np.uint8)

    device = DEVICE

    def nbytes(self) -> int:
        return int(self._bytes.size)

    size = nbytes

    def __len__(self) -> int:
        return self.nbytes()

    def element_size(self) -> int:
        return 1  # untyped: bytes

    def data_ptr(self) -> int:
        return int(self._bytes.__array_interface__["data"][0])

    def is_shared(self) -> bool:
        return False

    def copy_(self, source, non_blocking=False) -> "UntypedStorage":
        """This storage's bytes replaced by ``source``'s (the same size)."""
        if len(source) != len(self):
            raise SporelingError("copy_ needs storages of the same size",
                                 op="UntypedStorage.copy_", expected=f"{len(self)} bytes",
                                 got=f"{len(source)} bytes")
        np.copyto(self._bytes, source._bytes)
        return self


# --- random fills (drawn from the global random streams, as ``uniform_`` and ``normal_``;
# a ``generator`` is accepted and not used) -----------------------------------------------
def _random_(x, from_=0, to=None, *, generator=None):
    """``x`` filled with integers drawn uniformly from ``[from_, to - 1]`` (``to`` defaults
    to the dtype's largest value + 1; for a float dtype, 2**mantissa bits + 1); ``x``."""
    low, high = int(from_), to
    if high is None:
        kind = x.dtype
        high = (2 ** (np.finfo(np.float32 if kind == dtypes.bfloat16 else kind).nmant + 1)
                if kind.kind == "f" or kind == dtypes.bfloat16 else
                2 if kind == np.bool_ else int(np.iinfo(kind).max))
    high = int(high)
    if low >= high:
        raise SporelingError("random_ needs from_ < to", op="Tensor.random_",
                             expected="from_ < to", got=f"from_={low}, to={high}")
    draws = np.floor(_uniform01(x).asnumpy().astype(np.float64) * (high - low)) + low
    return _write(x, Tensor(np.minimum(draws, high - 1).astype(to_numpy(x.dtype))))


def _uniform(x, from_=0.0, to=1.0, generator=None):
    """A new tensor of ``x``'s shape and dtype, uniform on ``[from_, to)``."""
    if from_ > to:
        raise SporelingError("uniform needs from_ <= to", op="Tensor.uniform",
                             expected="from_ <= to", got=f"from_={from_}, to={to}")
    draws = _uniform01(x)
    return _sops.cast(_ops().add(_ops().mul(draws, float(to - from_)), float(from_)), x.dtype)


# --- flags -------------------------------------------------------------------------------------
_CONST_ARGS: dict[int, bool] = {}  # id(tensor) -> const_arg, while the tensor lives


def _const_arg(x) -> bool:
    """Whether ``x`` is a constant when passed to a compiled network (``set_const_arg``)."""
    return _CONST_ARGS.get(id(x), False)


def _set_const_arg(x, const_arg=True):
    """Mark ``x`` as a constant network argument (recorded; Sporeling traces tensors as
    inputs either way); ``x``."""
    _bool_checked("Tensor.set_const_arg", "const_arg", const_arg)
    if id(x) not in _CONST_ARGS:
        weakref.finalize(x, _CONST_ARGS.pop, id(x), None)
    _CONST_ARGS[id(x)] = const_arg
    return x


def _to_coo(x):
    """``x`` (2-d) as a ``COOTensor`` of its nonzero elements."""
    if x.ndim != 2:
        raise SporelingError("to_coo converts a 2-d tensor", op="Tensor.to_coo",
                             expected="a matrix", got=f"shape {list(x.shape)}")
    return _ops().dense_to_sparse_coo(x)


HOST = {
    "move_to": _move_to,
    "to_": _to_,
    "data_ptr": _data_ptr,
    "get_bytes": _get_bytes,
    "to_dlpack": _to_dlpack,
    "assign_value": _assign_value,
    "set_": _set_,
    "itemset": _itemset,
    "resize": _resize,
    "uniform": _uniform,
    "random_": _random_,
    "set_const_arg": _set_const_arg,
    "to_coo": _to_coo,
    "to_csr": lambda x: _ops().dense_to_sparse_csr(x),
    "value": lambda x: x,
    "flush_from_cache": lambda x: None,  # no device cache: the data is in host memory
    "is_pinned": lambda x: False,        # pageable host memory (there is no device to pin for)
    "pin_memory": lambda x: x,
    "is_shared": lambda x: False,
    "data_sync": lambda x, wait=True: None,  # host data is always current
    "wait_pipeline": lambda x: None,         # no pending work: every op has finished
    "set_dtype": _set_dtype,
    "index": _index,
    "storage": UntypedStorage,
    "untyped_storage": UntypedStorage,
}
HOST_EAGER_ONLY = {"itemset", "resize", "get_bytes", "data_ptr", "to_dlpack", "to_coo",
                   "to_csr", "move_to", "storage", "untyped_storage"}
HOST_PROPERTIES = {"device": lambda x: DEVICE, "const_arg": _const_arg,
                   "is_meta": lambda x: False}  # every tensor holds its data
# class attributes as 2.10's Tensor has them: no initializer (the data exists), no
# symbolic shape unless a program declares one, construction finished
HOST_ATTRIBUTES = {"init": None, "symbolic_shape": None, "delta_seed": 0,
                   "init_finished": True}
HOST_STATIC = {"from_dlpack": from_dlpack, "convert_bytes_to_tensor": convert_bytes_to_tensor}
