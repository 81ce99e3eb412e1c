"""``Tensor.register_hook`` (MindSpore 2.10, PyNative): a function applied to the gradient
that flows back into a tensor.

``z.register_hook(fn)`` inside a function that ``ms.grad`` differentiates puts an identity
step with a custom backward (``call_with_bprop``) after ``z``'s producer and rebinds ``z`` to
it, so every later use of ``z`` sends its gradient through ``fn``: ``fn(grad)`` returns the
gradient to pass on. The returned handle's ``remove()`` makes the step pass gradients
unchanged; ``z.hooks()`` lists the hooks still on. Sporeling's ``grad`` records tensors only while it runs, so a tensor no ``grad``
records (a hook registered before the call) is an error rather than a hook that never runs.
"""
from __future__ import annotations

import itertools
import weakref

from sporeling.core import SporelingError
from sporeling.expression.autograd.custom import call_with_bprop
from sporeling.expression.autograd.session import live_node

__all__ = ["GRAD", "TensorHookHandle"]

_ids = itertools.count()
_HOOKS: dict[int, list] = {}  # id(tensor) -> its handles, while the tensor lives


class TensorHookHandle:
    """What ``register_hook`` returns: ``remove()`` turns the hook off (idempotent)."""

    def __init__(self, hook):
        self.hook, self.handle_id, self.removed = hook, next(_ids), False

    def remove(self) -> None:
        self.removed = True

    def __repr__(self) -> str:
        return f"TensorHookHandle(id={self.handle_id}{', removed' if self.removed else ''})"


def _register_hook(x, hook):
    """Apply ``hook(grad) -> grad`` to the gradient flowing back into ``x``; returns a
    handle whose ``remove()`` turns it off."""
    if not callable(hook):
        raise TypeError(f"Tensor.register_hook: hook must be a Python function, got "
                        f"{type(hook).__name__}")
    if live_node(x) is None:
        raise SporelingError("register_hook needs a tensor that the grad in progress records",
                             op="Tensor.register_hook",
                             expected="a tensor computed inside the function ms.grad "
                                      "differentiates (or one of its inputs there)",
                             got="a tensor no grad records")
    handle = TensorHookHandle(hook)

    def bprop(_x, _out, dout):
        if handle.removed:
            return (dout,)
        grad = hook(dout)
        if grad is None:
            raise SporelingError("a tensor hook must return the gradient",
                                 op="Tensor.register_hook", expected="a Tensor",
                                 got="None")
        return (grad,)

    out = call_with_bprop(_identity, bprop, x)
    x._data, x._node, x._tape, x._index = out._data, out._node, out._tape, out._index
    if id(x) not in _HOOKS:
        weakref.finalize(x, _HOOKS.pop, id(x), None)
    _HOOKS.setdefault(id(x), []).append(handle)
    return handle


def _hooks(x) -> list:
    """The hook functions registered on ``x`` and not removed, oldest first."""
    return [h.hook for h in _HOOKS.get(id(x), ()) if not h.removed]


def _identity(t):
    return t


GRAD = {"register_hook": _register_hook, "hooks": _hooks}
