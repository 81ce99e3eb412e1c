"""``ImageFolderDataset``: one subfolder per class, images decoded with Pillow on request."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..errors import DataError
from .base import SourceDataset
from .files import check_dir

__all__ = ["ImageFolderDataset"]

def _inside(path: str, root: str) -> bool:
    real = os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _files_under(top: str, exts: tuple, root: str | None = None,
                 outside: list | None = None) -> list[str]:
    """The files under ``top`` whose suffix (lower-cased) is in ``exts``, in the order of
    ``sorted(Path(top).rglob("*"))`` and, like it, not descending into symlinked folders.
    With ``root``, a file that is a link resolving outside it goes to ``outside`` instead.
    ``os.scandir`` tells files from folders without a ``stat`` per file, so listing costs a
    third of ``rglob`` + ``is_file`` (it counts: a pipeline built per epoch lists again)."""
    found, todo = [], [((), top)]
    while todo:
        parts, folder = todo.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:  # an unreadable folder is skipped, as rglob does
            continue
        for e in entries:
            key = parts + (e.name,)
            try:
                if e.is_dir() and not e.is_symlink():
                    todo.append((key, e.path))
                elif e.is_file() and os.path.splitext(e.name)[1].lower() in exts:
                    if root is not None and e.is_symlink() and not _inside(e.path, root):
                        outside.append(e.path)
                        continue
                    found.append((key, e.path))
            except OSError:
                continue
    found.sort()  # by path components, as Path objects compare
    return [path for _, path in found]


EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff", ".webp", ".ppm")


class ImageFolderDataset(SourceDataset):
    """Images under ``dataset_dir/<class>/``; classes are the sorted subfolder names (or
    ``class_indexing``). Columns ``image`` and ``label`` (int32). ``image`` holds the
    file's bytes (uint8, 1-D) for a ``Decode`` in ``map`` -- cheap to read and to ship to
    workers -- or, with ``decode=True``, the decoded RGB pixels (H, W, 3) uint8, where a
    corrupt file raises an error naming it (``on_error="skip"`` drops and counts it).

    A class folder or an image that is a symbolic link resolving outside ``dataset_dir``
    is refused with an error naming the links (a stray link can pull in thousands of files
    that are not the dataset); ``follow_links_outside_root=True`` reads them, as
    torchvision's ``ImageFolder`` does. Links that stay inside the folder are always read;
    folders nested in a class folder are not entered through links."""

    def __init__(self, dataset_dir, num_samples=None, shuffle=None, extensions=None,
                 class_indexing=None, decode=False, sampler=None, num_shards=None,
                 shard_id=None, on_error="raise", follow_links_outside_root=False):
        folder = check_dir(dataset_dir, "ImageFolderDataset")
        exts = tuple(e.lower() for e in (extensions or EXTENSIONS))
        classes = sorted(p.name for p in folder.iterdir() if p.is_dir())
        if class_indexing is None:
            class_indexing = {c: i for i, c in enumerate(classes)}
        unknown = [c for c in class_indexing if c not in classes]
        if unknown:
            raise DataError("class_indexing names missing folders", op="ImageFolderDataset",
                            expected=f"names among {classes}", got=unknown)
        root = None if follow_links_outside_root else os.path.realpath(folder)
        files, labels, outside = [], [], []
        for name in sorted(class_indexing):
            top = str(folder / name)
            if root is not None and os.path.islink(top) and not _inside(top, root):
                outside.append(top)
                continue
            found = _files_under(top, exts, root, outside)
            files += found
            labels += [class_indexing[name]] * len(found)
        if outside:
            shown = "; ".join(f"{p} -> {os.path.realpath(p)}" for p in outside[:3])
            more = f" and {len(outside) - 3} more" if len(outside) > 3 else ""
            raise DataError(f"{len(outside)} link(s) lead outside the dataset folder",
                            op="ImageFolderDataset",
                            expected=f"class folders and images inside {root}",
                            got=shown + more, hint="pass follow_links_outside_root=True to "
                            "read them, or copy the data into the folder")
        if not files:
            raise DataError("no images found", op="ImageFolderDataset",
                            expected=f"files ending in {exts} under class folders of {folder}",
                            got="none")
        super().__init__(["image", "label"], num_samples=num_samples, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id,
                         on_error=on_error)
        self._paths, self.class_indexing = files, dict(class_indexing)
        self._labels = np.asarray(labels, np.int32)
        self.decode = bool(decode)

    @property
    def files(self) -> list[Path]:
        """The images' paths, in index order."""
        return [Path(p) for p in self._paths]

    def _len(self):
        return len(self._paths)

    def describe(self, index: int) -> str:
        return self._paths[index]

    def _read(self, index):
        path = self._paths[index]
        try:
            with open(path, "rb", buffering=0) as f:  # one read, no buffer object
                data = f.read()
        except OSError as exc:
            raise DataError(f"cannot read {path}: {exc}", op="ImageFolderDataset",
                            where=str(path)) from exc
        image = np.frombuffer(data, np.uint8)
        if self.decode:
            from ..transforms.vision import decode_image
            image = decode_image(image, where=path)
        return image, self._labels[index]
