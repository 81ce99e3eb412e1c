"""Saved-tensor hooks: ``with saved_tensors_hooks(pack, unpack):`` (PyTorch's and
MindSpore 2.10's semantics) customises how the values a recorded op keeps for its backward
are stored.

While a hook pair is active (the innermost one, per thread), every value a node of the
PyNative tape saves -- the inputs and outputs its backward rule reads, not those it only
needs the shape of -- is passed as a Tensor to ``pack_hook`` when the op runs, and the node
keeps what that returns. When the backward pass reads the value, ``unpack_hook`` gets the
packed object and returns the Tensor the rule then uses. So ``pack`` runs in the forward
pass, once per saved value; ``unpack`` in the backward, each time the value is read.
Graph-mode (``jit``) code is differentiated by the compiler, not the tape: the hooks do not
apply there, and entering them inside a trace is an error.
"""
from __future__ import annotations

import threading

from numpy import ndarray

from sporeling.compiler.autodiff.tape import Node
from sporeling.core.errors import SporelingError

from ..tensor.tensor import Tensor, wrap

__all__ = ["saved_tensors_hooks", "active_hooks", "hook_saved_values"]

_local = threading.local()


def active_hooks():
    """The innermost ``(pack_hook, unpack_hook)`` of this thread, or None."""
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else None


class saved_tensors_hooks:  # noqa: N801 - PyTorch's and MindSpore's name
    """Context manager: values saved for backward inside it go through ``pack_hook`` and
    come back through ``unpack_hook`` (see the module doc)."""

    def __init__(self, pack_hook, unpack_hook):
        for name, hook in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
            if not callable(hook):
                raise SporelingError(f"{name} must be callable", op="saved_tensors_hooks",
                                     expected="a function", got=type(hook).__name__)
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        from sporeling.compiler.core.stack import STACK
        if any(getattr(layer, "rebind", False) for layer in STACK.layers):
            raise SporelingError("saved-tensor hooks apply to PyNative code only",
                                 op="saved_tensors_hooks", expected="eager (PyNative) code",
                                 got="a Graph-mode (jit) trace")
        if not hasattr(_local, "stack"):
            _local.stack = []
        _local.stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc) -> None:
        _local.stack.pop()


class _Packed:
    """A saved value as ``pack_hook`` returned it; ``raw``: the node kept a bare array
    (the rule wants one back)."""
    __slots__ = ("packed", "unpack", "raw")

    def __init__(self, value, hooks):
        pack, self.unpack = hooks
        self.raw = not isinstance(value, Tensor)
        self.packed = pack(wrap(value) if self.raw else value)

    def get(self):
        value = self.unpack(self.packed)
        if not isinstance(value, Tensor):
            raise SporelingError("unpack_hook must return a Tensor", op="saved_tensors_hooks",
                                 expected="a Tensor", got=type(value).__name__)
        return value._data if self.raw else value


def _pack(value, hooks):
    return _Packed(value, hooks) if isinstance(value, (Tensor, ndarray)) else value


def _unpack(value):
    return value.get() if type(value) is _Packed else value


class _Unpacking:
    """A node's saved inputs, unpacked as they are read (the backward pass spreads them
    into the rule's call once; checking them against None reads nothing)."""
    __slots__ = ("values",)

    def __init__(self, values: tuple):
        self.values = values

    def __iter__(self):
        return (_unpack(v) for v in self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, i):
        return _unpack(self.values[i])


_saved_in, _saved_out = Node.saved_in, Node.saved_out  # the slots' descriptors


class _HookedNode(Node):
    """A node whose saved values are packed: reading them unpacks (same slots as Node, so
    a recorded node's class can be switched to this one)."""
    __slots__ = ()

    @property
    def saved_in(self):
        saved = _saved_in.__get__(self)
        return None if saved is None else _Unpacking(saved)

    @saved_in.setter
    def saved_in(self, value):
        _saved_in.__set__(self, value)

    @property
    def saved_out(self):
        saved = _saved_out.__get__(self)
        if type(saved) is tuple:
            return tuple(_unpack(v) for v in saved)
        return _unpack(saved)

    @saved_out.setter
    def saved_out(self, value):
        _saved_out.__set__(self, value)


def hook_saved_values(node: Node, hooks) -> None:
    """Pack ``node``'s saved values with ``hooks`` (``(pack, unpack)``), now."""
    saved_in, saved_out = _saved_in.__get__(node), _saved_out.__get__(node)
    if saved_in is not None:
        _saved_in.__set__(node, tuple(_pack(v, hooks) for v in saved_in))
    if type(saved_out) is tuple:
        _saved_out.__set__(node, tuple(_pack(v, hooks) for v in saved_out))
    else:
        _saved_out.__set__(node, _pack(saved_out, hooks))
    node.__class__ = _HookedNode
