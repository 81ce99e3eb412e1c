"""``ms.saved_tensors_hooks`` (a context manager) and ``ms.register_saved_tensors_hooks``
(its decorator form): custom packing of the values kept for the backward pass.

Both run on the PyNative tape (``sporeling.expression.autograd.saved_tensors_hooks``):
``pack_hook(tensor)`` when an op saves a value, ``unpack_hook(packed)`` when the backward
pass reads it. MindSpore documents the decorator for Graph mode; here a decorated function
is differentiated on the tape, so call it (and ``grad``/``value_and_grad`` of it) without
``jit``: inside a ``jit`` trace the hooks are refused with a SporelingError.
"""
from __future__ import annotations

import functools

from sporeling.expression.autograd import saved_tensors_hooks

__all__ = ["saved_tensors_hooks", "register_saved_tensors_hooks"]


def register_saved_tensors_hooks(pack_hook, unpack_hook):
    """Decorator: the function runs inside ``saved_tensors_hooks(pack_hook, unpack_hook)``."""
    hooks = saved_tensors_hooks(pack_hook, unpack_hook)  # checks the hooks now

    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with saved_tensors_hooks(hooks.pack_hook, hooks.unpack_hook):
                return fn(*args, **kwargs)
        return wrapper
    return decorate
