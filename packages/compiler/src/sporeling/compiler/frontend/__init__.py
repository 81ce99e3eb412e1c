"""Graph-mode front end: Python control flow on tensors becomes functional control flow.

:func:`convert` rewrites a function's ``if``/``while``/``for``/``break``/``continue``/early
``return`` into helpers that decide at trace time -- plain Python for Python conditions
(specialising the graph), ``cond``/``while_loop``/``scan`` for traced ones.
"""
from .ast_convert import convert, is_converted
from .runtime import UNROLL_LIMIT, GraphSyntaxError, is_traced

__all__ = ["convert", "is_converted", "is_traced", "GraphSyntaxError", "UNROLL_LIMIT"]
