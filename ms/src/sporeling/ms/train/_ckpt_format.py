"""MindSpore's ``.ckpt`` format, read and written without MindSpore and without pickle.

A ``.ckpt`` file is a series of serialized protobuf ``Checkpoint`` messages, one per
parameter (or per 512 MiB slice of a larger one), each holding one ``Checkpoint.Value``
(MindSpore's ``checkpoint.proto``, proto2)::

    message Checkpoint {
      message Value {
        required string tag = 1;
        oneof value { TensorProto tensor = 2; MapTensorProto maptensor = 3; }
      }
      repeated Value value = 1;
    }
    message TensorProto {
      repeated int64 dims = 1;
      required string tensor_type = 2;     // "Float32", "BFloat16", "Bool", ..., "str"
      required bytes tensor_content = 3;   // row-major, little-endian
    }
    message MapTensorProto { repeated TensorProto tensor = 1; }

Consecutive values with the same tag are slices of one parameter (their contents are
concatenated; each carries the full dims). A string (``append_dict``) is a value with dims
``[0]``, type ``"str"`` and NumPy's UTF-32 bytes. With ``crc_check`` MindSpore appends
``b"crc_num"`` and the CRC32 of everything before it as 10 big-endian bytes.

Sporeling adds one field to each ``Checkpoint.Value`` it writes, after MindSpore's:
``fixed32 sporeling_crc32 = 1000``, the CRC32 of the value's other bytes (tag and tensor),
so a damaged record is an error naming its tensor. MindSpore's parser (protobuf, proto2)
skips fields it does not know, and its loader reads only ``tag`` and ``tensor``: the files
load in MindSpore as before. A file has the field in every record or in none (MindSpore's
own files, read unchecked but for their ``crc_check`` trailer).

The message classes are built here from a descriptor made in Python (no ``protoc``, no
generated module), in a private descriptor pool, so they cannot clash with MindSpore's own
when both are imported. Reading walks the file's records itself: every length is checked
against the file before anything is parsed, each record is parsed alone by ``protobuf``
(so the error names the record and, when its tag is readable, the tensor), and every
tensor's size is checked against its dims and type.
"""
from __future__ import annotations

import math
import zlib
from typing import Iterable, Iterator

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

from sporeling.expression.serialization import CheckpointError, atomic_write
from sporeling.expression.serialization.checksums import crc32

from ..common.dtype import bfloat16 as _bfloat16

__all__ = ["Checkpoint", "TensorProto", "MapTensorProto", "TYPE_NAMES", "read_ckpt", "descriptor",
           "parse_ckpt", "write_ckpt", "ckpt_records", "tensor_type_name", "is_ckpt_head",
           "CRC_MARK", "SLICE_BYTES"]

CRC_MARK = b"crc_num"          # MindSpore's trailer: b"crc_num" + CRC32 in 10 big-endian bytes
_CRC_TRAILER = len(CRC_MARK) + 10
SLICE_BYTES = 512 * 1024 * 1024  # MindSpore slices a parameter's content at 512 MiB
_RECORD_TAG = 0x0A             # Checkpoint.value: field 1, wire type 2 (length-delimited)
CHECKSUM_FIELD = 1000          # Value.sporeling_crc32: far above MindSpore's fields (1-3)
_CHECKSUM_TAG = b"\xc5\x3e"     # its key: varint of 1000 << 3 | 5 (wire type 5: fixed32)
_CHECKSUM_BYTES = len(_CHECKSUM_TAG) + 4


