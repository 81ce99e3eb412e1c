"""Whether PyNative ops are being recorded, and onto which tape.

``level`` counts the ``grad`` calls whose forward pass is still running (0 inside
``no_grad`` or outside every ``grad``): ops are recorded when it is positive. A ``grad`` call
moves from forward to backward by lowering it, so its backward rules are recorded only for
the ``grad`` calls around it (grad of grad). ``tape`` is a token of the outermost recording
``grad`` call: a Tensor whose node belongs to another tape (one that escaped a finished
``grad``) counts as a constant instead of dragging an old, released graph into a new one.
"""
from __future__ import annotations

import functools
import threading

__all__ = ["STATE", "Tape", "no_grad", "is_recording"]


class Tape:
    """Token of one outermost ``grad`` call; ``release``: free saved values during backward."""
    __slots__ = ("release",)

    def __init__(self, release: bool):
        self.release = release


class _State(threading.local):
    """Per thread: a data-loading thread's ops neither record into nor pause the main
    thread's ``grad``."""

    def __init__(self):
        self.level = 0
        self.tape: Tape | None = None


STATE = _State()


def is_recording() -> bool:
    """True while PyNative ops are recorded for a ``grad`` in progress."""
    return STATE.level > 0


class no_grad:
    """Run ops without recording them for ``grad`` (a context manager or a decorator).

    Inside ``grad``, what is computed under ``no_grad`` is a constant: no gradient flows
    through it.

        >>> import sporeling.expression as sx
        >>> def f(x):
        ...     with sx.no_grad():
        ...         scale = x * 2.0          # a constant for grad
        ...     return (x * scale).sum()
        >>> sx.grad(f)(sx.Tensor([1.0, 3.0]))
        Tensor(shape=[2], dtype=Float32, value= [2., 6.])
    """

    def __init__(self):
        self._saved: list[int] = []

    def __enter__(self):
        self._saved.append(STATE.level)
        STATE.level = 0
        return self

    def __exit__(self, *exc) -> None:
        STATE.level = self._saved.pop()

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with no_grad():
                return fn(*args, **kwargs)
        return wrapper
