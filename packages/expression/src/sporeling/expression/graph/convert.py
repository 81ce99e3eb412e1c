"""The AST front end's entry point for Graph mode: ``convert(fn)`` when it is installed.

``sporeling.compiler.frontend.convert`` rewrites Python ``if``/``while``/``for`` that depend
on tensors into functional control flow (``cond``, ``while_loop``, ``scan``) and caches the
result per function (bound methods are converted through their function and bound again).
Without the front end a function is traced as written: tensor-dependent control flow then
raises the tracer's clear error.
"""
from __future__ import annotations

__all__ = ["converted"]

_CONVERT: list = []  # [convert or None], looked up once


def converted(fn):
    """``fn`` with tensor-dependent control flow rewritten (``fn`` itself when the front end
    is not installed or has nothing to rewrite)."""
    if not _CONVERT:
        try:
            from sporeling.compiler.frontend import convert
        except ImportError:
            convert = None
        _CONVERT.append(convert)
    convert = _CONVERT[0]
    return fn if convert is None else convert(fn)
