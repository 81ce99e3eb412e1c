"""MindSpore 2.10's vision enums (``mindspore.dataset.vision.Inter``, ``Border``, ...)."""
from __future__ import annotations

from enum import Enum, IntEnum

__all__ = ["Inter", "Border", "ImageBatchFormat", "ConvertMode", "SliceMode",
           "AutoAugmentPolicy", "ImageReadMode", "pil_filter"]


class Inter(str, Enum):
    """Interpolation modes (``LINEAR`` and ``BILINEAR``, ``CUBIC`` and ``BICUBIC`` alias)."""
    NEAREST = "nearest"
    ANTIALIAS = "antialias"
    BILINEAR = LINEAR = "bilinear"
    BICUBIC = CUBIC = "bicubic"
    AREA = "area"
    PILCUBIC = "pilcubic"


class Border(str, Enum):
    """Padding modes."""
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class ImageBatchFormat(IntEnum):
    NHWC = 0
    NCHW = 1


class SliceMode(IntEnum):
    PAD = 0
    DROP = 1


class ImageReadMode(IntEnum):
    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


class AutoAugmentPolicy(str, Enum):
    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


class ConvertMode(IntEnum):
    """OpenCV's colour conversions that ``ConvertColor`` takes."""
    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = 0
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = 1
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = 2
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = 3
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = 4
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = 5
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = 8
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = 9
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


def pil_filter(inter) -> int:
    """Pillow's resampling filter for an ``Inter`` (AREA: Pillow's BOX, its area average)."""
    from PIL import Image
    table = {Inter.NEAREST: Image.NEAREST, Inter.ANTIALIAS: Image.LANCZOS,
             Inter.BILINEAR: Image.BILINEAR, Inter.BICUBIC: Image.BICUBIC,
             Inter.AREA: Image.BOX, Inter.PILCUBIC: Image.BICUBIC}
    try:
        return table[Inter(inter)]
    except ValueError:
        from sporeling.data import DataError
        raise DataError("bad interpolation", op="vision", expected="a vision.Inter",
                        got=repr(inter)) from None
