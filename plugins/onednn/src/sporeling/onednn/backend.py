"""The ``onednn`` backend: NumPy's buffers and pool, oneDNN's kernels where it has them.

It serves device target ``CPU`` above NumPy's priority, so installing the plugin makes it
the default CPU backend; ``set_context(backend="numpy")`` picks NumPy explicitly. A
primitive oneDNN has no kernel for runs NumPy's (``sporeling kernels`` lists which provider
serves which primitive); float64 and integer inputs stay on NumPy's kernels, and a call
oneDNN refuses falls back to NumPy once, said once in the log (``sporeling.onednn``).
"""
from __future__ import annotations

from sporeling.runtime import StackedBackend

from .threads import follow_context

__all__ = ["OneDnnBackend"]


class OneDnnBackend(StackedBackend):
    name = "onednn"
    priority = 1  # above NumPy's: the CPU target's default once installed

    def __init__(self, pool=None) -> None:
        super().__init__(pool)
        follow_context()  # the thread policy (threads.py), from now on
