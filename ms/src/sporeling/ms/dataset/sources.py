"""Source datasets under MindSpore's names, as facade pipelines (``pipeline.Dataset``)."""
from __future__ import annotations

from pathlib import Path

import sporeling.data as _data

from .pipeline import Dataset

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "MnistDataset", "Cifar10Dataset",
           "ImageFolderDataset", "CSVDataset", "MindDataset"]


def _source(name, factory):
    def __init__(self, *args, **kwargs):
        self._inner = factory(*args, **kwargs)
    doc = (f"MindSpore's ``{name}`` (sporeling.data's, yielding Tensors):\n\n"
           f"{factory.__doc__ or ''}")
    return type(name, (Dataset,), {"__init__": __init__, "__doc__": doc,
                                   "__module__": __name__})


GeneratorDataset = _source("GeneratorDataset", _data.GeneratorDataset)
NumpySlicesDataset = _source("NumpySlicesDataset", _data.NumpySlicesDataset)
Cifar10Dataset = _source("Cifar10Dataset", _data.Cifar10Dataset)
ImageFolderDataset = _source("ImageFolderDataset", _data.ImageFolderDataset)
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
