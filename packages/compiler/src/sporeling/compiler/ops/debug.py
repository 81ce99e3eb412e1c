"""``debug_print``: print values when the compiled program runs (a host callback).

Eagerly it prints at once. Inside a trace it binds the ``print`` primitive, whose ``impl``
formats its operands and prints when the graph runs -- on every run, with that run's
values (``print(x)`` in a Graph-mode function, as ``jax.debug.print``). The equation
returns an int32 *effect token*: each print takes the previous one's token as an operand,
so the prints of one graph run in the order they were traced whatever the passes reorder,
and the trace's last token (``TraceInterpreter.effect_token``) is to be made a graph output
by the front end that builds the graph, so dead-code elimination keeps the prints. The
primitive is ``nondeterministic`` (never merged by CSE nor folded into a constant) and
carries no gradient. Under ``vmap`` it prints the whole batch.

How one value prints is the ``format`` of each piece (see :class:`PrintFormat`); the
Graph-mode front end registers one per value type (:func:`register_print_format`: its
Tensor), so a printed tensor looks as it does in eager code.

    >>> import numpy as np
    >>> from sporeling.compiler.ir import make_graph
    >>> def f(x):
    ...     debug_print("x:", x)
    ...     return x
    >>> g = make_graph(f, np.ones(2, np.float32))
    >>> [eq.prim.name for eq in g.equations]
    ['print']
    >>> _ = print_p.impl(np.int32(0), np.arange(2.0), fmt=PrintFormat(("x:", None)))
    x: [0. 1.]
"""
from __future__ import annotations

import builtins
from typing import Callable

import numpy as np

from sporeling.core import SporelingError

from ..core import Aval, Primitive, bind, def_nondifferentiable
from ..core.batching import def_batching

__all__ = ["print_p", "PrintFormat", "debug_print", "register_print_format", "print_format"]

print_p = Primitive("print", amp="never", nondeterministic=True,
                    doc="prints its operands (after the effect token) when it runs; returns "
                        "a new effect token")
def_nondifferentiable(print_p)

_FORMATS: dict[type, Callable] = {}


def register_print_format(cls: type, fmt: Callable[[np.ndarray], str]) -> None:
    """How a value of type ``cls`` (a wrapper such as the front end's Tensor) prints when a
    graph runs: ``fmt(array) -> str`` (a later registration replaces an earlier one)."""
    _FORMATS[cls] = fmt


def print_format(value) -> Callable[[np.ndarray], str]:
    """The format for a traced ``value``'s data (its type's registered one, else ``str``)."""
    for cls in type(value).__mro__:
        if cls in _FORMATS:
            return _FORMATS[cls]
    return str


class PrintFormat:
    """What one ``print`` prints: ``pieces`` are texts (``str``, fixed when traced) and
    ``None`` for each operand, in order, or a callable ``fmt(array) -> str`` for it;
    ``sep``, ``end``, ``file``, ``flush`` as Python's ``print``."""
    __slots__ = ("pieces", "sep", "end", "file", "flush")

    def __init__(self, pieces: tuple, sep=" ", end="\n", file=None, flush=False):
        self.pieces, self.sep, self.end = tuple(pieces), sep, end
        self.file, self.flush = file, flush

    def text(self, values) -> list:
        values = iter(values)
        out = []
        for piece in self.pieces:
            if isinstance(piece, str):
                out.append(piece)
            else:
                out.append((piece or str)(next(values)))
        return out

    def __repr__(self) -> str:
        return "PrintFormat(" + ", ".join(p if isinstance(p, str) else "<value>"
                                          for p in self.pieces) + ")"


@print_p.def_abstract_eval
def _print_abstract(token, *values, fmt):
    return Aval((), np.dtype(np.int32))


@def_batching(print_p)
def _print_batched(args, dims, fmt):
    return bind(print_p, *args, fmt=fmt), None  # the batch printed; the token unbatched


@print_p.def_impl
def _print_impl(token, *values, fmt):
    builtins.print(*fmt.text(np.asarray(v) for v in values), sep=fmt.sep, end=fmt.end,
                   file=fmt.file, flush=fmt.flush)
    return np.zeros((), np.int32)


def debug_print(*args, sep=" ", end="\n", file=None, flush=False, formats=None) -> None:
    """``print(*args)`` when the graph runs (at once outside a trace). Array operands that
    are traced print their values at run time; other arguments print as ``str`` (fixed at
    trace time). ``formats``: a format per argument (None: :func:`print_format`'s)."""
    from ..ir.trace import Tracer, innermost_trace
    traced = [_inner(a) for a in args]
    if all(getattr(t, "_interpreter", None) is None for t in traced):
        builtins.print(*args, sep=sep, end=end, file=file, flush=flush)
        return
    interp = next((t._interpreter for t in traced if isinstance(t, Tracer)), None)
    if interp is not None and interp is not innermost_trace():
        raise SporelingError("print of a traced value inside a tensor-dependent branch or "
                             "loop body", op="Graph mode",
                             hint="print outside the branch, or return the value and print "
                                  "it there")
    formats = formats or [None] * len(args)
    pieces, operands = [], []
    for arg, inner, fmt in zip(args, traced, formats):
        if getattr(inner, "_interpreter", None) is not None or (
                hasattr(inner, "shape") and hasattr(inner, "dtype") and
                not isinstance(inner, np.generic)):
            pieces.append(fmt or print_format(arg))
            operands.append(inner)
        else:
            pieces.append(fmt(arg) if fmt else str(arg))
    token = None if interp is None else interp.effect_token
    if token is None:
        token = np.zeros((), np.int32)
    token = bind(print_p, token, *operands,
                 fmt=PrintFormat(tuple(pieces), sep, end, file, flush))
    if interp is not None:  # (another transformation's values print when it runs them)
        interp.effect_token = token


def _inner(value):
    """The tracer (or array) behind a wrapper (the front end's Tensor), else ``value``."""
    data = getattr(value, "_data", None)
    return value if data is None else data