def descriptor() -> descriptor_pb2.FileDescriptorProto:
    """MindSpore 2.10's ``checkpoint.proto`` as a descriptor (field for field)."""
    F = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name="sporeling/ms/checkpoint.proto")
    checkpoint = proto.message_type.add(name="Checkpoint")
    checkpoint.field.add(name="value", number=1, label=F.LABEL_REPEATED, type=F.TYPE_MESSAGE,
                         type_name=".Checkpoint.Value")
    value = checkpoint.nested_type.add(name="Value")
    value.field.add(name="tag", number=1, label=F.LABEL_REQUIRED, type=F.TYPE_STRING)
    value.field.add(name="tensor", number=2, label=F.LABEL_OPTIONAL, type=F.TYPE_MESSAGE,
                    type_name=".TensorProto", oneof_index=0)
    value.field.add(name="maptensor", number=3, label=F.LABEL_OPTIONAL, type=F.TYPE_MESSAGE,
                    type_name=".MapTensorProto", oneof_index=0)
    value.oneof_decl.add(name="value")
    tensor = proto.message_type.add(name="TensorProto")
    tensor.field.add(name="dims", number=1, label=F.LABEL_REPEATED, type=F.TYPE_INT64)
    tensor.field.add(name="tensor_type", number=2, label=F.LABEL_REQUIRED, type=F.TYPE_STRING)
    tensor.field.add(name="tensor_content", number=3, label=F.LABEL_REQUIRED,
                     type=F.TYPE_BYTES)
    maptensor = proto.message_type.add(name="MapTensorProto")
    maptensor.field.add(name="tensor", number=1, label=F.LABEL_REPEATED, type=F.TYPE_MESSAGE,
                        type_name=".TensorProto")
    return proto


def _classes():
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(descriptor().SerializeToString())
    return tuple(message_factory.GetMessageClass(pool.FindMessageTypeByName(name))
                 for name in ("Checkpoint", "TensorProto", "MapTensorProto"))


def _checked_value_class():
    """``Checkpoint.Value`` with Sporeling's checksum field, in a pool of its own."""
    F = descriptor_pb2.FieldDescriptorProto
    proto = descriptor()
    proto.name = "sporeling/ms/checkpoint_checked.proto"
    proto.message_type[0].nested_type[0].field.add(
        name="sporeling_crc32", number=CHECKSUM_FIELD, label=F.LABEL_OPTIONAL,
        type=F.TYPE_FIXED32)
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(proto.SerializeToString())
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("Checkpoint.Value"))


Checkpoint, TensorProto, MapTensorProto = _classes()
_Value = _checked_value_class()

# MindSpore's tensor_type strings (str(mstype.X)) and the NumPy dtypes they hold
TYPE_NAMES: dict[str, np.dtype] = {
    "Bool": np.dtype(np.bool_), "Int8": np.dtype(np.int8), "UInt8": np.dtype(np.uint8),
    "Int16": np.dtype("<i2"), "UInt16": np.dtype("<u2"), "Int32": np.dtype("<i4"),
    "UInt32": np.dtype("<u4"), "Int64": np.dtype("<i8"), "UInt64": np.dtype("<u8"),
    "Float16": np.dtype("<f2"), "Float32": np.dtype("<f4"), "Float64": np.dtype("<f8"),
    "BFloat16": np.dtype(_bfloat16.np_dtype),
}
_BY_DTYPE = {np.dtype(d).newbyteorder("="): name for name, d in TYPE_NAMES.items()}
_STR = "str"


def tensor_type_name(dtype) -> str | None:
    """MindSpore's ``tensor_type`` for a NumPy dtype (``"Float32"``); None when a ``.ckpt``
    cannot hold it (complex, float8, strings arrays)."""
    dtype = np.dtype(dtype)
    return _BY_DTYPE.get(dtype.newbyteorder("=") if dtype.byteorder != "|" else dtype)


def is_ckpt_head(head: bytes) -> bool:
    """Whether a file starting with ``head`` may be a ``.ckpt`` (its first record's tag)."""
    return head[:1] == bytes([_RECORD_TAG])


# ---------------------------------------------------------------- writing

