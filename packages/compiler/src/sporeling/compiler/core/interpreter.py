"""Interpreters: who gives meaning to a bound primitive.

* :data:`eager` (level 0) runs kernels of the current backend on NumPy arrays;
* ``sporeling.expression`` adds the PyNative interpreter (Tensors, recorded for ``grad``);
* graph tracing adds one level per nested trace.

A value says which interpreter owns it through an ``_interpreter`` attribute;
:func:`~sporeling.compiler.core.primitive.bind` picks the highest level among the operands.
"""
from __future__ import annotations

import itertools

import numpy as np

from sporeling.core import SporelingError, context_version, get_context
# the list context_version() reads: a subscript where a call would be, on every eager op
from sporeling.core.context import _version as _CONTEXT_VERSION
from sporeling.runtime import get_backend
from sporeling.runtime.events import kernel_listeners as _kernel_listeners, timed_call

from .location import locate
from .primitive import Primitive

__all__ = ["Interpreter", "EagerInterpreter", "eager", "next_level"]

_levels = itertools.count(1)  # next() is atomic: threads tracing at once get distinct levels


def next_level() -> int:
    """A level above every interpreter created so far (nested transformations nest)."""
    return next(_levels)


class Interpreter:
    """Base of every interpreter; ``level`` orders nested ones."""
    level = 0

    def apply(self, prim: Primitive, args: tuple, params: dict):
        raise NotImplementedError


class EagerInterpreter(Interpreter):
    """Runs each primitive at once with the current backend's kernel.

    Shape and dtype rules are checked only when a kernel fails (NumPy checks as it computes),
    so the error is ours -- naming the primitive, the shapes and the user's line (see
    :mod:`.location`) -- at no cost on the fast path.
    """
    level = 0

    def __init__(self):
        self._version = -1
        self._backend = None
        self._kernels: dict[str, object] = {}

    def backend(self):
        """The backend chosen by ``device_target``, re-read when the context changes."""
        if self._version != context_version():
            backend = get_backend(get_context("device_target"))
            if backend is not self._backend:
                self._backend, self._kernels = backend, {}
            self._version = context_version()
        return self._backend

    def kernel(self, name: str):
        fn = self._kernels.get(name) if self._version == context_version() else None
        if fn is None:
            backend = self.backend()
            fn = self._kernels[name] = backend.kernel(name)
        return fn

    def apply(self, prim: Primitive, args: tuple, params: dict):
        # hot path: a dict hit while the context is unchanged (kernel() re-reads it)
        fn = self._kernels.get(prim.name) if self._version == _CONTEXT_VERSION[0] else None
        if fn is None:
            if prim.impl is not None:  # off the hot path: impl primitives never hit the cache
                return prim.impl(*args, **params)
            fn = self.kernel(prim.name)
        try:
            if _kernel_listeners:  # a profiler is on (see runtime.events)
                return timed_call(fn, prim.name, self._backend, args, params)
            if params:
                return fn(self._backend, *args, **params)
            return fn(self._backend, *args)  # an empty ** still costs a dict copy
        except SporelingError as exc:
            locate(exc)  # the user's file:line and function, looked up only on failure
            raise
        except Exception as exc:
            raise locate(_explain(prim, args, params, exc)) from exc


def _explain(prim: Primitive, args: tuple, params: dict, exc: Exception) -> Exception:
    """Our error for a failed kernel: the abstract rule's, or one naming op and operands."""
    shapes = ", ".join(f"{np.dtype(getattr(a, 'dtype', type(a)))}{list(np.shape(a))}"
                       for a in args)
    if prim.abstract_eval is not None:
        try:
            prim.abstract(*args, **params)
        except SporelingError as rule_error:
            return rule_error
        except Exception:  # a rule that cannot judge these operands: the kernel's error says more
            pass
    return SporelingError(f"kernel failed: {type(exc).__name__}: {exc}", op=prim.name,
                          got=f"operands {shapes}" + (f" with {params}" if params else ""))


eager = EagerInterpreter()
