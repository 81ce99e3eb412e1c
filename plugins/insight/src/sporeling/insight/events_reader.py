"""Reading TensorBoard event files back (for the report) without TensorBoard.

An event file is a sequence of records: ``uint64 length``, ``uint32 masked CRC of the
length``, the serialized ``Event``, ``uint32 masked CRC of the data`` (little-endian; the
format tensorboardX's ``RecordWriter`` writes). Both checksums are verified, so a truncated
or corrupted file is an :class:`EventFileError` naming the file and the byte offset.
"""
from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field
from pathlib import Path

from tensorboardX.proto import event_pb2
from tensorboardX.record_writer import masked_crc32c

from sporeling.core import SporelingError

__all__ = ["EventFileError", "RunData", "read_events", "read_run", "event_files"]


class EventFileError(SporelingError, ValueError):
    """An event file that cannot be read (truncated, corrupted)."""


def event_files(folder: str | os.PathLike) -> list[Path]:
    """Every TensorBoard event file under ``folder``, in name order."""
    return sorted(p for p in Path(folder).rglob("*tfevents*") if p.is_file())


def read_events(path: str | os.PathLike):
    """Yield the ``Event`` protos of one event file."""
    data = Path(path).read_bytes()
    offset = 0
    while offset < len(data):
        def fail(what):
            return EventFileError(f"{what} in an event file", where=f"{path}, byte {offset}",
                                  expected="length, CRC, event, CRC records",
                                  got=f"{len(data) - offset} bytes left")
        if offset + 12 > len(data):
            raise fail("truncated record header")
        header = data[offset:offset + 8]
        (length,) = struct.unpack("<Q", header)
        (crc,) = struct.unpack("<I", data[offset + 8:offset + 12])
        if crc != masked_crc32c(header):
            raise fail("bad length checksum")
        end = offset + 12 + length
        if end + 4 > len(data):
            raise fail("truncated record")
        body = data[offset + 12:end]
        if struct.unpack("<I", data[end:end + 4])[0] != masked_crc32c(body):
            raise fail("bad data checksum")
        event = event_pb2.Event()
        event.ParseFromString(body)
        yield event
        offset = end + 4


@dataclass
class RunData:
    """What the report plots from a run's event files."""
    scalars: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    histograms: dict[str, int] = field(default_factory=dict)  # tag -> records
    images: dict[str, int] = field(default_factory=dict)
    graph_nodes: int = 0
    files: list[Path] = field(default_factory=list)


def read_run(folder: str | os.PathLike) -> RunData:
    """Scalars (by tag, ``(step, value)`` in step order), counts of histograms and images,
    and the size of the last graph, from every event file under ``folder``."""
    run = RunData(files=event_files(folder))
    for path in run.files:
        for event in read_events(path):
            if event.graph_def:
                from tensorboardX.proto import graph_pb2
                graph = graph_pb2.GraphDef()
                graph.ParseFromString(event.graph_def)
                run.graph_nodes = len(graph.node)
            for value in event.summary.value:
                kind = value.WhichOneof("value")
                if kind == "simple_value":
                    run.scalars.setdefault(value.tag, []).append((event.step,
                                                                  value.simple_value))
                elif kind == "histo":
                    run.histograms[value.tag] = run.histograms.get(value.tag, 0) + 1
                elif kind == "image":
                    run.images[value.tag] = run.images.get(value.tag, 0) + 1
    for points in run.scalars.values():
        points.sort(key=lambda p: p[0])
    return run
