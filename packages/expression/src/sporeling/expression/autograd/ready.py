"""Gradient-ready callbacks: be told, during PyNative backward, the moment a Parameter's
gradient is final -- while the rest of backward still runs.

Data parallelism uses this to start all-reducing a bucket of gradients as soon as the last
layers' gradients are done, overlapping communication with the rest of backward (PyTorch's
post-accumulate-grad hooks, MindSpore's overlapped gradient all-reduce).

    >>> import sporeling.expression as sx
    >>> w1 = sx.Parameter(sx.Tensor([1.0]), name="w1")
    >>> w2 = sx.Parameter(sx.Tensor([2.0]), name="w2")
    >>> seen = []
    >>> with on_gradient_ready(lambda p, g: seen.append((p.name, g.tolist()))):
    ...     _ = sx.grad(lambda x: ((x * w1) * w2).sum(), None, [w1, w2])(sx.Tensor([3.0]))
    >>> seen                                  # w2's gradient is final first (read last)
    [('w2', [3.0]), ('w1', [6.0])]

The callback gets the Parameter and its gradient (a NumPy array; treat it as read-only) in
the outermost first-order ``grad`` of this thread; Parameters whose gradient never arrives
(unused ones) are not reported. Callbacks nest: every active one is called.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Callable

__all__ = ["on_gradient_ready", "ready_callbacks"]


class _Callbacks(threading.local):
    def __init__(self):
        self.stack: list[Callable] = []


_CALLBACKS = _Callbacks()


@contextlib.contextmanager
def on_gradient_ready(callback: Callable):
    """Within the block, call ``callback(parameter, gradient)`` whenever a watched
    Parameter's gradient becomes final during a PyNative backward pass (this thread)."""
    if not callable(callback):
        raise TypeError(f"on_gradient_ready: expected a callable, got "
                        f"{type(callback).__name__}")
    _CALLBACKS.stack.append(callback)
    try:
        yield
    finally:
        _CALLBACKS.stack.remove(callback)


def ready_callbacks() -> list[Callable]:
    """The callbacks active in this thread (empty: nothing to report)."""
    return _CALLBACKS.stack
