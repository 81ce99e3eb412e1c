"""``ms.dataset.vision``: MindSpore 2.10's image transforms on HWC NumPy arrays (or PIL
images, returned as PIL), computed with Pillow and NumPy. Random ones draw from the
pipeline's per-sample generator (``sporeling.data.sample_rng``), so a pipeline built after
the same ``dataset.config.set_seed`` augments the same way. Not provided: the video
readers (``DecodeVideo``, ``VideoDecoder``, ``read_video``, ``read_video_timestamps``:
they need FFmpeg)."""
from ._enums import (AutoAugmentPolicy, Border, ConvertMode, ImageBatchFormat, ImageReadMode,
                     Inter, SliceMode)
from .augment import (AutoAugment, RandAugment, RandomSelectSubpolicy, TrivialAugmentWide,
                      UniformAugment)
from .bbox import (BoundingBoxAugment, RandomCropWithBBox, RandomHorizontalFlipWithBBox,
                   RandomResizedCropWithBBox, RandomResizeWithBBox, RandomVerticalFlipWithBBox,
                   ResizeWithBBox)
from .color import (AdjustBrightness, AdjustContrast, AdjustGamma, AdjustHue,
                    AdjustSaturation, AdjustSharpness, AutoContrast, ConvertColor, Equalize,
                    Grayscale, HsvToRgb, Invert, Posterize, RandomAdjustSharpness,
                    RandomAutoContrast, RandomColor, RandomColorAdjust, RandomEqualize,
                    RandomGrayscale, RandomInvert, RandomLighting, RandomPosterize,
                    RandomSharpness, RandomSolarize, RgbToHsv, Solarize)
from .erase_mix import (CutMixBatch, CutOut, Erase, GaussianBlur, LinearTransformation, MixUp,
                        MixUpBatch, RandomErasing)
from .geometry import (Affine, CenterCrop, Crop, FiveCrop, HorizontalFlip, Pad, PadToSize,
                       Perspective, RandomAffine, RandomCrop, RandomCropDecodeResize,
                       RandomHorizontalFlip, RandomPerspective, RandomResize,
                       RandomResizedCrop, RandomRotation, RandomVerticalFlip, Resize,
                       ResizedCrop, Rotate, SlicePatches, TenCrop, VerticalFlip)
from .io import (HWC2CHW, Decode, Normalize, NormalizePad, Rescale, ToNumpy, ToPIL, ToTensor,
                 ToType, encode_jpeg, encode_png, get_image_num_channels, get_image_size,
                 not_random, read_file, read_image, write_file, write_jpeg, write_png)

__all__ = [
    "AdjustBrightness", "AdjustContrast", "AdjustGamma", "AdjustHue", "AdjustSaturation",
    "AdjustSharpness", "Affine", "AutoAugment", "AutoAugmentPolicy", "AutoContrast", "Border",
    "BoundingBoxAugment", "CenterCrop", "ConvertColor", "ConvertMode", "Crop", "CutMixBatch",
    "CutOut", "Decode", "Equalize", "Erase", "FiveCrop", "GaussianBlur", "Grayscale",
    "HWC2CHW", "HorizontalFlip", "HsvToRgb", "ImageBatchFormat", "ImageReadMode", "Inter",
    "Invert", "LinearTransformation", "MixUp", "MixUpBatch", "Normalize", "NormalizePad", "Pad",
    "PadToSize", "Perspective", "Posterize", "RandAugment", "RandomAdjustSharpness",
    "RandomAffine", "RandomAutoContrast", "RandomColor", "RandomColorAdjust", "RandomCrop",
    "RandomCropDecodeResize", "RandomCropWithBBox", "RandomEqualize", "RandomErasing",
    "RandomGrayscale", "RandomHorizontalFlip", "RandomHorizontalFlipWithBBox", "RandomInvert",
    "RandomLighting", "RandomPerspective", "RandomPosterize", "RandomResize",
    "RandomResizeWithBBox", "RandomResizedCrop", "RandomResizedCropWithBBox", "RandomRotation",
    "RandomSelectSubpolicy", "RandomSharpness", "RandomSolarize", "RandomVerticalFlip",
    "RandomVerticalFlipWithBBox", "Rescale", "Resize", "ResizeWithBBox", "ResizedCrop",
    "RgbToHsv", "Rotate", "SliceMode", "SlicePatches", "Solarize", "TenCrop", "ToNumpy",
    "ToPIL", "ToTensor", "ToType", "TrivialAugmentWide", "UniformAugment", "VerticalFlip",
    "encode_jpeg", "encode_png", "get_image_num_channels", "get_image_size", "not_random",
    "read_file", "read_image", "write_file", "write_jpeg", "write_png",
]
