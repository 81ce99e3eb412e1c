"""Image datasets read from their standard files (MindSpore 2.10's names, columns and
layouts). ``decode=False`` (MindSpore's default for most) yields the image file's bytes as a
1-D uint8 array, for ``vision.Decode``; ``decode=True`` yields HWC RGB uint8."""
from __future__ import annotations

import gzip
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

from sporeling.data import DataError

from .file_source import FileDataset, check_dir, check_file, check_usage, image_column, text_lines

__all__ = ["FashionMnistDataset", "KMnistDataset", "EMnistDataset", "QMnistDataset",
           "Cifar100Dataset", "STL10Dataset", "SVHNDataset", "USPSDataset", "SemeionDataset",
           "Caltech101Dataset", "Caltech256Dataset", "CelebADataset", "CityscapesDataset",
           "CocoDataset", "DIV2KDataset", "FakeImageDataset", "FlickrDataset",
           "Flowers102Dataset", "Food101Dataset", "KITTIDataset", "LFWDataset",
           "ManifestDataset", "OmniglotDataset", "PhotoTourDataset", "Places365Dataset",
           "RenderedSST2Dataset", "SBDataset", "SBUDataset", "SUN397Dataset", "VOCDataset",
           "WIDERFaceDataset", "read_idx"]

_IMAGE_EXTS = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".gif", ".webp")


