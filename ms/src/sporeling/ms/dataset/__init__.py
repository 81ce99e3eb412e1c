"""``ms.dataset``: MindSpore 2.x's dataset names over ``sporeling.data``.

``GeneratorDataset``, ``NumpySlicesDataset``, ``MnistDataset``, ... are sporeling.data's
pipelines (``map(operations, input_columns)``, ``batch``, ``shuffle``, ``get_dataset_size``)
whose iterators yield Tensors as MindSpore's do (``output_numpy=True`` for NumPy);
``ms.dataset.vision``/``transforms``/``text``
hold the transforms under MindSpore's names (``transforms.TypeCast(ms.int32)``), and
``ms.dataset.config.set_seed`` seeds the pipeline's random stream only.
"""
from sporeling.data import (DistributedSampler, RandomSampler, Sampler, SequentialSampler,
                            SubsetRandomSampler, SubsetSampler, WeightedRandomSampler)

from . import config, text, transforms, vision
from .pipeline import Dataset
from .sources import (Cifar10Dataset, CSVDataset, GeneratorDataset, ImageFolderDataset,
                      MindDataset, MnistDataset, NumpySlicesDataset)

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "MnistDataset", "Cifar10Dataset",
           "ImageFolderDataset", "CSVDataset", "MindDataset", "Dataset", "Sampler",
           "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetRandomSampler",
           "SubsetSampler", "WeightedRandomSampler", "config", "transforms", "vision", "text"]
