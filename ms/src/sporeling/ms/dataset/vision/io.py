"""Decoding, encoding, file I/O, type and layout conversions (MindSpore 2.10's names)."""
from __future__ import annotations

import io as _io
from pathlib import Path

import numpy as np

from sporeling.data import DataError
from sporeling.data.transforms.vision import decode_image

from ...common.dtype import to_numpy
from ._enums import ImageReadMode
from ._util import Transform, as_array, is_pil, to_pil

__all__ = ["Decode", "ToPIL", "ToNumpy", "ToTensor", "ToType", "HWC2CHW", "Normalize",
           "NormalizePad", "Rescale", "encode_jpeg", "encode_png", "read_file", "read_image",
           "write_file", "write_jpeg", "write_png", "get_image_num_channels",
           "get_image_size", "not_random"]


class Decode(Transform):
    """Encoded image bytes (JPEG, PNG, BMP, ...) to RGB HWC uint8, or a PIL image with
    ``to_pil``."""

    def __init__(self, to_pil=False):
        self.to_pil = bool(to_pil)

    def __call__(self, img):
        if isinstance(img, (bytes, bytearray)):
            img = np.frombuffer(img, np.uint8)
        a = np.asarray(img)
        if a.dtype != np.uint8 or a.ndim != 1:
            raise DataError("Decode takes encoded bytes", op="Decode",
                            expected="a 1-D uint8 array", got=f"{a.shape} {a.dtype}")
        out = decode_image(a)
        return to_pil(out) if self.to_pil else out


class ToPIL(Transform):
    """A HWC NumPy image to a PIL image."""

    def __call__(self, img):
        return img if is_pil(img) else to_pil(as_array(img, "ToPIL"))


class ToNumpy(Transform):
    """A PIL image to a HWC NumPy array (arrays pass through)."""

    def __call__(self, img):
        return np.asarray(img)


class ToTensor(Transform):
    """HWC (PIL or uint8 array) to CHW ``output_type`` scaled by 1/255."""

    def __init__(self, output_type=np.float32):
        self.dtype = np.dtype(to_numpy(output_type))

    def __call__(self, img):
        a = as_array(img, "ToTensor")
        if a.ndim == 2:
            a = a[..., None]
        return (np.transpose(a, (2, 0, 1)).astype(np.float64) / 255.0).astype(self.dtype)


class ToType(Transform):
    """Cast to ``data_type`` (a NumPy or MindSpore dtype)."""

    def __init__(self, data_type):
        self.dtype = np.dtype(to_numpy(data_type))

    def __call__(self, img):
        return np.asarray(img).astype(self.dtype)


class HWC2CHW(Transform):
    def __call__(self, img):
        a = as_array(img, "HWC2CHW")
        if a.ndim == 2:
            a = a[..., None]
        return np.ascontiguousarray(a.transpose(2, 0, 1))


class Normalize(Transform):
    """``(img - mean) / std`` per channel as float32; mean/std in the pixels' own scale."""

    def __init__(self, mean, std, is_hwc=True):
        self.mean, self.std = np.asarray(mean, np.float32), np.asarray(std, np.float32)
        if self.mean.shape != self.std.shape or self.mean.ndim != 1 or (self.std <= 0).any():
            raise DataError("bad mean/std", op="Normalize",
                            expected="two equal-length lists, std > 0", got=(mean, std))
        self.is_hwc = bool(is_hwc)

    def __call__(self, img):
        a = as_array(img, "Normalize").astype(np.float32)
        shape = (-1,) if a.ndim == 2 else (1, 1, -1) if self.is_hwc else (-1, 1, 1)
        if a.ndim == 2:
            return (a - self.mean[0]) / self.std[0]
        return (a - self.mean.reshape(shape)) / self.std.reshape(shape)


class NormalizePad(Normalize):
    """``Normalize`` then one more channel of zeros (3 -> 4 channels), in ``dtype``."""

    def __init__(self, mean, std, dtype="float32", is_hwc=True):
        super().__init__(mean, std, is_hwc)
        self.dtype = np.dtype(dtype)

    def __call__(self, img):
        out = super().__call__(img)
        axis = -1 if self.is_hwc else 0
        zeros = np.zeros_like(np.take(out, [0], axis=axis))
        return np.concatenate([out, zeros], axis).astype(self.dtype)


