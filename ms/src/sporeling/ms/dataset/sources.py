"""Source datasets under MindSpore's names, as facade pipelines (``pipeline.Dataset``)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

import sporeling.data as _data

from ..common.dtype import to_numpy

from .pipeline import Dataset
from .samplers import attach_labels

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "MnistDataset", "Cifar10Dataset",
           "ImageFolderDataset", "CSVDataset", "MindDataset"]


def _source(name, factory):
    def __init__(self, *args, **kwargs):
        self._inner = factory(*args, **kwargs)
        if kwargs.get("sampler") is not None and hasattr(self._inner, "_read"):
            # a PKSampler reads the source's labels (Cifar10Dataset(dir, sampler=PKSampler))
            attach_labels(kwargs["sampler"], self._inner.get_col_names(), self._inner._read,
                          self._inner._len())
    doc = (f"MindSpore's ``{name}`` (sporeling.data's, yielding Tensors):\n\n"
           f"{factory.__doc__ or ''}")
    return type(name, (Dataset,), {"__init__": __init__, "__doc__": doc,
                                   "__module__": __name__})


class GeneratorDataset(Dataset):
    """MindSpore 2.10's ``GeneratorDataset(source, column_names=None, column_types=None,
    schema=None, num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
    num_shards=None, shard_id=None, python_multiprocessing=True, max_rowsize=None,
    batch_sampler=None, collate_fn=None)`` over sporeling.data's.

    ``shuffle=None`` shuffles a random-accessible source (``__getitem__`` and ``__len__``,
    a list included) and reads an iterable or generator in order, as 2.10 does;
    ``shuffle=False`` for the source's order. ``column_types`` (deprecated in 2.10) checks
    each column's dtype, as 2.10 does (a mismatch raises; nothing is cast).
    ``num_parallel_workers``, ``python_multiprocessing`` and ``max_rowsize`` are validated
    and change nothing (the source is read in the main process; ``map`` has workers);
    ``schema``, ``batch_sampler`` and ``collate_fn`` are not supported.

    sporeling.data's documentation:

    """

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, python_multiprocessing=True,
                 max_rowsize=None, batch_sampler=None, collate_fn=None):
        for name, value in (("schema", schema), ("batch_sampler", batch_sampler),
                            ("collate_fn", collate_fn)):
            if value is not None:
                raise NotImplementedError(f"GeneratorDataset: {name}= is not supported by "
                                          f"the facade; give column_names (and batch())")
        if num_parallel_workers is not None and (
                isinstance(num_parallel_workers, bool)
                or not isinstance(num_parallel_workers, int) or num_parallel_workers < 1):
            raise ValueError(f"GeneratorDataset: num_parallel_workers must be a positive "
                             f"int, got {num_parallel_workers!r}")
        if not isinstance(python_multiprocessing, bool):
            raise TypeError(f"GeneratorDataset: python_multiprocessing must be a bool, got "
                            f"{type(python_multiprocessing).__name__}")
        if hasattr(source, "__getitem__") and hasattr(source, "__len__"):
            names = [column_names] if isinstance(column_names, str) else list(column_names)
            attach_labels(sampler, names, source.__getitem__, len(source))
        inner = _data.GeneratorDataset(source, column_names, num_samples=num_samples,
                                       shuffle=shuffle, sampler=sampler,
                                       num_shards=num_shards, shard_id=shard_id)
        if column_types is not None:
            names = inner.get_col_names()
            if len(column_types) != len(names):
                raise ValueError(f"GeneratorDataset: {len(column_types)} column_types for "
                                 f"{len(names)} columns {names}")
            for name, dtype in zip(names, column_types):
                inner = inner.map(_TypeCheck(name, to_numpy(dtype)), input_columns=[name])
        self._inner = inner


class _TypeCheck:
    """2.10's ``column_types``: the source's values must already have the dtype."""

    def __init__(self, name, dtype):
        self.name, self.dtype = name, dtype

    def __call__(self, column):
        column = np.asarray(column)
        if column.dtype != self.dtype:
            raise TypeError(f"GeneratorDataset: column {self.name!r} is {column.dtype}, "
                            f"column_types says {self.dtype}")
        return column


GeneratorDataset.__doc__ += _data.GeneratorDataset.__doc__ or ""
NumpySlicesDataset = _source("NumpySlicesDataset", _data.NumpySlicesDataset)
Cifar10Dataset = _source("Cifar10Dataset", _data.Cifar10Dataset)


def _image_folder(dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                  sampler=None, extensions=None, class_indexing=None, decode=False,
                  num_shards=None, shard_id=None, cache=None, decrypt=None):
    """MindSpore's argument order; the class indexing is kept for ``get_class_indexing``."""
    inner = _data.ImageFolderDataset(dataset_dir, num_samples=num_samples, shuffle=shuffle,
                                     extensions=extensions, class_indexing=class_indexing,
                                     decode=decode, sampler=sampler, num_shards=num_shards,
                                     shard_id=shard_id)
    folder = Path(dataset_dir)
    inner.class_indexing = dict(class_indexing) if class_indexing else {
        c: i for i, c in enumerate(sorted(p.name for p in folder.iterdir() if p.is_dir()))}
    return inner


_image_folder.__doc__ += "\n\n" + (_data.ImageFolderDataset.__doc__ or "")
ImageFolderDataset = _source("ImageFolderDataset", _image_folder)
CSVDataset = _source("CSVDataset", _data.CSVDataset)
MindDataset = _source("MindDataset", _data.MindDataset)


def _mnist(dataset_dir, usage=None, *args, **kwargs):
    """MindSpore reads what the folder holds when ``usage`` is None/"all" (the quickstart's
    ``MNIST_Data/train`` has only the train files); sporeling.data's "all" needs both."""
    if usage in (None, "all"):
        folder = Path(dataset_dir)
        has = {prefix: any((folder / f"{prefix}-images-idx3-ubyte{ext}").is_file()
                           for ext in ("", ".gz")) for prefix in ("train", "t10k")}
        if has["train"] != has["t10k"]:
            usage = "train" if has["train"] else "test"
    return _data.MnistDataset(dataset_dir, usage, *args, **kwargs)


MnistDataset = _source("MnistDataset", _mnist)
MnistDataset.__doc__ = ("MNIST from ``dataset_dir``; with ``usage`` None or 'all' a folder "
                        "holding only one split's files reads that split, as MindSpore "
                        "does.\n\n" + (_data.MnistDataset.__doc__ or ""))
