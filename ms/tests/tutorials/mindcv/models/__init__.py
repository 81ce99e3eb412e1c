"""mindcv.models, reduced to ResNet, MobileNetV2 and ViT (see ../__init__.py)."""
from . import mobilenetv2, resnet, vit  # noqa: F401