def read_idx(path) -> np.ndarray:
    """An IDX file (MNIST's format; ``.gz`` too): magic 0x0000 <type> <ndim>, big-endian
    sizes, then the data."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    types = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
    if len(raw) < 4 or raw[0] or raw[1] or raw[2] not in types:
        raise DataError("not an IDX file", op="read_idx", expected="magic 0x0000 <type>",
                        got=raw[:4].hex(), where=str(path))
    ndim = raw[3]
    dims = np.frombuffer(raw, ">u4", ndim, 4).astype(int)
    data = np.frombuffer(raw, types[raw[2]], int(np.prod(dims)), 4 + 4 * ndim)
    return data.reshape(dims).astype(np.dtype(types[raw[2]]).newbyteorder("="))


def _idx_file(folder, stem, op):
    for name in (stem, stem + ".gz"):
        if (folder / name).is_file():
            return folder / name
    return check_file(folder / stem, op)


def _idx_pairs(folder, prefixes, op):
    """(images (N, 28, 28, 1) uint8, labels uint32) from ``<prefix>-images-idx3-ubyte`` and
    ``<prefix>-labels-idx1-ubyte`` of each prefix."""
    images, labels = [], []
    for prefix in prefixes:
        images.append(read_idx(_idx_file(folder, f"{prefix}-images-idx3-ubyte", op)))
        labels.append(read_idx(_idx_file(folder, f"{prefix}-labels-idx1-ubyte", op)))
    return np.concatenate(images)[..., None], np.concatenate(labels).astype(np.uint32)


class _ArraySource(FileDataset):
    """A source whose samples are rows of in-memory arrays."""

    def _arrays(self, names, arrays, num_samples, shuffle, sampler, num_shards, shard_id,
                class_indexing=None):
        self._setup(names, list(range(len(arrays[0]))),
                    lambda i: tuple(a[i] for a in arrays), num_samples, shuffle, sampler,
                    num_shards, shard_id, class_indexing)


class _MnistLike(_ArraySource):
    _files = {"train": "train", "test": "t10k"}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        op = type(self).__name__
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "test", "all"), op)
        parts = [self._files[u] for u in (("train", "test") if usage == "all" else (usage,))]
        if usage == "all":
            parts = [p for p in parts if any(folder.glob(f"{p}-images-idx3-ubyte*"))] or parts
        images, labels = _idx_pairs(folder, parts, op)
        self._arrays(["image", "label"], (images, labels), num_samples, shuffle, sampler,
                     num_shards, shard_id)


class FashionMnistDataset(_MnistLike):
    """Fashion-MNIST: the MNIST IDX files; image (28, 28, 1) uint8, label uint32."""


class KMnistDataset(_MnistLike):
    """Kuzushiji-MNIST: the MNIST IDX files; image (28, 28, 1) uint8, label uint32."""


class EMnistDataset(_ArraySource):
    """EMNIST: ``emnist-<name>-{train,test}-{images-idx3,labels-idx1}-ubyte`` for ``name``
    byclass, bymerge, balanced, letters, digits or mnist."""

    def __init__(self, dataset_dir, name, usage=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        op = "EMnistDataset"
        if name not in ("byclass", "bymerge", "balanced", "letters", "digits", "mnist"):
            raise DataError("bad name", op=op, expected="byclass, bymerge, balanced, letters, "
                            "digits or mnist", got=name)
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "test", "all"), op)
        parts = [f"emnist-{name}-{u}" for u in (("train", "test") if usage == "all" else (usage,))]
        images, labels = _idx_pairs(folder, parts, op)
        self._arrays(["image", "label"], (images, labels), num_samples, shuffle, sampler,
                     num_shards, shard_id)


class QMnistDataset(_ArraySource):
    """QMNIST: ``qmnist-<usage>-images-idx3-ubyte`` and ``-labels-idx2-int`` (8 numbers
    per image); ``compat`` keeps the class only (uint32), else all 8 (uint32)."""

    def __init__(self, dataset_dir, usage=None, compat=True, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        op = "QMnistDataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "test", "test10k", "test50k", "nist", "all"), op)
        parts = {"train": ["train"], "test": ["test"], "test10k": ["test"],
                 "test50k": ["test"], "nist": ["nist"], "all": ["train", "test", "nist"]}[usage]
        images, labels = [], []
        for part in parts:
            if usage == "all" and not any(folder.glob(f"qmnist-{part}-images-idx3-ubyte*")):
                continue
            images.append(read_idx(_idx_file(folder, f"qmnist-{part}-images-idx3-ubyte", op)))
            labels.append(read_idx(_idx_file(folder, f"qmnist-{part}-labels-idx2-int", op)))
        images, labels = np.concatenate(images)[..., None], np.concatenate(labels)
        if usage == "test10k":
            images, labels = images[:10000], labels[:10000]
        elif usage == "test50k":
            images, labels = images[10000:], labels[10000:]
        labels = (labels[:, 0] if compat else labels).astype(np.uint32)
        self._arrays(["image", "label"], (images, labels), num_samples, shuffle, sampler,
                     num_shards, shard_id)


class Cifar100Dataset(_ArraySource):
    """CIFAR-100 binary version: ``train.bin``/``test.bin`` records of coarse label, fine
    label (1 byte each) and 3072 pixel bytes (CHW); image (32, 32, 3) uint8, labels uint32."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "Cifar100Dataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "test", "all"), op)
        raw = [np.fromfile(check_file(folder / f"{u}.bin", op), np.uint8)
               for u in (("train", "test") if usage == "all" else (usage,))]
        data = np.concatenate(raw)
        if data.size % 3074:
            raise DataError("truncated CIFAR-100 file", op=op, expected="3074-byte records",
                            got=data.size)
        data = data.reshape(-1, 3074)
        images = data[:, 2:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        self._arrays(["image", "coarse_label", "fine_label"],
                     (np.ascontiguousarray(images), data[:, 0].astype(np.uint32),
                      data[:, 1].astype(np.uint32)), num_samples, shuffle, sampler,
                     num_shards, shard_id)


class STL10Dataset(_ArraySource):
    """STL-10 binary: ``<part>_X.bin`` (N x 3 x 96 x 96, column-major per image) and
    ``<part>_y.bin`` (labels 1..10); usage train, test, unlabeled, train+unlabeled, all.
    image (96, 96, 3) uint8, label int32 (0..9; -1 for unlabeled)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "STL10Dataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "test", "unlabeled", "train+unlabeled", "all"), op)
        parts = {"train+unlabeled": ["train", "unlabeled"],
                 "all": ["train", "test", "unlabeled"]}.get(usage, [usage])
        images, labels = [], []
        for part in parts:
            x = np.fromfile(check_file(folder / f"{part}_X.bin", op), np.uint8)
            x = x.reshape(-1, 3, 96, 96).transpose(0, 3, 2, 1)
            images.append(x)
            if part == "unlabeled":
                labels.append(np.full(len(x), -1, np.int32))
            else:
                labels.append(np.fromfile(check_file(folder / f"{part}_y.bin", op),
                                          np.uint8).astype(np.int32) - 1)
        self._arrays(["image", "label"], (np.ascontiguousarray(np.concatenate(images)),
                                          np.concatenate(labels)),
                     num_samples, shuffle, sampler, num_shards, shard_id)


class SVHNDataset(_ArraySource):
    """SVHN cropped digits: ``<usage>_32x32.mat`` (X: 32 x 32 x 3 x N, y: N x 1, digit 0
    stored as 10); image (32, 32, 3) uint8, label uint32."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        from scipy.io import loadmat
        op = "SVHNDataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "test", "extra", "all"), op)
        images, labels = [], []
        for part in ("train", "test", "extra") if usage == "all" else (usage,):
            if usage == "all" and not (folder / f"{part}_32x32.mat").exists():
                continue
            mat = loadmat(str(check_file(folder / f"{part}_32x32.mat", op)))
            images.append(np.ascontiguousarray(mat["X"].transpose(3, 0, 1, 2)))
            labels.append(mat["y"].reshape(-1) % 10)
        self._arrays(["image", "label"], (np.concatenate(images).astype(np.uint8),
                                          np.concatenate(labels).astype(np.uint32)),
                     num_samples, shuffle, sampler, num_shards, shard_id)


class USPSDataset(_ArraySource):
    """USPS: ``usps`` (train) and ``usps.t`` (test) in LIBSVM format ("label i:v ...",
    values in [-1, 1]); image (16, 16, 1) uint8, label uint32 (label - 1)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=True, num_shards=None, shard_id=None, cache=None):
        op = "USPSDataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "test", "all"), op)
        images, labels = [], []
        for part in ("train", "test") if usage == "all" else (usage,):
            for line in text_lines(check_file(folder / ("usps" if part == "train" else "usps.t"),
                                              op)):
                parts = line.split()
                if not parts:
                    continue
                pixels = np.zeros(256, np.float64)
                for item in parts[1:]:
                    k, v = item.split(":")
                    pixels[int(k) - 1] = float(v)
                images.append(((pixels + 1.0) / 2.0 * 255.0).round().clip(0, 255)
                              .astype(np.uint8).reshape(16, 16, 1))
                labels.append(int(float(parts[0])) - 1)
        self._arrays(["image", "label"], (np.stack(images), np.asarray(labels, np.uint32)),
                     num_samples, shuffle, None, num_shards, shard_id)


class SemeionDataset(_ArraySource):
    """Semeion handwritten digits: ``semeion.data`` lines of 256 pixels (0/1) and a one-hot
    of 10; image (16, 16) uint8 (0 or 255), label uint32."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "SemeionDataset"
        path = check_file(check_dir(dataset_dir, op) / "semeion.data", op)
        rows = np.asarray([[float(v) for v in line.split()] for line in text_lines(path)
                           if line.strip()])
        images = (rows[:, :256].reshape(-1, 16, 16) * 255).astype(np.uint8)
        labels = rows[:, 256:266].argmax(1).astype(np.uint32)
        self._arrays(["image", "label"], (images, labels), num_samples, shuffle, sampler,
                     num_shards, shard_id)


def _images_in(folder):
    return sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in _IMAGE_EXTS)


