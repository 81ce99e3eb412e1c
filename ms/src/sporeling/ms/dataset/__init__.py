"""``ms.dataset``: MindSpore 2.x's dataset names over ``sporeling.data``.

``GeneratorDataset``, ``NumpySlicesDataset``, ``MnistDataset``, ... are sporeling.data's
(MindSpore-style already: ``map(operations, input_columns)``, ``batch``, ``shuffle``,
``create_tuple_iterator``, ``get_dataset_size``); ``ms.dataset.vision``/``transforms``/``text``
hold the transforms under MindSpore's names (``transforms.TypeCast(ms.int32)``), and
``ms.dataset.config.set_seed`` seeds the pipeline's random stream only.
"""
from sporeling.data import (Cifar10Dataset, CSVDataset, Dataset, DistributedSampler,
                            GeneratorDataset, ImageFolderDataset, MindDataset, MnistDataset,
                            NumpySlicesDataset, RandomSampler, Sampler, SequentialSampler,
                            SubsetRandomSampler, SubsetSampler, WeightedRandomSampler)

from . import config, text, transforms, vision

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "MnistDataset", "Cifar10Dataset",
           "ImageFolderDataset", "CSVDataset", "MindDataset", "Dataset", "Sampler",
           "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetRandomSampler",
           "SubsetSampler", "WeightedRandomSampler", "config", "transforms", "vision", "text"]
