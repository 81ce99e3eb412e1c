"""Model definitions shipped with the zoo."""
from .digits import DigitsMLP, LeNet5

__all__ = ["DigitsMLP", "LeNet5"]