class _Folders(FileDataset):
    """Class folders of images: records (path, label)."""

    def _folders(self, folder, classes, decode, num_samples, shuffle, sampler, num_shards,
                 shard_id, names=("image", "label"), dtype=np.uint32):
        indexing = {c: i for i, c in enumerate(classes)}
        records = [(p, indexing[c]) for c in classes for p in _images_in(folder / c)]
        self._setup(list(names), records,
                    lambda r: (image_column(r[0], decode), np.asarray(r[1], dtype)),
                    num_samples, shuffle, sampler, num_shards, shard_id, indexing)


class Caltech256Dataset(_Folders):
    """Caltech-256: ``<NNN.name>/*.jpg`` class folders (sorted; label uint32 = position)."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        folder = check_dir(dataset_dir, "Caltech256Dataset")
        classes = sorted(p.name for p in folder.iterdir() if p.is_dir())
        self._folders(folder, classes, decode, num_samples, shuffle, sampler, num_shards,
                      shard_id)


class OmniglotDataset(_Folders):
    """Omniglot: ``images_background`` (``background=True``) or ``images_evaluation``,
    ``<alphabet>/<character>/*.png``; label = the character's position."""

    def __init__(self, dataset_dir, background=True, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        folder = check_dir(Path(dataset_dir) / ("images_background" if background
                                                else "images_evaluation"), "OmniglotDataset")
        classes = sorted(f"{a.name}/{c.name}" for a in folder.iterdir() if a.is_dir()
                         for c in a.iterdir() if c.is_dir())
        self._folders(folder, classes, decode, num_samples, shuffle, sampler, num_shards,
                      shard_id)


class RenderedSST2Dataset(_Folders):
    """Rendered SST-2: ``{train,val,test}/{negative,positive}/*.png``; label uint32."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        op = "RenderedSST2Dataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "val", "test", "all"), op)
        parts = ("train", "val", "test") if usage == "all" else (usage,)
        records = [(p, label) for part in parts if (folder / part).is_dir()
                   for label, name in enumerate(("negative", "positive"))
                   for p in _images_in(folder / part / name)]
        self._setup(["image", "label"], records,
                    lambda r: (image_column(r[0], decode), np.uint32(r[1])), num_samples,
                    shuffle, sampler, num_shards, shard_id, {"negative": 0, "positive": 1})


_CALTECH_ANNOTATION = {"Faces": "Faces_2", "Faces_easy": "Faces_3",
                       "Motorbikes": "Motorbikes_16", "airplanes": "Airplanes_Side_2"}


class Caltech101Dataset(FileDataset):
    """Caltech-101: ``101_ObjectCategories/<class>/image_NNNN.jpg`` (BACKGROUND_Google left
    out) and ``Annotations/<class>/annotation_NNNN.mat`` (the ``obj_contour``);
    ``target_type`` "category" (image, category), "annotation" (image, annotation) or
    "all" (image, category, annotation)."""

    def __init__(self, dataset_dir, target_type=None, num_samples=None,
                 num_parallel_workers=1, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None):
        op = "Caltech101Dataset"
        folder = check_dir(Path(dataset_dir) / "101_ObjectCategories", op)
        target_type = check_usage(target_type, ("category", "annotation", "all"), op,
                                  default="category")
        classes = sorted(p.name for p in folder.iterdir()
                         if p.is_dir() and p.name != "BACKGROUND_Google")
        records = [(p, i, c) for i, c in enumerate(classes) for p in _images_in(folder / c)]
        notes = Path(dataset_dir) / "Annotations"

        def annotation(path, cls):
            from scipy.io import loadmat
            number = path.stem.split("_")[-1]
            mat = loadmat(str(notes / _CALTECH_ANNOTATION.get(cls, cls) /
                              f"annotation_{number}.mat"))
            return mat["obj_contour"].astype(np.float64)

        def load(r):
            image = image_column(r[0], decode)
            if target_type == "category":
                return image, np.uint32(r[1])
            if target_type == "annotation":
                return image, annotation(r[0], r[2])
            return image, np.uint32(r[1]), annotation(r[0], r[2])
        names = {"category": ["image", "category"], "annotation": ["image", "annotation"],
                 "all": ["image", "category", "annotation"]}[target_type]
        self._setup(names, records, load, num_samples, shuffle, sampler, num_shards, shard_id,
                    {c: i for i, c in enumerate(classes)}, label_column="category")


class CelebADataset(FileDataset):
    """CelebA: ``list_attr_celeba.txt`` (count, attribute names, then "file v1 ... v40" with
    values 1/-1), ``list_eval_partition.txt`` (file and 0 train / 1 valid / 2 test) and the
    images in ``img_align_celeba/`` (or the folder itself); image, attr (40 uint32 0/1)."""

    def __init__(self, dataset_dir, num_parallel_workers=None, shuffle=None, usage="all",
                 sampler=None, decode=False, extensions=None, num_samples=None,
                 num_shards=None, shard_id=None, cache=None):
        op = "CelebADataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "valid", "test", "all"), op)
        lines = text_lines(check_file(folder / "list_attr_celeba.txt", op))
        attrs = {parts[0]: [1 if int(v) > 0 else 0 for v in parts[1:]]
                 for parts in (line.split() for line in lines[2:]) if parts}
        partition = folder / "list_eval_partition.txt"
        if usage != "all":
            keep = {"train": "0", "valid": "1", "test": "2"}[usage]
            wanted = {p[0] for p in (line.split() for line in
                                     text_lines(check_file(partition, op))) if p and p[1] == keep}
            attrs = {k: v for k, v in attrs.items() if k in wanted}
        images = folder / "img_align_celeba" if (folder / "img_align_celeba").is_dir() else folder
        exts = tuple(e.lower() for e in extensions) if extensions else None
        records = [(images / name, values) for name, values in attrs.items()
                   if exts is None or Path(name).suffix.lower() in exts]
        self._setup(["image", "attr"], records,
                    lambda r: (image_column(r[0], decode), np.asarray(r[1], np.uint32)),
                    num_samples, shuffle, sampler, num_shards, shard_id)


class CityscapesDataset(FileDataset):
    """Cityscapes: ``leftImg8bit/<usage>/<city>/<id>_leftImg8bit.png`` with
    ``gtFine`` (``quality_mode`` fine) or ``gtCoarse`` targets
    ``<id>_gt{Fine,Coarse}_{instanceIds,labelIds,color,polygons.json}``; columns image and
    task (an image, or the polygon JSON text for task "polygon")."""

    def __init__(self, dataset_dir, usage="train", quality_mode="fine", task="instance",
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "CityscapesDataset"
        folder = check_dir(dataset_dir, op)
        quality = check_usage(quality_mode, ("fine", "coarse"), op)
        task = check_usage(task, ("instance", "semantic", "polygon", "color"), op)
        usage = check_usage(usage, ("train", "test", "val", "all", "train_extra"), op)
        gt = "gtFine" if quality == "fine" else "gtCoarse"
        suffix = {"instance": "instanceIds.png", "semantic": "labelIds.png",
                  "color": "color.png", "polygon": "polygons.json"}[task]
        parts = ("train", "test", "val") if usage == "all" else (usage,)
        records = []
        for part in parts:
            for image in sorted((folder / "leftImg8bit" / part).glob("*/*_leftImg8bit.png")):
                stem = image.name[:-len("_leftImg8bit.png")]
                target = folder / gt / part / image.parent.name / f"{stem}_{gt}_{suffix}"
                if target.exists():
                    records.append((image, target))

        def load(r):
            if task == "polygon":
                return image_column(r[0], decode), np.asarray(r[1].read_text(encoding="utf-8"))
            return image_column(r[0], decode), image_column(r[1], decode)
        self._setup(["image", "task"], records, load, num_samples, shuffle, sampler,
                    num_shards, shard_id)


