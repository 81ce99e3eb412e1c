"""``ops.HookBackward(hook_fn)``: an identity whose backward calls ``hook_fn(grads)``."""
from __future__ import annotations

from sporeling.expression import Tensor
from sporeling.expression.autograd import call_with_bprop

from .base import Primitive

__all__ = ["HookBackward"]


class HookBackward(Primitive):
    """MindSpore's ``HookBackward(hook_fn, cell_id="")`` (PyNative): ``hb(*inputs)`` returns
    its inputs (one Tensor for one input); in the backward pass ``hook_fn(grads)`` gets the
    tuple of their gradients, and a non-None result (a Tensor or a tuple) replaces them."""

    def __init__(self, hook_fn, cell_id: str = ""):
        super().__init__("HookBackward")
        if not callable(hook_fn):
            raise TypeError(f"HookBackward: hook_fn must be callable, got "
                            f"{type(hook_fn).__name__}")
        if not isinstance(cell_id, str):
            raise TypeError(f"HookBackward: cell_id must be a str, got {type(cell_id).__name__}")
        self.hook_fn, self.cell_id = hook_fn, cell_id

    def __call__(self, *inputs):
        for i, x in enumerate(inputs):
            if not isinstance(x, Tensor):
                raise TypeError(f"HookBackward: input {i} must be a Tensor, got "
                                f"{type(x).__name__}")

        def identity(*xs):
            return xs if len(xs) > 1 else xs[0]

        def bprop(*values):
            *_, _out, dout = values
            grads = tuple(dout) if isinstance(dout, tuple) else (dout,)
            result = self.hook_fn(grads)
            if result is not None:
                grads = tuple(result) if isinstance(result, (tuple, list)) else (result,)
            return grads

        return call_with_bprop(identity, bprop, *inputs)
