"""``Cifar10Dataset``: the CIFAR-10 binary batches (``data_batch_1.bin`` ... ``test_batch.bin``)."""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from .base import SourceDataset
from .files import check_dir, check_usage, read_bytes

__all__ = ["Cifar10Dataset"]

_RECORD = 1 + 3 * 32 * 32


class Cifar10Dataset(SourceDataset):
    """CIFAR-10 from ``dataset_dir`` (or its ``cifar-10-batches-bin`` subfolder): columns
    ``image`` (32, 32, 3) uint8 (HWC) and ``label`` uint32; ``usage`` "train", "test", "all".
    A file whose size is not a whole number of 3,073-byte records is named in the error."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None):
        folder = check_dir(dataset_dir, "Cifar10Dataset")
        if (folder / "cifar-10-batches-bin").is_dir():
            folder = folder / "cifar-10-batches-bin"
        usage = check_usage(usage, ("train", "test", "all"), "Cifar10Dataset")
        names = {"train": [f"data_batch_{i}.bin" for i in range(1, 6)],
                 "test": ["test_batch.bin"]}
        wanted = names["train"] + names["test"] if usage == "all" else names[usage]
        files = [folder / n for n in wanted if (folder / n).is_file()]
        if not files:
            raise DataError("no CIFAR-10 batch files", op="Cifar10Dataset",
                            expected=f"some of {wanted} in {folder}", got="none")
        super().__init__(["image", "label"], num_samples=num_samples, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)
        images, labels = [], []
        for path in files:
            data = read_bytes(path)
            if len(data) % _RECORD or not data:
                raise DataError(f"{path} is truncated or not a CIFAR-10 batch",
                                op="Cifar10Dataset",
                                expected=f"a multiple of {_RECORD} bytes",
                                got=f"{len(data)} bytes", where=str(path))
            records = np.frombuffer(data, np.uint8).reshape(-1, _RECORD)
            labels.append(records[:, 0].astype(np.uint32))
            images.append(records[:, 1:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
        self._images = np.ascontiguousarray(np.concatenate(images))
        self._labels = np.concatenate(labels)

    def _len(self):
        return len(self._labels)

    def _read(self, index):
        return self._images[index], self._labels[index]