class CocoDataset(FileDataset):
    """COCO: images in ``dataset_dir``, annotations in ``annotation_file`` (COCO JSON).
    ``task`` Detection: image, bbox (N, 4 float32), category_id (N, 1 uint32), iscrowd
    (N, 1 uint32); Stuff: image, segmentation (N, L float32, -1 padded), iscrowd;
    Keypoint: image, keypoints (N, 51 float32), num_keypoints (N, 1 uint32); Panoptic:
    image, bbox, category_id, iscrowd, area (N, 1 uint32); Captioning: image, captions
    (1-D strings). ``extra_metadata`` adds ``_meta-filename``."""

    def __init__(self, dataset_dir, annotation_file, task="Detection", num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None, extra_metadata=False,
                 decrypt=None):
        op = "CocoDataset"
        folder = check_dir(dataset_dir, op)
        task = check_usage(task, ("Detection", "Stuff", "Keypoint", "Panoptic", "Captioning"),
                           op)
        data = json.loads(check_file(annotation_file, op).read_text(encoding="utf-8"))
        by_image = {}
        for ann in data.get("annotations", []):
            by_image.setdefault(ann["image_id"], []).append(ann)
        records = [(folder / img["file_name"], by_image.get(img["id"], []))
                   for img in data["images"]]
        names = {"Detection": ["image", "bbox", "category_id", "iscrowd"],
                 "Stuff": ["image", "segmentation", "iscrowd"],
                 "Keypoint": ["image", "keypoints", "num_keypoints"],
                 "Panoptic": ["image", "bbox", "category_id", "iscrowd", "area"],
                 "Captioning": ["image", "captions"]}[task]
        if extra_metadata:
            names = names + ["_meta-filename"]

        def col(anns, key, width, dtype):
            return np.asarray([np.asarray(a[key], np.float64).reshape(-1)[:width]
                               for a in anns], dtype).reshape(-1, width)

        def load(r):
            path, anns = r
            if task == "Panoptic":
                anns = [s for a in anns for s in a.get("segments_info", [])]
            image = image_column(path, decode)
            if task in ("Detection", "Panoptic"):
                row = [image, col(anns, "bbox", 4, np.float32),
                       col(anns, "category_id", 1, np.uint32),
                       col(anns, "iscrowd", 1, np.uint32)]
                if task == "Panoptic":
                    row.append(col(anns, "area", 1, np.uint32))
            elif task == "Stuff":
                segs = [np.asarray(a["segmentation"][0] if isinstance(a["segmentation"], list)
                                   else [], np.float32) for a in anns]
                width = max((len(s) for s in segs), default=0)
                seg = np.full((len(segs), width), -1, np.float32)
                for i, s in enumerate(segs):
                    seg[i, :len(s)] = s
                row = [image, seg, col(anns, "iscrowd", 1, np.uint32)]
            elif task == "Keypoint":
                row = [image, col(anns, "keypoints", 51, np.float32),
                       col(anns, "num_keypoints", 1, np.uint32)]
            else:
                row = [image, np.asarray([a["caption"] for a in anns], dtype=np.str_)]
            if extra_metadata:
                row.append(np.asarray(Path(path).stem))
            return tuple(row)
        self._setup(names, records, load, num_samples, shuffle, sampler, num_shards, shard_id)


