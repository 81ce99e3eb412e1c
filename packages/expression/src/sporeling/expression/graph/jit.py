"""``jit``: compile a function (or a method) to a graph, with a cache per call signature.

    >>> import numpy as np
    >>> import sporeling.expression as sx
    >>> @sx.jit
    ... def f(x, y):
    ...     return (x * y + 1.0).sum()
    >>> f(sx.Tensor([1.0, 2.0]), sx.Tensor([3.0, 4.0]))
    Tensor(shape=[], dtype=Float32, value= 13.)
    >>> _ = f(sx.Tensor([5.0, 6.0]), sx.Tensor([7.0, 8.0]))     # same shapes: cached
    >>> f.compile_count
    1

The function runs once on traced Tensors (see :mod:`.tracing`); afterwards each call runs the
compiled graph. Parameters the function reads (through a Cell, a closure or a global) are
graph inputs, so updating them needs no recompilation. A function calling ``grad`` or
``value_and_grad`` compiles forward and backward into one graph.

What runs as Python, once, at compile time: everything that does not touch tensor data --
``print`` of non-tensor values, arithmetic on shapes, loops over Python ranges, attribute
reads (so changing a Python attribute the function reads needs ``clear_cache()``).
``print(x)`` of a tensor prints its values each time the compiled function runs (a
``print`` equation of the graph). What cannot be compiled raises an error naming the
user's ``file:line``: reading a tensor's data (``asnumpy()``, ``float(x)``, ``if x > 0``
without the AST front end) -- unless the function is compiled with
``specialize_values=True``: then a value computed only from the array arguments is read
(their values are given to the trace), and the graph is specialised on the values of the
arguments it read: a call with other values there compiles again (``compile_count``), so
no call runs a graph made for other values. Values depending on Parameters or random
draws still raise ``TracedValueError``.

    >>> @sx.jit(specialize_values=True)
    ... def scale(x):
    ...     return x * int(x.sum())
    >>> scale(sx.Tensor([1.0, 2.0])).asnumpy(), scale(sx.Tensor([2.0, 2.0])).asnumpy()
    (array([3., 6.], dtype=float32), array([8., 8.], dtype=float32))
    >>> scale.compile_count
    2

Random ops (``Dropout``, ``ops.uniform``...) get their seed from an ``rng_seed`` equation of
the graph, so every run draws anew -- and after ``set_seed(s)`` N runs draw what N PyNative
calls of the function would. Called while ``grad`` records (PyNative), while another trace
runs, or on traced values, a jit function runs inline (eagerly or into the enclosing graph).
"""
from __future__ import annotations

import functools
import weakref

from ..autograd.state import STATE
from .cache import CompiledFunction
from .convert import converted
from .tracing import is_tracing, note_cell

__all__ = ["jit", "JitFunction"]


class JitFunction:
    """A compiled function: call it like the original (see :func:`jit`)."""

    def __init__(self, fn, owner=None, jit_level=None, specialize_values=False):
        functools.update_wrapper(self, fn, updated=())
        self._fn = fn
        self._owner = owner
        self._cache = CompiledFunction(getattr(fn, "__qualname__", None) or
                                       getattr(fn, "__name__", "jit"), specialize_values)
        self._cache.set_jit_level(jit_level)
        self._bound: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
        self._traced = None  # the converted function, made on first use

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        try:
            bound = self._bound.get(obj)
        except TypeError:  # not weak-referenceable: a fresh cache per access
            return JitFunction(self._fn.__get__(obj, objtype), obj, self.jit_level,
                               self.specialize_values)
        if bound is None:
            bound = self._bound[obj] = JitFunction(self._fn.__get__(obj, objtype), obj,
                                                   self.jit_level, self.specialize_values)
        return bound

    def __call__(self, *args, **kwargs):
        if is_tracing():
            return converted(self._fn)(*args, **kwargs)
        if STATE.level:  # PyNative grad records this call: run it on the tape
            return self._fn(*args, **kwargs)
        if self._traced is None:
            self._traced = _Traced(converted(self._fn), self._owner)
        return self._cache.call(self._traced, args, kwargs)

    jit_level = property(lambda self: self._cache.jit_level,
                         doc="This function's own jit_level (None: the context's).")
    specialize_values = property(lambda self: self._cache.specialize_values,
                                 doc="Whether tracing may read the arguments' values.")
    compile_count = property(lambda self: self._cache.compile_count,
                             doc="How many times this function was compiled.")
    last_graph = property(lambda self: self._cache.last_graph,
                          doc="The traced graph of the latest call.")
    last_executable = property(lambda self: self._cache.last_executable,
                               doc="The executable of the latest call.")

    def explain(self) -> str:
        """What the latest call's compiled program does: which equations fused, which
        calls run generated code, which a library's or NumPy's kernel, what was not
        generated and why; one line per call with its shapes and source line (see
        :func:`sporeling.compiler.explain.explain`). ``print(f.explain())``."""
        executable = self.last_executable
        if executable is None:
            from sporeling.core import SporelingError
            raise SporelingError("nothing compiled yet", op="explain",
                                 expected="a jit function called at least once",
                                 got=f"{self!r}, never called",
                                 hint="call the function once, then explain()")
        from sporeling.compiler.explain import explain
        from sporeling.core import get_context
        return explain(executable, self.jit_level or get_context("jit_level"))

    def compile_cache_info(self) -> dict:
        """``{"compile_count", "entries", "compile_seconds"}``."""
        return self._cache.info()

    def clear_cache(self) -> None:
        """Forget the compiled graphs (after changing Python state the function reads)."""
        self._cache.clear()

    def __repr__(self) -> str:
        return f"<jit {self._cache.name}>"


class _Traced:
    """``fn`` called under the trace; an owner Cell and its descendants are noted for the
    cache's guards (their flags and contents)."""
    __slots__ = ("fn", "owner")

    def __init__(self, fn, owner):
        self.fn, self.owner = fn, owner

    def __call__(self, *args, **kwargs):
        if hasattr(self.owner, "cells_and_names"):
            for _, cell in self.owner.cells_and_names():
                note_cell(cell)
        return self.fn(*args, **kwargs)


def jit(fn=None, *, jit_level=None, specialize_values=None):
    """Compile ``fn`` to a graph on its first call (per argument signature); usable as
    ``@jit`` on functions and on methods (``construct`` of a Cell included), and as
    ``@jit(jit_level="O0")``: this function's own level (None: the context's ``jit_level``;
    see :mod:`sporeling.compiler.jit_levels`). ``specialize_values=True``: the function may
    read values computed from its array arguments (``int(x)``, ``x.asnumpy()``), and its
    graphs are specialised and guarded on the values read (see the module doc; None: False,
    or as ``fn`` has it when it is a jit function already)."""
    if fn is None:
        return functools.partial(jit, jit_level=jit_level, specialize_values=specialize_values)
    if isinstance(fn, JitFunction):
        if specialize_values is None:
            specialize_values = fn.specialize_values
        if (jit_level is None or jit_level == fn.jit_level) and \
                specialize_values == fn.specialize_values:
            return fn
        # the function at another level, or reading values
        return JitFunction(fn._fn, fn._owner, jit_level or fn.jit_level, specialize_values)
    if not callable(fn):
        from sporeling.core import SporelingError
        raise SporelingError("jit needs a function", op="jit", expected="a callable",
                             got=type(fn).__name__)
    return JitFunction(fn, jit_level=jit_level, specialize_values=bool(specialize_values))
