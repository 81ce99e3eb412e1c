"""The table: primitive name -> emitter writing ONNX node(s).

An emitter is ``fn(b, eq, ins, outs, **params)``: ``b`` the :class:`~.builder.Builder`,
``eq`` the equation (its operands' avals: ``eq.inputs[i].aval``), ``ins``/``outs`` the
ONNX value names of its operands and results (every result must be written). Parameters
that depend on the batch size arrive as :class:`~.builder.Batch` entries; an emitter
registered with ``dynamic=False`` (the default) is refused those, with a clear error.

    >>> from sporeling.compiler.export.onnx.table import ONNX_TABLE
    >>> "conv2d" in ONNX_TABLE and "matmul" in ONNX_TABLE
    True

Quantisation adds its pair the same way, e.g.::

    @def_onnx("quantize")
    def _quantize(b, eq, ins, outs, *, axis):
        b.node("QuantizeLinear", ins, outs, axis=axis)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

__all__ = ["ONNX_TABLE", "Rule", "def_onnx", "lookup"]


@dataclass(frozen=True)
class Rule:
    emit: Callable
    dynamic: bool  # accepts Batch entries in its parameters


ONNX_TABLE: dict[str, Rule] = {}


def def_onnx(*names: str, dynamic: bool = False):
    """Register the decorated emitter for the primitives ``names``."""
    def register(fn):
        for name in names:
            ONNX_TABLE[name] = Rule(fn, dynamic)
        return fn
    return register


def lookup(name: str) -> Rule | None:
    from . import rules_elementwise, rules_nn, rules_rnn, rules_shape  # noqa: F401  (fill the table)
    return ONNX_TABLE.get(name)
