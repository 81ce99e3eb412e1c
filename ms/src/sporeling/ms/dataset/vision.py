"""``ms.dataset.vision``: image transforms under MindSpore 2.x's names (sporeling.data's)."""
from sporeling.data.transforms.vision import (HWC2CHW, CenterCrop, Decode, Normalize,
                                              RandomCrop, RandomHorizontalFlip,
                                              RandomResizedCrop, RandomRotation,
                                              RandomVerticalFlip, Rescale, Resize, ToType)

__all__ = ["HWC2CHW", "CenterCrop", "Decode", "Normalize", "RandomCrop",
           "RandomHorizontalFlip", "RandomResizedCrop", "RandomRotation", "RandomVerticalFlip",
           "Rescale", "Resize", "ToType"]