class Rescale(Transform):
    """``img * rescale + shift`` as float32."""

    def __init__(self, rescale, shift):
        self.rescale, self.shift = float(rescale), float(shift)

    def __call__(self, img):
        return (np.asarray(img, np.float32) * np.float32(self.rescale)
                + np.float32(self.shift)).astype(np.float32)


def _encode(image, fmt, op, **options) -> np.ndarray:
    a = np.asarray(image)
    if a.dtype != np.uint8 or a.ndim not in (2, 3) or (a.ndim == 3 and a.shape[2] not in (1, 3)):
        raise DataError("bad image", op=op, expected="(H, W), (H, W, 1) or (H, W, 3) uint8",
                        got=f"{a.shape} {a.dtype}")
    buffer = _io.BytesIO()
    to_pil(a).save(buffer, fmt, **options)
    return np.frombuffer(buffer.getvalue(), np.uint8).copy()


def encode_jpeg(image, quality=75) -> np.ndarray:
    """JPEG bytes (a 1-D uint8 array) of an HWC uint8 image."""
    if not 1 <= quality <= 100:
        raise DataError("bad quality", op="encode_jpeg", expected="1..100", got=quality)
    return _encode(image, "JPEG", "encode_jpeg", quality=int(quality))


def encode_png(image, compression_level=6) -> np.ndarray:
    """PNG bytes (a 1-D uint8 array) of an HWC uint8 image."""
    if not 0 <= compression_level <= 9:
        raise DataError("bad compression_level", op="encode_png", expected="0..9",
                        got=compression_level)
    return _encode(image, "PNG", "encode_png", compress_level=int(compression_level))


def _path(filename, op, must_exist=True) -> Path:
    path = Path(filename)
    if must_exist and not path.is_file():
        raise DataError("no such file", op=op, expected="an existing file", got=str(path))
    return path


def read_file(filename) -> np.ndarray:
    """A file's bytes as a 1-D uint8 array."""
    return np.fromfile(_path(filename, "read_file"), np.uint8)


def write_file(filename, data) -> None:
    """Write a 1-D uint8 array's bytes to ``filename``."""
    a = np.asarray(data)
    if a.dtype != np.uint8 or a.ndim != 1:
        raise DataError("bad data", op="write_file", expected="a 1-D uint8 array",
                        got=f"{a.shape} {a.dtype}")
    _path(filename, "write_file", must_exist=False).write_bytes(a.tobytes())


def read_image(filename, mode=ImageReadMode.UNCHANGED) -> np.ndarray:
    """Decode an image file to HWC uint8: as stored (UNCHANGED), grey (1 channel) or RGB."""
    from PIL import Image
    mode = ImageReadMode(mode)
    with Image.open(_path(filename, "read_image")) as im:
        if mode is ImageReadMode.GRAYSCALE:
            im = im.convert("L")
        elif mode is ImageReadMode.COLOR:
            im = im.convert("RGB")
        elif im.mode not in ("L", "RGB", "RGBA", "LA"):
            im = im.convert("RGBA" if "A" in im.mode else "RGB")
        out = np.asarray(im)
    return out[..., None] if out.ndim == 2 else out


def write_jpeg(filename, image, quality=75) -> None:
    write_file(filename, encode_jpeg(image, quality))


def write_png(filename, image, compression_level=6) -> None:
    write_file(filename, encode_png(image, compression_level))


def get_image_num_channels(image) -> int:
    """Channels of an HWC array (1 for a 2-D one) or a PIL image."""
    if is_pil(image):
        return len(image.getbands())
    a = as_array(image, "get_image_num_channels")
    return 1 if a.ndim == 2 else int(a.shape[2])


def get_image_size(image) -> list:
    """[height, width] of an HWC array or a PIL image."""
    if is_pil(image):
        return [image.size[1], image.size[0]]
    a = as_array(image, "get_image_size")
    return [int(a.shape[0]), int(a.shape[1])]


def not_random(function):
    """Mark a user transform deterministic (MindSpore uses it to cache/skip reseeding)."""
    function.random = False
    return function
