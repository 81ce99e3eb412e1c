"""Datasets the zoo's models train on."""
from .digits import DigitsSplit, batches, load_digits_split

__all__ = ["DigitsSplit", "batches", "load_digits_split"]
