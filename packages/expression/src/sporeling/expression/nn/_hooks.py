"""Cell hooks (MindSpore 2.10's, PyNative): ``register_forward_pre_hook``,
``register_forward_hook``, ``register_backward_pre_hook``, ``register_backward_hook``.

* ``forward_pre``: ``hook(cell, args)`` (``hook(cell, args, kwargs)`` with
  ``with_kwargs=True``) before ``construct``; a non-None result replaces ``args`` (a tuple;
  a single value is made one) or, with kwargs, ``(args, kwargs)``.
* ``forward``: ``hook(cell, args, output)`` (``hook(cell, args, kwargs, output)``) after
  it; a non-None result replaces the output.
* ``backward_pre``: ``hook(cell, grad_output)`` when the gradient of the cell's output is
  known (a tuple, one per output Tensor); a non-None result replaces it.
* ``backward``: ``hook(cell, grad_input, grad_output)`` when the gradients of the cell's
  Tensor inputs are known; a non-None result replaces ``grad_input``.

Each ``register_*`` returns a :class:`HookHandle`; ``handle.remove()`` unregisters. The
backward hooks wrap the cell's Tensor inputs and outputs in identity functions with a
custom backward (``call_with_bprop``), so parameter gradients are untouched; when no input
is differentiated (only weights), ``grad_input`` holds None per input, as in MindSpore. Hooks run in PyNative only: a cell called
while a graph is traced (``jit``, Graph mode) runs without them.
"""
from __future__ import annotations

import itertools
from collections import OrderedDict

_KINDS = ("forward_pre", "forward", "backward_pre", "backward")
_ids = itertools.count()


class HookHandle:
    """What ``register_*_hook`` returns: ``remove()`` unregisters the hook (idempotent)."""

    def __init__(self, cell, kind: str, handle_id: int):
        self._cell, self._kind, self.handle_id = cell, kind, handle_id

    def remove(self) -> None:
        cell = self._cell
        hooks = cell.__dict__.get("_hooks")
        if hooks is not None:
            hooks[self._kind].pop(self.handle_id, None)
            cell.__dict__["_hooked"] = any(hooks[k] for k in _KINDS)

    def __repr__(self) -> str:
        return f"HookHandle({self._kind}, id={self.handle_id})"


def register(cell, kind: str, hook, prepend: bool = False, **options) -> HookHandle:
    if not callable(hook):
        raise TypeError(f"register_{kind}_hook: hook_fn must be callable, got "
                        f"{type(hook).__name__}")
    for name, value in options.items():
        if not isinstance(value, bool):
            raise TypeError(f"register_{kind}_hook: {name} must be a bool, got "
                            f"{type(value).__name__}")
    d = cell.__dict__
    hooks = d.get("_hooks")
    if hooks is None:
        hooks = d["_hooks"] = {k: OrderedDict() for k in _KINDS}
    handle_id = next(_ids)
    hooks[kind][handle_id] = (hook, options.get("with_kwargs", False))
    if prepend:
        hooks[kind].move_to_end(handle_id, last=False)
    d["_hooked"] = True
    return HookHandle(cell, kind, handle_id)


def _as_tuple(value) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def call_hooked(cell, args: tuple, kwargs: dict):
    """``cell(*args, **kwargs)`` in PyNative with its hooks."""
    from ..tensor import Tensor
    hooks = cell.__dict__["_hooks"]
    for hook, with_kwargs in list(hooks["forward_pre"].values()):
        if with_kwargs:
            result = hook(cell, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise TypeError("a forward pre-hook with with_kwargs=True must return "
                                    "None or (args, kwargs)")
                args, kwargs = _as_tuple(result[0]), dict(result[1])
        else:
            result = hook(cell, args)
            if result is not None:
                args = _as_tuple(result)
    backward = bool(hooks["backward"] or hooks["backward_pre"])
    state = {"grad_output": None}
    call_args = args
    if backward:
        call_args = _wrap_inputs(cell, args, hooks, state, Tensor)
    out = cell._pynative_call(call_args, kwargs)
    for hook, with_kwargs in list(hooks["forward"].values()):
        result = hook(cell, args, kwargs, out) if with_kwargs else hook(cell, args, out)
        if result is not None:
            out = result
    if backward:
        out = _wrap_outputs(cell, out, hooks, state, Tensor)
    return out


def _identity(*xs):
    return xs if len(xs) > 1 else xs[0]


def _wrap_inputs(cell, args, hooks, state, Tensor):
    from ..autograd import call_with_bprop
    where = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    if not where:
        return args

    def bprop(*values):
        *_, _out, dout = values
        grad_input = _as_tuple(dout)
        for hook, _ in list(hooks["backward"].values()):
            result = hook(cell, grad_input, state["grad_output"])
            if result is not None:
                grad_input = _as_tuple(result)
        return grad_input

    inputs = tuple(args[i] for i in where)
    wrapped = _as_tuple(call_with_bprop(_identity, bprop, *inputs))
    if wrapped[0] is inputs[0]:  # no input is differentiated: grad_input is all None
        state["untracked_inputs"] = len(inputs)
    args = list(args)
    for i, value in zip(where, wrapped):
        args[i] = value
    return tuple(args)


def _wrap_outputs(cell, out, hooks, state, Tensor):
    from ..autograd import call_with_bprop
    outs = _as_tuple(out)
    if not outs or not all(isinstance(o, Tensor) for o in outs):
        return out

    def bprop(*values):
        *_, _out, dout = values
        grad_output = _as_tuple(dout)
        for hook, _ in list(hooks["backward_pre"].values()):
            result = hook(cell, grad_output)
            if result is not None:
                grad_output = _as_tuple(result)
        state["grad_output"] = grad_output
        if state.get("untracked_inputs"):  # as MindSpore: the hook still runs, with Nones
            for hook, _ in list(hooks["backward"].values()):
                hook(cell, (None,) * state["untracked_inputs"], grad_output)
        return grad_output

    wrapped = call_with_bprop(_identity, bprop, *outs)
    return tuple(_as_tuple(wrapped)) if isinstance(out, tuple) else wrapped
