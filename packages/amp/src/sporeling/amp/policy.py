"""The op-level cast policy: casts the operands of listed primitives as they are bound.

A :class:`CastPolicy` maps primitive names to a compute dtype: the white list to the low
dtype (only float32 operands are cast down), the black list to float32 (only float16 and
bfloat16 operands are cast up). Other primitives run as they are.

**How it reaches every op.** A policy is a layer of this thread's interpreter stack
(:mod:`sporeling.compiler.core.stack`): the PyNative interpreter, which runs every Tensor op,
hands the operands to the innermost layer's ``operand_hook`` first. It casts the listed
operands -- through PyNative itself, so the casts are ordinary recorded ops (gradients flow
back through them to the float32 values) -- then the op runs. While a Graph-mode trace runs,
PyNative binds on the tracers, so the same casts land in the graph. Policies are per thread
and nothing global changes: code outside AMP, and other threads, pay nothing. Backward rules
of a recorded step run on the values the forward saved, not through the policy, as autocast
does in PyTorch.

    >>> import numpy as np
    >>> import sporeling.expression as sx
    >>> from sporeling.core import dtypes
    >>> a = sx.Tensor(np.ones((2, 2), np.float32))
    >>> with policy_scope(CastPolicy(dtypes.float16, white={"matmul"})):
    ...     (a @ a).dtype, (a + a).dtype
    (dtype('float16'), dtype('float32'))
"""
from __future__ import annotations

from sporeling.compiler import primitives
from sporeling.compiler.core.stack import Layer, innermost, pop, push
from sporeling.core import dtypes
from sporeling.expression.autograd.interpreter import PYNATIVE

__all__ = ["CastPolicy", "AutocastLayer", "policy_scope", "push_policy", "pop_policy",
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


class AutocastLayer(Layer):
    """A policy on the interpreter stack (``policy`` None: no casts, e.g. ``enabled=False``
    inside an enclosing autocast -- the innermost layer decides)."""

    def __init__(self, policy: CastPolicy | None):
        self.policy = policy

    def operand_hook(self, prim, args):
        policy = self.policy
        if policy is not None:
            target = policy.targets.get(prim.name)
            if target is not None:
                return tuple(_cast(a, target) for a in args)
        return args

    def compile_key(self):
        """What a compiled graph depends on: the policy's casts (the compile cache of
        ``sporeling.expression`` adds this to its key)."""
        policy = self.policy
        return None if policy is None else tuple(sorted(
            (name, str(dtype)) for name, dtype in policy.targets.items()))


def push_policy(policy: CastPolicy | None) -> None:
    """Make ``policy`` current in this thread (None: no policy, e.g. ``enabled=False``)."""
    global _cast_p
    if _cast_p is None:
        _cast_p = primitives()["cast"]
    push(AutocastLayer(policy))


def pop_policy() -> None:
    """Undo the latest :func:`push_policy` of this thread."""
    layer = innermost(AutocastLayer)
    if layer is not None:
        pop(layer)


def current_policy() -> CastPolicy | None:
    """This thread's active policy, or None."""
    layer = innermost(AutocastLayer)
    return None if layer is None else layer.policy


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