class DIV2KDataset(FileDataset):
    """DIV2K super-resolution pairs: ``DIV2K_<usage>_HR/NNNN.png`` and
    ``DIV2K_<usage>_LR_<downgrade>/X<scale>/NNNNx<scale>.png``; columns hr_image,
    lr_image."""

    def __init__(self, dataset_dir, usage="train", downgrade="bicubic", scale=2,
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "DIV2KDataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "valid", "all"), op)
        downgrade = check_usage(downgrade, ("bicubic", "unknown", "mild", "difficult", "wild"),
                                op)
        records = []
        for part in ("train", "valid") if usage == "all" else (usage,):
            hr = folder / f"DIV2K_{part}_HR"
            lr_dir = folder / f"DIV2K_{part}_LR_{downgrade}"
            if scale == 8:
                lr_dir = folder / f"DIV2K_{part}_LR_x8"
            elif downgrade in ("bicubic", "unknown"):
                lr_dir = lr_dir / f"X{scale}"
            for image in _images_in(hr) if hr.is_dir() else []:
                suffix = f"x{scale}" if downgrade in ("bicubic", "unknown") else \
                    f"x{scale}{downgrade[0]}" if downgrade != "wild" else "x4w"
                lr = lr_dir / f"{image.stem}{suffix}{image.suffix}"
                if lr.exists():
                    records.append((image, lr))
        self._setup(["hr_image", "lr_image"], records,
                    lambda r: (image_column(r[0], decode), image_column(r[1], decode)),
                    num_samples, shuffle, sampler, num_shards, shard_id)


class FakeImageDataset(FileDataset):
    """``num_images`` random uint8 images of ``image_size`` (H, W, C) with labels in
    [0, ``num_classes``), reproducible from ``base_seed`` + the index."""

    def __init__(self, num_images=1000, image_size=(224, 224, 3), num_classes=10, base_seed=0,
                 num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None):
        size, classes, seed = tuple(image_size), int(num_classes), int(base_seed)

        def load(i):
            rng = np.random.default_rng(seed + i)
            return (rng.integers(0, 256, size, dtype=np.uint8),
                    np.uint32(rng.integers(0, classes)))
        self._setup(["image", "label"], list(range(int(num_images))), load, num_samples,
                    shuffle, sampler, num_shards, shard_id)


class FlickrDataset(FileDataset):
    """Flickr8k/30k: images in ``dataset_dir``; ``annotation_file`` lines
    "<image>#<n>\\t<caption>"; columns image and annotation (1-D strings)."""

    def __init__(self, dataset_dir, annotation_file, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        op = "FlickrDataset"
        folder = check_dir(dataset_dir, op)
        captions = {}
        for line in text_lines(check_file(annotation_file, op)):
            if "\t" in line:
                key, caption = line.split("\t", 1)
                captions.setdefault(key.split("#")[0], []).append(caption.strip())
        records = [(folder / name, caps) for name, caps in captions.items()
                   if (folder / name).exists()]
        self._setup(["image", "annotation"], records,
                    lambda r: (image_column(r[0], bool(decode)),
                               np.asarray(r[1], dtype=np.str_)),
                    num_samples, shuffle, sampler, num_shards, shard_id)


class Flowers102Dataset(FileDataset):
    """Oxford Flowers-102: ``jpg/image_NNNNN.jpg``, ``imagelabels.mat`` (labels 1..102),
    ``setid.mat`` (trnid/valid/tstid) and, for task Segmentation, ``segmim/
    segmim_NNNNN.jpg``. Columns image, label (uint32, 0-based) or image, segment, label."""

    def __init__(self, dataset_dir, task="Classification", usage="all", num_samples=None,
                 num_parallel_workers=1, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None):
        from scipy.io import loadmat
        op = "Flowers102Dataset"
        folder = check_dir(dataset_dir, op)
        task = check_usage(task, ("Classification", "Segmentation"), op)
        usage = check_usage(usage, ("train", "valid", "test", "all"), op)
        labels = loadmat(str(check_file(folder / "imagelabels.mat", op)))["labels"].reshape(-1)
        setid = loadmat(str(check_file(folder / "setid.mat", op)))
        key = {"train": ["trnid"], "valid": ["valid"], "test": ["tstid"],
               "all": ["trnid", "valid", "tstid"]}[usage]
        ids = [int(i) for k in key for i in setid[k].reshape(-1)]
        records = [(folder / "jpg" / f"image_{i:05d}.jpg",
                    folder / "segmim" / f"segmim_{i:05d}.jpg", int(labels[i - 1]) - 1)
                   for i in ids]

        def load(r):
            if task == "Classification":
                return image_column(r[0], decode), np.uint32(r[2])
            return image_column(r[0], decode), image_column(r[1], decode), np.uint32(r[2])
        names = ["image", "label"] if task == "Classification" else ["image", "segment", "label"]
        self._setup(names, records, load, num_samples, shuffle, sampler, num_shards, shard_id)


class Food101Dataset(FileDataset):
    """Food-101: ``images/<class>/<id>.jpg`` listed by ``meta/train.txt``/``test.txt``
    ("class/id" lines); columns image and label (the class name, a string)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        op = "Food101Dataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "test", "all"), op)
        records = [(folder / "images" / f"{line.strip()}.jpg", line.strip().split("/")[0])
                   for part in (("train", "test") if usage == "all" else (usage,))
                   for line in text_lines(check_file(folder / "meta" / f"{part}.txt", op))
                   if line.strip()]
        self._setup(["image", "label"], records,
                    lambda r: (image_column(r[0], decode), np.asarray(r[1])), num_samples,
                    shuffle, sampler, num_shards, shard_id)


_KITTI_TYPES = {"Car": 0, "Van": 1, "Truck": 2, "Pedestrian": 3, "Person_sitting": 4,
                "Cyclist": 5, "Tram": 6, "Misc": 7, "DontCare": 8}


class KITTIDataset(FileDataset):
    """KITTI object detection: ``data_object_image_2/{training,testing}/image_2/NNNNNN.png``
    and ``data_object_label_2/training/label_2/NNNNNN.txt``. Train columns: image, label,
    truncated, occluded, alpha, bbox, dimensions, location, rotation_y (per object rows;
    label uint32 from the object type); test: image only."""

    def __init__(self, dataset_dir, usage="train", num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        op = "KITTIDataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "test"), op)
        part = "training" if usage == "train" else "testing"
        images = _images_in(check_dir(folder / "data_object_image_2" / part / "image_2", op))
        if usage == "test":
            self._setup(["image"], images, lambda p: (image_column(p, decode),), num_samples,
                        shuffle, sampler, num_shards, shard_id)
            return
        labels = folder / "data_object_label_2" / "training" / "label_2"
        records = [(p, labels / f"{p.stem}.txt") for p in images]

        def load(r):
            objs = [line.split() for line in text_lines(r[1]) if line.strip()]
            num = np.asarray([[float(v) for v in o[1:15]] for o in objs], np.float32)
            num = num.reshape(-1, 14)
            kinds = np.asarray([[_KITTI_TYPES.get(o[0], 8)] for o in objs], np.uint32)
            return (image_column(r[0], decode), kinds.reshape(-1, 1),
                    num[:, 0:1], num[:, 1:2].astype(np.uint32), num[:, 2:3], num[:, 3:7],
                    num[:, 7:10], num[:, 10:13], num[:, 13:14])
        self._setup(["image", "label", "truncated", "occluded", "alpha", "bbox", "dimensions",
                     "location", "rotation_y"], records, load, num_samples, shuffle, sampler,
                    num_shards, shard_id)


class LFWDataset(FileDataset):
    """Labeled Faces in the Wild: images ``lfw[-<image_set>]/<name>/<name>_NNNN.jpg``
    (image_set original, funneled or deepfunneled), ``lfw-names.txt`` (names and counts);
    task people: image, label (uint32, the name's line); task pairs (``pairs.txt``):
    image1, image2, label (1 same, 0 different). Images decoded."""

    def __init__(self, dataset_dir, task=None, usage=None, image_set=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None):
        op = "LFWDataset"
        folder = check_dir(dataset_dir, op)
        task = check_usage(task, ("people", "pairs"), op, default="people")
        image_set = check_usage(image_set, ("original", "funneled", "deepfunneled"), op,
                                default="funneled")
        images = folder / ("lfw" if image_set == "original" else f"lfw-{image_set}")
        if not images.is_dir():
            images = folder
        names = [line.split()[0] for line in text_lines(check_file(folder / "lfw-names.txt", op))
                 if line.strip()]
        index = {n: i for i, n in enumerate(names)}

        def path(name, number):
            return images / name / f"{name}_{int(number):04d}.jpg"
        if task == "people":
            records = [(p, index[p.parent.name]) for n in names
                       for p in sorted((images / n).glob("*.jpg"))]
            self._setup(["image", "label"], records,
                        lambda r: (image_column(r[0], True), np.uint32(r[1])), num_samples,
                        shuffle, sampler, num_shards, shard_id, index)
            return
        records = []
        for line in text_lines(check_file(folder / "pairs.txt", op))[1:]:
            p = line.split()
            if len(p) == 3:
                records.append((path(p[0], p[1]), path(p[0], p[2]), 1))
            elif len(p) == 4:
                records.append((path(p[0], p[1]), path(p[2], p[3]), 0))
        self._setup(["image1", "image2", "label"], records,
                    lambda r: (image_column(r[0], True), image_column(r[1], True),
                               np.uint32(r[2])), num_samples, shuffle, sampler, num_shards,
                    shard_id)


class ManifestDataset(FileDataset):
    """A manifest file: JSON lines ``{"source": path, "usage": "train", "annotation":
    [{"type": "modelarts/image_classification", "name": cls}, ...]}``; columns image and
    label (uint32 ids of ``class_indexing``, default: the sorted class names)."""

    def __init__(self, dataset_file, usage="train", num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, class_indexing=None,
                 decode=False, num_shards=None, shard_id=None, cache=None):
        op = "ManifestDataset"
        usage = check_usage(usage, ("train", "eval", "inference"), op)
        entries = [json.loads(line) for line in text_lines(check_file(dataset_file, op))
                   if line.strip()]
        entries = [e for e in entries if e.get("usage", "train").lower() == usage]
        names = sorted({a["name"] for e in entries for a in e.get("annotation", [])})
        indexing = dict(class_indexing) if class_indexing else {n: i for i, n in enumerate(names)}
        base = Path(dataset_file).parent
        records = [(base / e["source"] if not Path(e["source"]).is_absolute() else
                    Path(e["source"]), [indexing[a["name"]] for a in e.get("annotation", [])
                                        if a["name"] in indexing]) for e in entries]
        self._setup(["image", "label"], records,
                    lambda r: (image_column(r[0], decode), np.asarray(r[1], np.uint32)),
                    num_samples, shuffle, sampler, num_shards, shard_id, indexing)


class PhotoTourDataset(FileDataset):
    """Photo Tourism patches: ``<name>/`` holds 1024x1024 ``patchesNNNN.bmp`` sheets of
    64x64 patches (row-major, 256 per sheet), ``info.txt`` (3D point id per patch) and
    ``m50_100000_100000_0.txt`` match pairs. usage train: image (64, 64, 1) uint8; test:
    image1, image2, matches (uint32)."""

    def __init__(self, dataset_dir, name, usage=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        from PIL import Image
        op = "PhotoTourDataset"
        folder = check_dir(Path(dataset_dir) / name, op)
        usage = check_usage(usage, ("train", "test"), op, default="train")
        points = [int(line.split()[0]) for line in text_lines(check_file(folder / "info.txt",
                                                                          op)) if line.strip()]
        sheets = sorted(folder.glob("patches*.bmp"))
        cache_sheets = {}

        def patch(i):
            sheet = i // 256
            if sheet not in cache_sheets:
                cache_sheets[sheet] = np.asarray(Image.open(sheets[sheet]).convert("L"))
            r, c = divmod(i % 256, 16)
            return cache_sheets[sheet][r * 64:(r + 1) * 64, c * 64:(c + 1) * 64][..., None]
        if usage == "train":
            self._setup(["image"], list(range(len(points))), lambda i: (patch(i),),
                        num_samples, shuffle, sampler, num_shards, shard_id)
            return
        matches = [line.split() for line in
                   text_lines(check_file(folder / "m50_100000_100000_0.txt", op)) if line.strip()]
        records = [(int(m[0]), int(m[3]), int(m[1] == m[4])) for m in matches]
        self._setup(["image1", "image2", "matches"], records,
                    lambda r: (patch(r[0]), patch(r[1]), np.uint32(r[2])), num_samples,
                    shuffle, sampler, num_shards, shard_id)


class Places365Dataset(FileDataset):
    """Places365: ``categories_places365.txt`` ("/a/airfield 0"), file lists
    ``places365_{train_standard,train_challenge,val}.txt`` and images under
    ``data_{256,large}`` (train) or ``val_{256,large}`` (val); ``small`` picks 256."""

    def __init__(self, dataset_dir, usage=None, small=True, decode=False, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        op = "Places365Dataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train-standard", "train-challenge", "val"), op,
                            default="train-standard")
        categories = {p[0]: int(p[1]) for p in (line.split() for line in text_lines(
            check_file(folder / "categories_places365.txt", op))) if len(p) == 2}
        listing = folder / f"places365_{usage.replace('-', '_')}.txt"
        images = folder / (("val_" if usage == "val" else "data_") + ("256" if small else "large"))
        records = []
        for line in text_lines(check_file(listing, op)):
            p = line.split()
            if p:
                records.append((images / p[0].lstrip("/"), int(p[1]) if len(p) > 1 else -1))
        self._setup(["image", "label"], records,
                    lambda r: (image_column(r[0], decode), np.uint32(r[1])), num_samples,
                    shuffle, sampler, num_shards, shard_id, categories)


class SBDataset(FileDataset):
    """Semantic Boundaries Dataset: ``img/<id>.jpg``, ``cls/<id>.mat`` (GTcls) and the id
    lists ``train.txt``/``val.txt``/``train_noval.txt``; task Segmentation: image, task
    (H, W uint8 class map); Boundaries: image, task (classes x H x W uint8 boundaries).
    Images decoded."""

    def __init__(self, dataset_dir, task="Boundaries", usage="all", num_samples=None,
                 num_parallel_workers=1, shuffle=None, decode=None, sampler=None,
                 num_shards=None, shard_id=None):
        op = "SBDataset"
        folder = check_dir(dataset_dir, op)
        task = check_usage(task, ("Boundaries", "Segmentation"), op)
        usage = check_usage(usage, ("train", "val", "train_noval", "all"), op)
        parts = ("train", "val") if usage == "all" else (usage,)
        ids = [line.strip() for part in parts
               for line in text_lines(check_file(folder / f"{part}.txt", op)) if line.strip()]

        def load(i):
            from scipy.io import loadmat
            gt = loadmat(str(folder / "cls" / f"{i}.mat"))["GTcls"][0, 0]
            image = image_column(folder / "img" / f"{i}.jpg", True)
            if task == "Segmentation":
                return image, np.asarray(gt["Segmentation"], np.uint8)
            bounds = [np.asarray(b[0].toarray() if hasattr(b[0], "toarray") else b[0], np.uint8)
                      for b in gt["Boundaries"]]
            return image, np.stack(bounds)
        self._setup(["image", "task"], ids, load, num_samples, shuffle, sampler, num_shards,
                    shard_id)


class SBUDataset(FileDataset):
    """SBU captioned photos: ``SBU_captioned_photo_dataset_urls.txt`` and
    ``..._captions.txt`` (line-aligned), images ``sbu_images/<last URL part>``; rows whose
    image is there; columns image and caption."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "SBUDataset"
        folder = check_dir(dataset_dir, op)
        urls = text_lines(check_file(folder / "SBU_captioned_photo_dataset_urls.txt", op))
        caps = text_lines(check_file(folder / "SBU_captioned_photo_dataset_captions.txt", op))
        records = [(folder / "sbu_images" / u.strip().split("/")[-1], c.strip())
                   for u, c in zip(urls, caps)
                   if u.strip() and (folder / "sbu_images" / u.strip().split("/")[-1]).exists()]
        self._setup(["image", "caption"], records,
                    lambda r: (image_column(r[0], decode), np.asarray(r[1])), num_samples,
                    shuffle, sampler, num_shards, shard_id)


class SUN397Dataset(FileDataset):
    """SUN397: ``ClassName.txt`` ("/a/abbey" lines) and images under
    ``<class path>/*.jpg``; label uint32 = the class's line."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "SUN397Dataset"
        folder = check_dir(dataset_dir, op)
        classes = [line.strip() for line in text_lines(check_file(folder / "ClassName.txt", op))
                   if line.strip()]
        records = [(p, i) for i, c in enumerate(classes)
                   if (folder / c.lstrip("/")).is_dir()
                   for p in _images_in(folder / c.lstrip("/"))]
        self._setup(["image", "label"], records,
                    lambda r: (image_column(r[0], decode), np.uint32(r[1])), num_samples,
                    shuffle, sampler, num_shards, shard_id, {c: i for i, c in enumerate(classes)})


class VOCDataset(FileDataset):
    """PASCAL VOC: ``JPEGImages/<id>.jpg``; task Segmentation: ``ImageSets/Segmentation/
    <usage>.txt`` and ``SegmentationClass/<id>.png`` (image, target); task Detection:
    ``ImageSets/Main/<usage>.txt`` and ``Annotations/<id>.xml`` (image, bbox (N, 4 float32
    xmin ymin w h), label, difficult, truncated (N, 1 uint32)); labels from
    ``class_indexing`` (default: sorted names)."""

    def __init__(self, dataset_dir, task="Segmentation", usage="train", class_indexing=None,
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None,
                 extra_metadata=False, decrypt=None):
        op = "VOCDataset"
        folder = check_dir(dataset_dir, op)
        task = check_usage(task, ("Segmentation", "Detection"), op)
        sets = folder / "ImageSets" / ("Segmentation" if task == "Segmentation" else "Main")
        ids = [line.split()[0] for line in text_lines(check_file(sets / f"{usage}.txt", op))
               if line.strip()]
        extra = ["_meta-filename"] if extra_metadata else []
        if task == "Segmentation":
            self._setup(["image", "target"] + extra, ids,
                        lambda i: (image_column(folder / "JPEGImages" / f"{i}.jpg", decode),
                                   image_column(folder / "SegmentationClass" / f"{i}.png",
                                                decode)) + ((np.asarray(i),) if extra else ()),
                        num_samples, shuffle, sampler, num_shards, shard_id)
            return
        objects = {}
        for i in ids:
            root = ET.parse(check_file(folder / "Annotations" / f"{i}.xml", op)).getroot()
            objects[i] = [(o.findtext("name"), int(o.findtext("difficult") or 0),
                           int(o.findtext("truncated") or 0),
                           [float(o.find("bndbox").findtext(k))
                            for k in ("xmin", "ymin", "xmax", "ymax")])
                          for o in root.iter("object")]
        if class_indexing is None:
            class_indexing = {n: k for k, n in enumerate(sorted({o[0] for v in objects.values()
                                                                 for o in v}))}

        def load(i):
            objs = [o for o in objects[i] if o[0] in class_indexing]
            bbox = np.asarray([[x0, y0, x1 - x0, y1 - y0] for _, _, _, (x0, y0, x1, y1) in objs],
                              np.float32).reshape(-1, 4)
            row = (image_column(folder / "JPEGImages" / f"{i}.jpg", decode), bbox,
                   np.asarray([[class_indexing[o[0]]] for o in objs], np.uint32).reshape(-1, 1),
                   np.asarray([[o[1]] for o in objs], np.uint32).reshape(-1, 1),
                   np.asarray([[o[2]] for o in objs], np.uint32).reshape(-1, 1))
            return row + ((np.asarray(i),) if extra else ())
        self._setup(["image", "bbox", "label", "difficult", "truncated"] + extra, ids, load,
                    num_samples, shuffle, sampler, num_shards, shard_id, class_indexing)


class WIDERFaceDataset(FileDataset):
    """WIDER FACE: ``WIDER_<usage>/images/<event>/*.jpg`` and
    ``wider_face_split/wider_face_<usage>_bbx_gt.txt`` (name, count, then "x y w h blur
    expression illumination invalid occlusion pose" lines); usage test lists images only.
    Columns image, bbox, blur, expression, illumination, occlusion, pose, invalid."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        op = "WIDERFaceDataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "test", "valid", "all"), op)
        split = folder / "wider_face_split"
        if usage == "test":
            names = [line.strip() for line in
                     text_lines(check_file(split / "wider_face_test_filelist.txt", op))
                     if line.strip()]
            records = [folder / "WIDER_test" / "images" / n for n in names]
            self._setup(["image"], records, lambda p: (image_column(p, decode),), num_samples,
                        shuffle, sampler, num_shards, shard_id)
            return
        records = []
        for part in ("train", "valid") if usage == "all" else (usage,):
            tag = "val" if part == "valid" else part
            lines = [line.strip() for line in
                     text_lines(check_file(split / f"wider_face_{tag}_bbx_gt.txt", op))]
            k = 0
            while k < len(lines):
                if not lines[k]:
                    k += 1
                    continue
                name, count = lines[k], int(lines[k + 1])
                boxes = [[int(v) for v in lines[k + 2 + j].split()[:10]]
                         for j in range(max(count, 1))]
                k += 2 + max(count, 1)
                records.append((folder / f"WIDER_{tag}" / "images" / name,
                                boxes if count else []))

        def load(r):
            b = np.asarray(r[1], np.uint32).reshape(-1, 10)
            return (image_column(r[0], decode), b[:, 0:4], b[:, 4:5], b[:, 5:6], b[:, 6:7],
                    b[:, 8:9], b[:, 9:10], b[:, 7:8])
        self._setup(["image", "bbox", "blur", "expression", "illumination", "occlusion",
                     "pose", "invalid"], records, load, num_samples, shuffle, sampler,
                    num_shards, shard_id)
