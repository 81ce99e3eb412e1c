"""Tensor and Parameter: the user's values."""
from .parameter import Parameter, ParameterTuple
from .tensor import Tensor, dtype_name, wrap

from ..autograd import interpreter as _interpreter  # noqa: E402,F401  (ops on Tensors need it)

__all__ = ["Tensor", "Parameter", "ParameterTuple", "dtype_name", "wrap"]