def _little_endian(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    if array.dtype.byteorder == ">" or (array.dtype.byteorder == "=" and
                                        np.little_endian is False):
        array = array.astype(array.dtype.newbyteorder("<"))
    return array


def _varint_bytes(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _record_parts(name: str, dims, type_name: str, content) -> tuple[bytes, bytes, bytes]:
    """One serialized ``Checkpoint`` message in three parts, not joined (a part may be
    512 MiB): its key and length, MindSpore's ``Value``, the value's checksum field."""
    value = Checkpoint.Value()
    value.tag = name
    value.tensor.dims.extend(int(d) for d in dims)
    value.tensor.tensor_type = type_name
    value.tensor.tensor_content = content if isinstance(content, bytes) else \
        np.ascontiguousarray(content).tobytes()
    body = value.SerializeToString()
    checksum = _CHECKSUM_TAG + crc32(body).to_bytes(4, "little")
    return bytes([_RECORD_TAG]) + _varint_bytes(len(body) + _CHECKSUM_BYTES), body, checksum


def _record(name: str, dims, type_name: str, content) -> bytes:
    return b"".join(_record_parts(name, dims, type_name, content))


def ckpt_records(name: str, value, where: str | None = None) -> Iterator[bytes]:
    """The serialized ``Checkpoint`` messages Sporeling writes for one entry (MindSpore's,
    each with its checksum): a ``str``, or an array (a NumPy array or anything with
    ``asnumpy()``), sliced at :data:`SLICE_BYTES`."""
    for parts in _entry_records(name, value, where):
        yield b"".join(parts)


def _entry_records(name: str, value, where: str | None) -> Iterator[tuple[bytes, ...]]:
    if isinstance(value, str):
        text = np.array(value, dtype=f"<U{max(len(value), 1)}")
        yield _record_parts(name, [0], _STR, text.tobytes())
        return
    array = np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)
    type_name = tensor_type_name(array.dtype)
    if type_name is None:
        raise CheckpointError(f"{name!r} has dtype {array.dtype}, which MindSpore's .ckpt "
                              "cannot hold", op="save_checkpoint", where=where,
                              expected=f"one of {', '.join(TYPE_NAMES)}",
                              hint="cast it, or save with format='safetensors'")
    data = _little_endian(array).reshape(-1).view(np.uint8)  # bytes, without a copy
    if len(data) <= SLICE_BYTES:
        yield _record_parts(name, array.shape, type_name, data)
        return
    for start in range(0, len(data), SLICE_BYTES):
        yield _record_parts(name, array.shape, type_name, data[start:start + SLICE_BYTES])


def write_ckpt(path: str, entries: Iterable[tuple[str, object]], crc_check: bool = False
               ) -> None:
    """Write ``(name, array or str)`` entries as a MindSpore ``.ckpt`` at ``path``,
    atomically (a failed save leaves the old file); ``crc_check`` appends MindSpore's CRC32
    trailer."""
    entries = list(entries)

    def write(tmp: str) -> None:
        crc = 0
        with open(tmp, "wb") as f:
            for name, value in entries:
                for parts in _entry_records(name, value, path):
                    for part in parts:
                        f.write(part)
                        crc = zlib.crc32(part, crc)
            if crc_check:
                f.write(CRC_MARK + crc.to_bytes(10, "big"))

    atomic_write(path, write)


# ---------------------------------------------------------------- reading

def _varint(data, pos: int, end: int) -> tuple[int, int] | None:
    """(value, next position) of the varint at ``pos``; None when it runs past ``end`` or
    past 10 bytes."""
    result = shift = 0
    for i in range(pos, min(end, pos + 10)):
        byte = data[i]
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, i + 1
        shift += 7
    return None


def _peek_tag(data, pos: int, end: int) -> str | None:
    """The tag (parameter name) at the start of a ``Checkpoint.Value``'s bytes, when it can
    be read: for naming the tensor of a record too damaged to parse."""
    if pos >= end or data[pos] != 0x0A:
        return None
    got = _varint(data, pos + 1, end)
    if got is None or got[0] > end - got[1] or got[0] > 4096:
        return None
    try:
        return bytes(data[got[1]:got[1] + got[0]]).decode("utf-8")
    except UnicodeDecodeError:
        return None


def _error(message: str, where: str, tensor: str | None = None, **extra) -> CheckpointError:
    if tensor is not None:
        message = f"tensor {tensor!r}: {message}"
    return CheckpointError(message, op="load_checkpoint", where=where, **extra)


class _Group:
    """Consecutive records of one tensor."""

    __slots__ = ("tag", "dims", "type_name", "chunks", "offset")

    def __init__(self, tag, dims, type_name, offset):
        self.tag, self.dims, self.type_name, self.offset = tag, dims, type_name, offset
        self.chunks: list[bytes] = []


def _finish(group: _Group, where: str):
    """The array (or string) a group of records holds, its size checked."""
    name = group.tag
    nbytes = sum(len(c) for c in group.chunks)
    if group.type_name == _STR:
        if group.dims != [0] or nbytes % 4:
            raise _error("a 'str' entry must have dims [0] and UTF-32 content", where, name,
                         got=f"dims {group.dims}, {nbytes} bytes")
        try:
            text = b"".join(group.chunks).decode("utf-32-le")
        except UnicodeDecodeError as exc:
            raise _error("its string content is not UTF-32", where, name, got=str(exc)) \
                from None
        return text.rstrip("\x00")
    dtype = TYPE_NAMES.get(group.type_name)
    if dtype is None:
        raise _error("unknown tensor_type", where, name, got=repr(group.type_name[:40]),
                     expected=f"one of {', '.join([*TYPE_NAMES, _STR])}")
    if any(d < 0 for d in group.dims):
        raise _error("negative dims", where, name, got=group.dims)
    dims = list(group.dims)
    if dims == [0] and nbytes == dtype.itemsize:  # MindSpore's loader reads [0] as a scalar
        dims = []
    expected = math.prod(dims) * dtype.itemsize
    if nbytes != expected:
        raise _error(f"dims {tuple(dims)} of {group.type_name} need {expected} bytes but the "
                     f"file holds {nbytes}", where, name,
                     hint="the file is damaged or was not written by MindSpore")
    data = group.chunks[0] if len(group.chunks) == 1 else b"".join(group.chunks)
    array = np.frombuffer(data, dtype=dtype).reshape(dims)
    if dtype.kind == "b" and array.size and array.view(np.uint8).max() > 1:
        raise _error("a Bool tensor holds bytes other than 0 and 1", where, name)
    if not dtype.isnative:
        array = array.astype(dtype.newbyteorder("="))
    return array


def parse_ckpt(data: bytes, where: str, crc_check: bool = False) -> list[tuple[str, object]]:
    """``[(name, array or str)]`` from a ``.ckpt``'s bytes, in the file's order (a name
    written twice keeps its last value, as MindSpore's loader does). Any damage is a
    :class:`CheckpointError` naming ``where`` and, when known, the tensor.

    Each record's checksum (Sporeling's files) is checked, and the CRC32 trailer whenever
    present (after the records, so that an error can name the damaged tensor);
    ``crc_check=True`` also requires the trailer.
    """
    view = memoryview(data)
    end = len(view)
    if end == 0:
        raise _error("the file is empty", where, expected="a MindSpore .ckpt")
    trailer_error = None
    if end >= _CRC_TRAILER and bytes(view[end - _CRC_TRAILER:end - 10]) == CRC_MARK:
        stored = int.from_bytes(view[end - 10:end], "big")
        end -= _CRC_TRAILER
        actual = zlib.crc32(view[:end])
        if actual != stored:
            trailer_error = _error("the CRC32 stored by crc_check does not match the content",
                                   where, got=f"{actual:#010x}", expected=f"{stored:#010x}",
                                   hint="the file is damaged")
    elif crc_check:
        raise _error("crc_check=True but the file has no CRC32 trailer", where,
                     hint="save it with crc_check=True, or load it with crc_check=False")
    out: dict[str, object] = {}
    group: _Group | None = None
    pos = index = 0
    checked = None  # whether the file's records carry checksums: all of them or none
    while pos < end:
        start = pos
        if view[pos] != _RECORD_TAG:
            raise _error(f"record {index} at byte {start} does not start a Checkpoint value",
                         where, got=f"byte {view[pos]:#04x}", expected=f"{_RECORD_TAG:#04x}",
                         hint="the file is damaged or not a MindSpore .ckpt")
        got = _varint(view, pos + 1, end)
        if got is None:
            raise _error(f"record {index} at byte {start}: its length is cut off or invalid",
                         where, hint="the file is truncated or damaged")
        length, pos = got
        if length > end - pos:
            raise _error(f"record {index} at byte {start} declares {length} bytes but only "
                         f"{end - pos} remain", where, _peek_tag(view, pos, end),
                         hint="the file is truncated or damaged")
        value = _Value()
        try:
            value.ParseFromString(view[pos:pos + length])
        except (DecodeError, ValueError, TypeError) as exc:
            raise _error(f"record {index} at byte {start} cannot be parsed", where,
                         _peek_tag(view, pos, pos + length), got=str(exc) or "DecodeError",
                         hint="the file is damaged") from None
        if not value.IsInitialized():
            raise _error(f"record {index} at byte {start} lacks required fields "
                         f"({', '.join(value.FindInitializationErrors())})", where,
                         value.tag or None, hint="the file is damaged")
        has_checksum = value.HasField("sporeling_crc32")
        if checked is None:
            checked = has_checksum
        if has_checksum != checked:
            has = "has" if has_checksum else "lacks"
            raise _error(f"record {index} at byte {start} {has} a checksum, unlike record 0",
                         where, value.tag, hint="the file is damaged")
        if checked:
            _check_record(view[pos:pos + length], value.sporeling_crc32, where, value.tag,
                          f"record {index} at byte {start}")
        pos += length
        index += 1
        tag = value.tag
        if not value.HasField("tensor"):
            kind = "a MapParameter" if value.HasField("maptensor") else "no tensor"
            raise _error(f"record {index - 1} holds {kind}, which Sporeling cannot load",
                         where, tag)
        tensor = value.tensor
        dims = list(tensor.dims)
        if group is not None and group.tag == tag:
            if dims != group.dims or tensor.tensor_type != group.type_name:
                raise _error(f"record {index - 1} continues the tensor with other dims or "
                             "type", where, tag, got=f"{dims} {tensor.tensor_type}",
                             expected=f"{group.dims} {group.type_name}")
        else:
            if group is not None:
                out.pop(group.tag, None)
                out[group.tag] = _finish(group, where)
            group = _Group(tag, dims, tensor.tensor_type, start)
        group.chunks.append(tensor.tensor_content)
    if trailer_error is not None:
        raise trailer_error
    if group is not None:
        out.pop(group.tag, None)
        out[group.tag] = _finish(group, where)
    return list(out.items())


def _check_record(record, stored: int, where: str, tag: str, which: str) -> None:
    """A record's checksum is its last field (as written here) and matches the rest."""
    if bytes(record[-_CHECKSUM_BYTES:]) != _CHECKSUM_TAG + stored.to_bytes(4, "little"):
        raise _error(f"{which}: its checksum is not its last field", where, tag,
                     hint="the file is damaged")
    actual = crc32(record[:-_CHECKSUM_BYTES])
    if actual != stored:
        raise _error(f"{which}: its bytes do not match the checksum stored with them", where,
                     tag, expected=f"CRC32 {stored:08x}", got=f"CRC32 {actual:08x}",
                     hint="the file is damaged; load an intact copy")


def read_ckpt(path: str, crc_check: bool = False) -> list[tuple[str, object]]:
    """``[(name, array or str)]`` from the ``.ckpt`` file at ``path`` (see
    :func:`parse_ckpt`)."""
    with open(path, "rb") as f:
        data = f.read()
    return parse_ckpt(data, path, crc_check)
