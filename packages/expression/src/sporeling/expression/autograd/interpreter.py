"""The PyNative interpreter: runs ops on Tensors eagerly and records them for ``grad``.

``sporeling.compiler.bind`` hands a primitive to this interpreter when a Tensor is among the
operands (``Tensor._interpreter``). It unwraps the Tensors to their arrays, runs the kernel
through the eager interpreter below, and wraps the results as Tensors. While a ``grad`` is
recording (see :mod:`.state`) and an operand carries a node of the current tape, it records
a node with :func:`sporeling.compiler.autodiff.tape.record`.

It consults this thread's interpreter stack (:mod:`sporeling.compiler.core.stack`): under a
Graph-mode trace it dispatches through ``bind`` (the Tensors hold tracers, whose trace
records the op); under an AMP policy the innermost layer's ``operand_hook`` casts operands
first. With no layers (plain eager code) the check costs one thread-local read.

What a node saves depends on who will run its backward rule. A node recorded while only one
``grad`` is recording is differentiated by that ``grad`` alone, with nothing recording its
backward, so it saves the raw arrays: the rules then run straight on the eager kernels (the
fast path) and no Tensor <-> node reference cycle keeps memory alive. Under nested ``grad``
calls the backward of this node is itself recorded (grad of grad), so it saves Tensors that
carry their nodes.
"""
from __future__ import annotations

from numpy import ndarray

from sporeling.compiler.autodiff.tape import record
from sporeling.compiler.core import Interpreter, bind, eager, next_level
from sporeling.compiler.core.stack import STACK

from ..tensor.tensor import Tensor, wrap
from .saved_hooks import active_hooks, hook_saved_values
from .state import STATE

__all__ = ["PyNativeInterpreter", "PYNATIVE"]


class PyNativeInterpreter(Interpreter):
    """Owner of every Tensor: eager kernels, plus recording while ``grad`` is active."""

    def __init__(self):
        self.level = next_level()

    def apply(self, prim, args, params):
        # Interpreters created later (tracing, compiler vjp) have higher levels and unwrap
        # their own values first, so operands here are Tensors, arrays and Python values.
        layers = STACK.layers
        run = _run
        if layers:
            hook = None
            for layer in layers:  # outermost first: the innermost hook wins
                if layer.operand_hook is not None:
                    hook = layer.operand_hook
                if layer.rebind:
                    run = _bind_run
            if hook is not None:
                args = hook(prim, args)
        level = STATE.level
        if not level:  # fast path: nothing to record
            n = len(args)  # one or two operands: no list comprehension (a call in 3.11)
            if n == 2:
                a, b = args
                out = run(prim, (a._data if isinstance(a, Tensor) else a,
                                 b._data if isinstance(b, Tensor) else b), params)
            elif n == 1:
                a = args[0]
                out = run(prim, (a._data if isinstance(a, Tensor) else a,), params)
            else:
                out = run(prim, [a._data if isinstance(a, Tensor) else a for a in args],
                          params)
            if prim.multiple_results:
                return tuple(wrap(o) for o in out)
            return wrap(out)
        tape, inner, parents, traced, plain = STATE.tape, [], [], False, True
        for a in args:
            if isinstance(a, Tensor):
                data = a._data
                inner.append(data)
                if type(data) is not ndarray:
                    plain = False
                node = a._node
                if node is not None and a._tape is tape:
                    parents.append((node, a._index))
                    traced = True
                    continue
            else:
                inner.append(a)
                if type(a) is not ndarray:
                    plain = False
            parents.append(None)
        # all plain arrays (the common case): nothing traced, skip the scan
        if traced and not plain and _any_traced(inner):
            inner = _keep_recorded_wrappers(args, inner, parents)
        out = run(prim, inner, params)
        multi = prim.multiple_results
        outs = tuple(wrap(o) for o in out) if multi else wrap(out)
        if not traced or not prim.differentiable:
            return outs
        if level == 1:  # only this grad's backward reads the node: raw arrays
            node = record(prim, params, tuple(inner), tuple(parents),
                          tuple(o._data for o in outs) if multi else outs._data)
        else:
            node = record(prim, params, args, tuple(parents), outs)
        hooks = active_hooks()
        if hooks is not None:  # saved_tensors_hooks: pack what the node keeps
            hook_saved_values(node, hooks)
        if multi:
            for i, o in enumerate(outs):
                o._node, o._index, o._tape = node, i, tape
        else:
            outs._node, outs._tape = node, tape
        return outs


_run = eager.apply


def _bind_run(prim, args, params):
    return bind(prim, *args, **params)


def _level(x) -> int:
    return getattr(getattr(x, "_interpreter", None), "level", 0)


def _any_traced(inner) -> bool:
    return any(type(x) is not ndarray and _level(x) for x in inner)


def _keep_recorded_wrappers(args, inner, parents):
    # Inside a trace nested deeper than a recorded Tensor's data (the branch of a `cond`, a
    # loop body, while a grad records), pass that Tensor itself: the trace then captures
    # the Tensor, the control-flow primitive is bound on it, and the tape records it --
    # unwrapped, the trace would capture the bare data and its gradient would be lost.
    top = max(_level(x) for x in inner)
    return [a if p is not None and _level(x) < top else x
            for a, x, p in zip(args, inner, parents)]


PYNATIVE = PyNativeInterpreter()
Tensor._interpreter = PYNATIVE
