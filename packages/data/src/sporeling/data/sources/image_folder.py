"""``ImageFolderDataset``: one subfolder per class, images decoded with Pillow on request."""
from __future__ import annotations


import numpy as np

from ..errors import DataError
from .base import SourceDataset
from .files import check_dir

__all__ = ["ImageFolderDataset"]

EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff", ".webp", ".ppm")


class ImageFolderDataset(SourceDataset):
    """Images under ``dataset_dir/<class>/``; classes are the sorted subfolder names (or
    ``class_indexing``). Columns ``image`` and ``label`` (int32). ``image`` holds the
    file's bytes (uint8, 1-D) for a ``Decode`` in ``map`` -- cheap to read and to ship to
    workers -- or, with ``decode=True``, the decoded RGB pixels (H, W, 3) uint8, where a
    corrupt file raises an error naming it (``on_error="skip"`` drops and counts it)."""

    def __init__(self, dataset_dir, num_samples=None, shuffle=None, extensions=None,
                 class_indexing=None, decode=False, sampler=None, num_shards=None,
                 shard_id=None, on_error="raise"):
        folder = check_dir(dataset_dir, "ImageFolderDataset")
        exts = tuple(e.lower() for e in (extensions or EXTENSIONS))
        classes = sorted(p.name for p in folder.iterdir() if p.is_dir())
        if class_indexing is None:
            class_indexing = {c: i for i, c in enumerate(classes)}
        unknown = [c for c in class_indexing if c not in classes]
        if unknown:
            raise DataError("class_indexing names missing folders", op="ImageFolderDataset",
                            expected=f"names among {classes}", got=unknown)
        files, labels = [], []
        for name in sorted(class_indexing):
            for path in sorted((folder / name).rglob("*")):
                if path.is_file() and path.suffix.lower() in exts:
                    files.append(path)
                    labels.append(class_indexing[name])
        if not files:
            raise DataError("no images found", op="ImageFolderDataset",
                            expected=f"files ending in {exts} under class folders of {folder}",
                            got="none")
        super().__init__(["image", "label"], num_samples=num_samples, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id,
                         on_error=on_error)
        self.files, self.class_indexing = files, dict(class_indexing)
        self._labels = np.asarray(labels, np.int32)
        self.decode = bool(decode)

    def _len(self):
        return len(self.files)

    def _read(self, index):
        path = self.files[index]
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise DataError(f"cannot read {path}: {exc}", op="ImageFolderDataset",
                            where=str(path)) from exc
        image = np.frombuffer(data, np.uint8)
        if self.decode:
            from ..transforms.vision import decode_image
            image = decode_image(image, where=str(path))
        return image, self._labels[index]
