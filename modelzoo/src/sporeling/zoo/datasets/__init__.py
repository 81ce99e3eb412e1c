"""Datasets the zoo's models train on."""
from .digits import DigitsSplit, load_digits_split

__all__ = ["DigitsSplit", "load_digits_split"]
