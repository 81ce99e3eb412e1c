"""Model definitions shipped with the zoo, one module per family; :mod:`.catalog` registers
them by name."""
from .char_gpt import CharGPT
from .ddpm import DDPM, UNet
from .digits import DigitsMLP, LeNet5
from .lstm_text import LSTMClassifier
from .mobilenet import MobileNetV2
from .resnet import ResNet18, ResNet20
from .vae import VAE
from .vit import ViT

__all__ = ["CharGPT", "DDPM", "DigitsMLP", "LSTMClassifier", "LeNet5", "MobileNetV2",
           "ResNet18", "ResNet20", "UNet", "VAE", "ViT"]
