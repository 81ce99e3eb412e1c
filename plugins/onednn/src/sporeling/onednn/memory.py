"""Memory descriptors and memory objects over NumPy buffers.

A :class:`Desc` owns a ``dnnl_memory_desc_t``: a plain (row-major) one built from a shape
and dtype, "any" (the primitive chooses, usually a blocked layout such as ``nChw8c``), or
one a primitive descriptor chose (borrowed: it lives as long as that descriptor).
A :class:`Memory` is a ``dnnl_memory_t`` whose data pointer is either set per call (a user
buffer) or a buffer it owns (an internal, blocked tensor).
"""
from __future__ import annotations

import ctypes
import math
from ctypes import c_void_p

import numpy as np

from . import constants as C
from .lib import call, dims, load

__all__ = ["Desc", "Memory", "DTYPES", "engine", "stream"]

DTYPES = {np.dtype(np.float32): C.dnnl_f32, np.dtype(np.float16): C.dnnl_f16,
          np.dtype(np.int8): C.dnnl_s8, np.dtype(np.uint8): C.dnnl_u8,
          np.dtype(np.int32): C.dnnl_s32}
try:  # bfloat16 where ml_dtypes is installed
    import ml_dtypes
    DTYPES[np.dtype(ml_dtypes.bfloat16)] = C.dnnl_bf16
except ImportError:  # pragma: no cover
    pass

_CHANNEL_BLOCKED = {8: C.dnnl_aBcd8b, 16: C.dnnl_aBcd16b}  # block -> nChw<block>c

_ENGINE: c_void_p | None = None
_STREAM: c_void_p | None = None


def engine() -> c_void_p:
    """The process's CPU engine (created once)."""
    global _ENGINE
    if _ENGINE is None:
        load()
        handle = c_void_p()
        call("dnnl_engine_create", ctypes.byref(handle), C.dnnl_cpu, 0)
        _ENGINE = handle
    return _ENGINE


def stream() -> c_void_p:
    """The process's in-order CPU stream: an ``execute`` has finished when it returns."""
    global _STREAM
    if _STREAM is None:
        handle = c_void_p()
        call("dnnl_stream_create", ctypes.byref(handle), engine(), C.dnnl_stream_in_order)
        _STREAM = handle
    return _STREAM


class Desc:
    """A memory descriptor; ``owned`` ones are destroyed with the object."""
    __slots__ = ("handle", "owned", "keep", "__weakref__")

    def __init__(self, handle: c_void_p, owned: bool, keep=None) -> None:
        self.handle, self.owned, self.keep = handle, owned, keep

    @classmethod
    def plain(cls, shape, dtype) -> "Desc":
        """Row-major ``shape`` of ``dtype`` (a 0-d shape is taken as ``(1,)``)."""
        shape = tuple(shape) or (1,)
        return cls.strided(shape, dtype, [math.prod(shape[i + 1:]) for i in range(len(shape))])

    @classmethod
    def strided(cls, shape, dtype, strides) -> "Desc":
        """``shape`` of ``dtype`` whose element ``i`` lies ``sum(i * strides)`` elements
        (not bytes) from the start: a transposed or sliced NumPy view, read in place."""
        handle = c_void_p()
        call("dnnl_memory_desc_create_with_strides", ctypes.byref(handle), len(shape),
             dims(shape), DTYPES[np.dtype(dtype)], dims(strides))
        return cls(handle, True)

    @classmethod
    def tagged(cls, shape, dtype, tag: int) -> "Desc":
        """``shape`` in the layout ``tag`` (``dnnl_format_tag_any``: the primitive picks)."""
        handle = c_void_p()
        call("dnnl_memory_desc_create_with_tag", ctypes.byref(handle), len(shape),
             dims(shape), DTYPES[np.dtype(dtype)], tag)
        return cls(handle, True)

    @classmethod
    def any(cls, shape, dtype) -> "Desc":
        return cls.tagged(shape, dtype, C.dnnl_format_tag_any)

    @classmethod
    def activation(cls, shape, dtype, block: int | None) -> "Desc":
        """An ``(N, C, H, W)`` activation: plain, or channel-blocked (``nChw8c`` /
        ``nChw16c``: the NumPy array ``(N, C/block, H, W, block)``) when ``block`` is set."""
        if not block:
            return cls.plain(shape, dtype)
        return cls.tagged(shape, dtype, _CHANNEL_BLOCKED[block])

    @classmethod
    def of(cls, pd, what: int, index: int = 0) -> "Desc":
        """What primitive descriptor ``pd`` chose for ``what`` (e.g. ``dnnl_query_src_md``),
        borrowed: kept valid by holding ``pd``."""
        handle = load().dnnl_primitive_desc_query_md(pd.handle, what, index)
        return cls(c_void_p(handle), False, pd)

    def inner_blocks(self) -> tuple[tuple[int, int], ...]:
        """The layout's inner blocks as ``(axis, size)`` pairs: ``((1, 16),)`` for
        ``nChw16c``, ``()`` for a plain one."""
        count = ctypes.c_int32()
        call("dnnl_memory_desc_query", self.handle, C.dnnl_query_inner_nblks_s32,
             ctypes.byref(count))
        if not count.value:
            return ()
        sizes, axes = ctypes.POINTER(ctypes.c_int64)(), ctypes.POINTER(ctypes.c_int64)()
        call("dnnl_memory_desc_query", self.handle, C.dnnl_query_inner_blks,
             ctypes.byref(sizes))
        call("dnnl_memory_desc_query", self.handle, C.dnnl_query_inner_idxs,
             ctypes.byref(axes))
        return tuple((axes[i], sizes[i]) for i in range(count.value))

    @property
    def nbytes(self) -> int:
        return load().dnnl_memory_desc_get_size(self.handle)

    def __eq__(self, other) -> bool:
        return isinstance(other, Desc) and \
            bool(load().dnnl_memory_desc_equal(self.handle, other.handle))

    __hash__ = None

    def __bool__(self) -> bool:  # a zero descriptor: the primitive does not use it
        return bool(self.handle.value) and self.nbytes > 0

    def __del__(self) -> None:
        if self.owned and self.handle:
            try:
                call("dnnl_memory_desc_destroy", self.handle)
            except Exception:  # interpreter shutdown: the library may be gone already
                pass
            self.handle = None


class Memory:
    """A ``dnnl_memory_t`` for ``desc``: over a user's buffer (``set``, per call) or, with
    ``owned=True``, over a 64-byte-aligned buffer of its own (internal layouts, scratch)."""
    __slots__ = ("handle", "desc", "buffer")

    def __init__(self, desc: Desc, owned: bool = False) -> None:
        self.desc, self.buffer = desc, None
        pointer = None
        if owned:
            raw = np.empty(desc.nbytes + 64, np.uint8)
            start = (-raw.ctypes.data) % 64
            self.buffer = raw[start:start + desc.nbytes]
            pointer = self.buffer.ctypes.data
        self.handle = c_void_p()
        call("dnnl_memory_create", ctypes.byref(self.handle), desc.handle, engine(),
             c_void_p(pointer if owned else C.DNNL_MEMORY_NONE))

    def __del__(self) -> None:
        if getattr(self, "handle", None):  # None if __init__ failed
            try:
                call("dnnl_memory_destroy", self.handle)
            except Exception:  # interpreter shutdown
                pass
            self.handle = None
