"""The op-level cast policy: casts the operands of listed primitives as they are bound.

A :class:`CastPolicy` maps primitive names to a compute dtype: the white list to the low
dtype (only float32 operands are cast down), the black list to float32 (only float16 and
bfloat16 operands are cast up). Other primitives run as they are.

**How it reaches every op.** ``sporeling.compiler.bind`` hands a primitive to the
interpreter that owns its operands; every ``Tensor`` names the PyNative interpreter through
the class attribute ``Tensor._interpreter``. While at least one policy is active (in any
thread) that attribute points at :data:`AUTOCAST`, a proxy at the PyNative interpreter's
level: it casts the listed operands -- through PyNative itself, so the casts are ordinary
recorded ops (gradients flow back through them to the float32 values) -- then hands the
primitive on. While a Graph-mode trace runs, PyNative binds on the tracers, so the same
casts land in the graph. Policies are per thread; the proxy is installed only while some
policy is active, so code outside AMP pays nothing. Backward rules of a recorded step run
on the values the forward saved, not through the policy, as autocast does in PyTorch.

    >>> import numpy as np
    >>> import sporeling.expression as sx
    >>> from sporeling.core import dtypes
    >>> a = sx.Tensor(np.ones((2, 2), np.float32))
    >>> with policy_scope(CastPolicy(dtypes.float16, white={"matmul"})):
    ...     (a @ a).dtype, (a + a).dtype
    (dtype('float16'), dtype('float32'))
"""
from __future__ import annotations

import threading

from sporeling.compiler import primitives
from sporeling.compiler.core import Interpreter
from sporeling.core import dtypes
from sporeling.expression.autograd.interpreter import PYNATIVE
from sporeling.expression.tensor.tensor import Tensor

__all__ = ["CastPolicy", "AUTOCAST", "policy_scope", "push_policy", "pop_policy",
           "current_policy", "run_under"]

_LOW = (dtypes.float16, dtypes.bfloat16)


class CastPolicy:
    """Primitive name -> the dtype its floating operands are computed in."""

    __slots__ = ("low", "targets")

    def __init__(self, low, white=(), black=()):
        self.low = dtypes.dtype(low)
        self.targets = {**{name: self.low for name in white},
                        **{name: dtypes.float32 for name in black}}

    def __repr__(self) -> str:
        return f"CastPolicy(low={self.low}, {len(self.targets)} primitives)"


class _State(threading.local):
    def __init__(self):
        self.stack: list = []


_STATE = _State()
_LOCK = threading.Lock()
_ACTIVE = [0, None]  # policies active in all threads; the interpreter the proxy replaced
_cast_p = None


def _cast(a, target):
    dtype = getattr(a, "dtype", None)
    if dtype is None or dtype == target:
        return a
    if target == dtypes.float32 and dtype not in _LOW:
        return a
    if target != dtypes.float32 and dtype != dtypes.float32:
        return a
    return PYNATIVE.apply(_cast_p, (a,), {"dtype": target})


class AutocastInterpreter(Interpreter):
    """PyNative with the current thread's :class:`CastPolicy` applied first."""

    level = PYNATIVE.level

    def apply(self, prim, args, params):
        stack = _STATE.stack
        policy = stack[-1] if stack else None
        if policy is not None:
            target = policy.targets.get(prim.name)
            if target is not None:
                args = tuple(_cast(a, target) for a in args)
        return PYNATIVE.apply(prim, args, params)

    def compile_key(self):
        """What a compiled graph depends on: the current policy's casts (the compile cache
        of ``sporeling.expression`` adds this to its key)."""
        stack = _STATE.stack
        policy = stack[-1] if stack else None
        return None if policy is None else tuple(sorted(
            (name, str(dtype)) for name, dtype in policy.targets.items()))


AUTOCAST = AutocastInterpreter()


def push_policy(policy: CastPolicy | None) -> None:
    """Make ``policy`` current in this thread (None: no policy, e.g. ``enabled=False``)."""
    global _cast_p
    if _cast_p is None:
        _cast_p = primitives()["cast"]
    with _LOCK:
        if _ACTIVE[0] == 0:
            _ACTIVE[1] = Tensor.__dict__.get("_interpreter")
            Tensor._interpreter = AUTOCAST
        _ACTIVE[0] += 1
    _STATE.stack.append(policy)


def pop_policy() -> None:
    """Undo the latest :func:`push_policy` of this thread."""
    _STATE.stack.pop()
    with _LOCK:
        _ACTIVE[0] -= 1
        if _ACTIVE[0] == 0:
            Tensor._interpreter = _ACTIVE[1]


def current_policy() -> CastPolicy | None:
    """This thread's active policy, or None."""
    stack = _STATE.stack
    return stack[-1] if stack else None


class policy_scope:
    """``with policy_scope(policy):`` -- :func:`push_policy` on entry, pop on exit."""

    __slots__ = ("policy",)

    def __init__(self, policy: CastPolicy | None):
        self.policy = policy

    def __enter__(self):
        push_policy(self.policy)
        return self.policy

    def __exit__(self, *exc):
        pop_policy()
        return False


def run_under(policy: CastPolicy | None, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with ``policy`` current (a plain call, so the Graph-mode
    front end, which converts a ``construct``'s own statements, runs it as Python)."""
    push_policy(policy)
    try:
        return fn(*args, **kwargs)
    finally:
        pop_policy()
