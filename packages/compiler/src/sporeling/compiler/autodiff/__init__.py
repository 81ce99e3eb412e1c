"""Reverse-mode autodiff: the tape and its reverse walk, and ``vjp``/``grad`` over ops."""
from .tape import Node, backprop, leaf, record
from .vjp import TapeValue, grad, value_and_grad, vjp

__all__ = ["Node", "backprop", "leaf", "record", "TapeValue", "grad", "value_and_grad", "vjp"]
