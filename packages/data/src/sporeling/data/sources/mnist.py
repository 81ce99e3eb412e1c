"""``MnistDataset``: the MNIST IDX files (plain or gzipped)."""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from .base import SourceDataset
from .files import check_dir, check_usage, find_file, read_bytes

__all__ = ["MnistDataset", "read_idx"]

_TYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path) -> np.ndarray:
    """An IDX file as an array; a bad magic number or a truncated body names the file and
    the byte counts::

        >>> import tempfile, pathlib
        >>> p = pathlib.Path(tempfile.mkdtemp()) / "t-idx1-ubyte"
        >>> _ = p.write_bytes(bytes([0, 0, 8, 1, 0, 0, 0, 3, 7, 8, 9]))
        >>> read_idx(p).tolist()
        [7, 8, 9]
    """
    from pathlib import Path
    path = Path(path)
    data = read_bytes(path)
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] not in _TYPES:
        raise DataError(f"{path} is not an IDX file", op="MnistDataset",
                        expected="magic 00 00 <type> <ndim>", got=data[:4].hex() or "empty",
                        where=str(path))
    ndim, dtype = data[3], np.dtype(_TYPES[data[2]])
    header = 4 + 4 * ndim
    if len(data) < header:
        raise DataError(f"{path} is truncated in its header", op="MnistDataset",
                        expected=f">= {header} bytes", got=len(data), where=str(path))
    shape = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim))
    body = int(np.prod(shape)) * dtype.itemsize
    if len(data) != header + body:
        raise DataError(f"{path} is truncated" if len(data) < header + body
                        else f"{path} has trailing bytes", op="MnistDataset",
                        expected=f"{header + body} bytes for shape {shape}",
                        got=f"{len(data)} bytes", where=str(path))
    return np.frombuffer(data, dtype, offset=header).reshape(shape).astype(dtype.newbyteorder("="))


class MnistDataset(SourceDataset):
    """MNIST from ``dataset_dir`` (``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``,
    ``t10k-...``, each optionally ``.gz``). Columns ``image`` (28, 28, 1) uint8 and ``label``
    uint32; ``usage`` is "train", "test" or "all"."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None):
        folder = check_dir(dataset_dir, "MnistDataset")
        usage = check_usage(usage, ("train", "test", "all"), "MnistDataset")
        super().__init__(["image", "label"], num_samples=num_samples, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)
        images, labels = [], []
        for prefix in {"train": ["train"], "test": ["t10k"], "all": ["train", "t10k"]}[usage]:
            x = read_idx(find_file(folder, f"{prefix}-images-idx3-ubyte", "MnistDataset"))
            y = read_idx(find_file(folder, f"{prefix}-labels-idx1-ubyte", "MnistDataset"))
            if x.ndim != 3 or y.ndim != 1 or len(x) != len(y):
                raise DataError("images and labels do not match", op="MnistDataset",
                                expected="(n, rows, cols) images and n labels",
                                got=f"{x.shape} and {y.shape}", where=str(folder))
            images.append(x[..., None])
            labels.append(y.astype(np.uint32))
        self._images, self._labels = np.concatenate(images), np.concatenate(labels)

    def _len(self):
        return len(self._labels)

    def _read(self, index):
        return self._images[index], self._labels[index]
