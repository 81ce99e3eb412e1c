"""The base of the facade's file-reading datasets: a list of records (file paths, parsed
lines) found when the dataset is built, and a function reading one record into a row.
Sampling (``shuffle``, ``num_samples``, ``sampler``, ``num_shards``/``shard_id``) is
sporeling.data's; reading happens per row, in the pipeline."""
from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

from sporeling.data import CorruptSampleError, DataError, SourceDataset
from sporeling.data.transforms.vision import decode_image

from .pipeline import Dataset
from .samplers import attach_labels

__all__ = ["FileDataset", "check_dir", "check_file", "check_usage", "image_column",
           "read_wav", "strings", "text_lines"]


class _RecordSource(SourceDataset):
    def __init__(self, names, records, load, op, **sampling):
        super().__init__(names, **sampling)
        self.records, self.load, self.op = records, load, op

    def _len(self):
        return len(self.records)

    def _read(self, index):
        record = self.records[index]
        try:
            row = self.load(record)
        except (OSError, ValueError, KeyError, EOFError) as exc:
            raise CorruptSampleError(f"cannot read a sample: {exc}", op=self.op,
                                     where=self.describe(index)) from exc
        return tuple(np.asarray(c) for c in row)

    def describe(self, index):
        record = self.records[index]
        first = record[0] if isinstance(record, tuple) and record else record
        return str(first) if isinstance(first, (str, Path)) else f"record {index}"


def _shuffle_flag(shuffle):
    """MindSpore's ``shuffle``: a bool, None, or ``Shuffle.GLOBAL/FILES/INFILE`` (any of
    which shuffles the rows here)."""
    if shuffle is None or isinstance(shuffle, bool):
        return shuffle
    return str(getattr(shuffle, "value", shuffle)).lower() in ("global", "files", "infile")


class FileDataset(Dataset):
    """A facade source over records; subclasses call :meth:`_setup` in ``__init__``."""

    def _setup(self, names, records, load, num_samples=None, shuffle=None, sampler=None,
               num_shards=None, shard_id=None, class_indexing=None, label_column="label"):
        op = type(self).__name__
        if not records:
            raise DataError("no samples found", op=op, expected="files in the documented "
                            "layout", got="none")
        attach_labels(sampler, names, lambda i: load(records[i]), len(records), label_column)
        self._inner = _RecordSource(list(names), records, load, op, num_samples=num_samples,
                                    shuffle=_shuffle_flag(shuffle), sampler=sampler,
                                    num_shards=num_shards, shard_id=shard_id)
        if class_indexing is not None:
            self._inner.class_indexing = dict(class_indexing)


def check_dir(path, op) -> Path:
    path = Path(path)
    if not path.is_dir():
        raise DataError("no such folder", op=op, expected="an existing dataset folder",
                        got=str(path))
    return path


def check_file(path, op) -> Path:
    path = Path(path)
    if not path.is_file():
        raise DataError("no such file", op=op, expected="an existing file", got=str(path))
    return path


def check_usage(usage, allowed, op, default="all"):
    usage = default if usage is None else usage
    if usage not in allowed:
        raise DataError("bad usage", op=op, expected=f"one of {list(allowed)}", got=usage)
    return usage


def image_column(path, decode: bool):
    """An image file as HWC RGB uint8 (``decode``) or its raw bytes (a 1-D uint8 array)."""
    raw = np.fromfile(str(path), np.uint8)
    return decode_image(raw, str(path)) if decode else raw


def strings(*values):
    """A row of string scalars."""
    return tuple(np.asarray(str(v)) for v in values)


def text_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").rstrip("\r") for line in f]


def read_wav(path, rate_dtype=np.int32):
    """(waveform float32 in [-1, 1], sample_rate) of a PCM WAV file (8-bit unsigned,
    16/32-bit signed): a vector for a mono file (MindSpore's), (channels, samples) else."""
    with wave.open(str(path), "rb") as w:
        channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
        frames = w.readframes(w.getnframes())
    if width == 1:
        data = (np.frombuffer(frames, np.uint8).astype(np.float32) - 128.0) / 128.0
    elif width in (2, 4):
        kind = np.int16 if width == 2 else np.int32
        data = np.frombuffer(frames, f"<i{width}").astype(np.float32) / -float(np.iinfo(kind).min)
    else:
        raise ValueError(f"{width * 8}-bit WAV samples are not supported")
    waveform = data if channels == 1 else data.reshape(-1, channels).T.copy()
    return waveform, rate_dtype(rate)
