"""sporeling.data: the input pipeline -- sources, chainable operations, samplers, transforms,
parallel workers (threads or processes with shared memory) and the record format.

Rows are tuples of NumPy arrays, which every Sporeling API accepts; a dataset re-iterates
one epoch per ``for`` loop, so it can be handed to ``Model.train`` directly::

    >>> import numpy as np
    >>> import sporeling.data as sd
    >>> from sporeling.core import set_seed
    >>> set_seed(0)
    >>> x, y = np.random.rand(10, 4).astype(np.float32), np.arange(10) % 2
    >>> ds = sd.NumpySlicesDataset((x, y), ["x", "y"]).shuffle(10).batch(4)
    >>> ds.get_dataset_size(), [b[0].shape for b in ds]
    (3, [(4, 4), (4, 4), (2, 4)])
"""
from .dataset import Dataset
from .errors import CorruptSampleError, DataError, RecordError, WorkerError
from .iterators import DictIterator, TupleIterator
from .ops.batch_op import BatchInfo
from .profiling import ProfileReport, StageReport
from .randomness import sample_rng
from .record.reader import RecordDataset, RecordReader
from .record.writer import FileWriter
from .samplers import (DistributedSampler, RandomSampler, Sampler, SequentialSampler,
                       SubsetRandomSampler, SubsetSampler, WeightedRandomSampler)
from .sources.base import SourceDataset
from .sources.cifar import Cifar10Dataset
from .sources.csv_dataset import CSVDataset
from .sources.generator import GeneratorDataset
from .sources.image_folder import ImageFolderDataset
from .sources.mnist import MnistDataset
from .sources.numpy_slices import NumpySlicesDataset
from .transforms import Compose, RandomApply, RandomChoice, text, vision

MindDataset = RecordDataset  # MindSpore's name for the record source

__all__ = [
    "Dataset", "SourceDataset", "NumpySlicesDataset", "GeneratorDataset", "MnistDataset",
    "Cifar10Dataset", "ImageFolderDataset", "CSVDataset", "RecordDataset", "MindDataset",
    "RecordReader", "FileWriter", "Sampler", "SequentialSampler", "RandomSampler",
    "DistributedSampler", "WeightedRandomSampler", "SubsetRandomSampler", "SubsetSampler",
    "vision", "text", "Compose", "RandomApply", "RandomChoice", "sample_rng", "BatchInfo",
    "TupleIterator", "DictIterator", "ProfileReport", "StageReport", "DataError",
    "WorkerError", "CorruptSampleError", "RecordError",
]
