"""Shared fixtures: small files in the formats the sources read."""
from __future__ import annotations

import gzip

import numpy as np
import pytest


def idx_bytes(array: np.ndarray) -> bytes:
    code = {np.uint8: 0x08, np.int32: 0x0C}[array.dtype.type]
    header = bytes([0, 0, code, array.ndim]) + b"".join(
        int(d).to_bytes(4, "big") for d in array.shape)
    return header + array.astype(array.dtype.newbyteorder(">")).tobytes()


@pytest.fixture
def mnist_dir(tmp_path):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 255, (12, 28, 28), dtype=np.uint8)
    labels = (np.arange(12) % 10).astype(np.uint8)
    (tmp_path / "train-images-idx3-ubyte").write_bytes(idx_bytes(images))
    with gzip.open(tmp_path / "train-labels-idx1-ubyte.gz", "wb") as f:
        f.write(idx_bytes(labels))
    (tmp_path / "t10k-images-idx3-ubyte").write_bytes(idx_bytes(images[:4]))
    (tmp_path / "t10k-labels-idx1-ubyte").write_bytes(idx_bytes(labels[:4]))
    return tmp_path, images, labels


@pytest.fixture
def image_dir(tmp_path):
    from PIL import Image
    rng = np.random.default_rng(1)
    for c in ("cat", "dog"):
        (tmp_path / c).mkdir()
        for i in range(5):
            img = rng.integers(0, 255, (12, 10, 3), dtype=np.uint8)
            Image.fromarray(img).save(tmp_path / c / f"{i}.png")
    return tmp_path
