"""``ms.dataset``: MindSpore 2.10's dataset API over ``sporeling.data``.

Sources read their standard on-disk formats (MNIST IDX, CIFAR binaries, image folders,
COCO/VOC annotations, WAV/SPHERE audio, CSV/JSON/XML text, TFRecord, ...) into
sporeling.data pipelines whose operations (``map``, ``batch``, ``shuffle``, ...) and
iterators (Tensors unless ``output_numpy=True``) follow MindSpore's; ``vision``, ``text`` and
``transforms`` hold the transforms, and ``config.set_seed`` seeds the pipeline's random
stream only. Not provided: ``OBSMindDataset`` and ``sync_wait_for_dataset`` (Huawei OBS),
``LSUNDataset`` (LMDB files) and ``DatasetCache`` (a cache server).
"""
from sporeling.data import (DistributedSampler, RandomSampler, Sampler, SequentialSampler,
                            SubsetRandomSampler, SubsetSampler, WeightedRandomSampler)

from . import config, text, transforms, vision
from .audio_sources import (CMUArcticDataset, GTZANDataset, LibriTTSDataset, LJSpeechDataset,
                            SpeechCommandsDataset, TedliumDataset, YesNoDataset)
from .callback import DSCallback, WaitedDSCallback
from .image_sources import (Caltech101Dataset, Caltech256Dataset, CelebADataset,
                            Cifar100Dataset, CityscapesDataset, CocoDataset, DIV2KDataset,
                            EMnistDataset, FakeImageDataset, FashionMnistDataset, FlickrDataset,
                            Flowers102Dataset, Food101Dataset, KITTIDataset, KMnistDataset,
                            LFWDataset, ManifestDataset, OmniglotDataset, PhotoTourDataset,
                            Places365Dataset, QMnistDataset, RenderedSST2Dataset, SBDataset,
                            SBUDataset, SemeionDataset, STL10Dataset, SUN397Dataset,
                            SVHNDataset, USPSDataset, VOCDataset, WIDERFaceDataset)
from .misc_sources import PaddedDataset, RandomDataset, Schema, TFRecordDataset
from .pipeline import Dataset
from .samplers import PKSampler
from .serialize import compare, deserialize, serialize, show, zip
from .sources import (Cifar10Dataset, CSVDataset, GeneratorDataset, ImageFolderDataset,
                      MindDataset, MnistDataset, NumpySlicesDataset)
from .text_sources import (AGNewsDataset, AmazonReviewDataset, CLUEDataset, CoNLL2000Dataset,
                           DBpediaDataset, EnWik9Dataset, IMDBDataset, IWSLT2016Dataset,
                           IWSLT2017Dataset, Multi30kDataset, PennTreebankDataset,
                           SogouNewsDataset, SQuADDataset, SST2Dataset, TextFileDataset,
                           UDPOSDataset, WikiTextDataset, YahooAnswersDataset,
                           YelpReviewDataset)

__all__ = [
    "AGNewsDataset", "AmazonReviewDataset", "CLUEDataset", "CMUArcticDataset", "CSVDataset",
    "Caltech101Dataset", "Caltech256Dataset", "CelebADataset", "Cifar100Dataset",
    "Cifar10Dataset", "CityscapesDataset", "CoNLL2000Dataset", "CocoDataset", "DBpediaDataset",
    "DIV2KDataset", "DSCallback", "DistributedSampler", "EMnistDataset", "EnWik9Dataset",
    "FakeImageDataset", "FashionMnistDataset", "FlickrDataset", "Flowers102Dataset",
    "Food101Dataset", "GTZANDataset", "GeneratorDataset", "IMDBDataset", "IWSLT2016Dataset",
    "IWSLT2017Dataset", "ImageFolderDataset", "KITTIDataset", "KMnistDataset", "LFWDataset",
    "LJSpeechDataset", "LibriTTSDataset", "ManifestDataset", "MindDataset", "MnistDataset",
    "Multi30kDataset", "NumpySlicesDataset", "OmniglotDataset", "PKSampler", "PaddedDataset",
    "PennTreebankDataset", "PhotoTourDataset", "Places365Dataset", "QMnistDataset",
    "RandomDataset", "RandomSampler", "RenderedSST2Dataset", "SBDataset", "SBUDataset",
    "SQuADDataset", "SST2Dataset", "STL10Dataset", "SUN397Dataset", "SVHNDataset", "Schema",
    "SemeionDataset", "SequentialSampler", "SogouNewsDataset", "SpeechCommandsDataset",
    "SubsetRandomSampler", "SubsetSampler", "TFRecordDataset", "TedliumDataset",
    "TextFileDataset", "UDPOSDataset", "USPSDataset", "VOCDataset", "WIDERFaceDataset",
    "WaitedDSCallback", "WeightedRandomSampler", "WikiTextDataset", "YahooAnswersDataset",
    "YelpReviewDataset", "YesNoDataset", "compare", "deserialize", "serialize", "show",
    "zip",
    "Dataset", "Sampler", "config", "transforms", "vision", "text",
]
