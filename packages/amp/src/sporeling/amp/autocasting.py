"""``autocast``: run a region or a function with the white list in low precision.

PyTorch's ``torch.autocast`` in Sporeling: a context manager, a decorator, and the helper
shape ``autocast(f, enabled=True)``. Inside, white-listed primitives (matmul, convolutions,
einsum) compute in ``dtype`` and return it; black-listed ones (exp, log, softmax,
reductions...) compute in float32; the rest take the widest type of their operands. The
casts are recorded ops, so ``grad`` reaches the float32 parameters; in Graph mode a
function traced inside ``autocast`` (or decorated by it) has the casts in its graph.

    >>> import numpy as np
    >>> import sporeling.expression as sx
    >>> w = sx.Tensor(np.ones((3, 3), np.float32))
    >>> with autocast(dtype=sx.float16):
    ...     y = w @ w
    >>> y.dtype, (w @ w).dtype
    (dtype('float16'), dtype('float32'))
    >>> @autocast(dtype=sx.bfloat16)
    ... def f(x):
    ...     return x @ x
    >>> f(w).dtype
    dtype(bfloat16)
    >>> autocast(lambda x: x @ x, enabled=False)(w).dtype
    dtype('float32')
"""
from __future__ import annotations

import functools

from sporeling.core import dtypes

from .levels import check_dtype
from .lists import black_primitives, resolve_entries, white_primitives
from .policy import CastPolicy, pop_policy, push_policy

__all__ = ["autocast", "Autocast"]


class Autocast:
    """A reusable autocast region: ``with`` it, or decorate a function with it."""

    def __init__(self, dtype=dtypes.float16, enabled: bool = True, white_list=None,
                 black_list=None):
        if not isinstance(enabled, bool):
            raise TypeError(f"autocast: enabled must be True or False, got {enabled!r}")
        self.dtype = check_dtype(dtype, "autocast")
        self.enabled = enabled
        white = white_primitives() if white_list is None else \
            resolve_entries(white_list, "white_list", "autocast")[1]
        black = black_primitives() if black_list is None else \
            resolve_entries(black_list, "black_list", "autocast")[1]
        self.policy = CastPolicy(self.dtype, white, black) if enabled else None

    def __enter__(self):
        push_policy(self.policy)
        return self

    def __exit__(self, *exc):
        pop_policy()
        return False

    def __call__(self, fn):
        if not callable(fn):
            raise TypeError(f"autocast: can only decorate a callable, got "
                            f"{type(fn).__name__}")
        policy = self.policy

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            push_policy(policy)
            try:
                return fn(*args, **kwargs)
            finally:
                pop_policy()
        return wrapper

    def __repr__(self) -> str:
        return f"autocast(dtype={self.dtype}, enabled={self.enabled})"


def autocast(fn=None, /, dtype=dtypes.float16, enabled: bool = True, *, white_list=None,
             black_list=None, cache_enabled=None):
    """An :class:`Autocast` region; given a function, that function wrapped to run in one.

    ``dtype``: float16 (default) or bfloat16. ``enabled=False`` runs without casts (also
    inside an enclosing autocast). ``white_list``/``black_list`` replace the default
    primitive lists (names or Primitives). A device string in first place
    (``autocast("cpu", dtype=...)``, PyTorch's ``device_type``) is accepted and ignored, as
    is ``cache_enabled``.
    """
    region = Autocast(dtype, enabled, white_list, black_list)
    if fn is None or isinstance(fn, str):
        return region
    return region(fn)
