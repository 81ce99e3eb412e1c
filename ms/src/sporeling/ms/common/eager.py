"""``eager_only``: facade functions computed on NumPy values, refused under Graph mode.

A MindSpore function without an ``sx`` primitive to build it from (a Bessel function, say)
may compute eagerly on the tensors' NumPy values. Such a result is a constant: it cannot be
traced into a graph nor differentiated, so it raises :class:`EagerOnlyError` while a Graph-mode
trace runs, or when an input is being differentiated by ``grad``, instead of silently baking
in the tracing values or dropping the gradient. ``differentiable=("input",)`` names the
arguments a function computes on with ``sx`` ops (only the result's shape is read from NumPy
values, e.g. ``masked_select``'s mask): ``grad`` may differentiate those, the gradient flows
through the ops. ``ms/api/coverage.py`` lists the names marked with ``__ms_eager_only__``
in the table's "eager only" column.
"""
from __future__ import annotations

import functools
import inspect

from sporeling.core.errors import SporelingError

__all__ = ["eager_only", "EagerOnlyError"]


class EagerOnlyError(SporelingError, RuntimeError):
    """A facade function that only runs in PyNative was called under Graph-mode tracing."""


def _recorded(value) -> bool:
    """A Tensor (or a list/tuple holding one) that the ``grad`` in progress records."""
    from sporeling.expression.autograd.session import live_node
    if isinstance(value, (list, tuple)):
        return any(_recorded(v) for v in value)
    return live_node(value) is not None


def eager_only(qualname: str, differentiable: tuple[str, ...] = ()):
    """Mark ``fn`` (facade name ``qualname``, e.g. ``"ops.bessel_k0"``) as PyNative-only;
    ``grad`` may differentiate the arguments named in ``differentiable``."""
    def wrap(fn):
        signature = inspect.signature(fn)

        def checked(args, kwargs):
            if not differentiable:
                return (*args, *kwargs.values())
            bound = signature.bind_partial(*args, **kwargs).arguments
            return tuple(v for k, v in bound.items() if k not in differentiable)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            from sporeling.expression.graph import is_tracing
            if is_tracing():
                raise EagerOnlyError(
                    f"{qualname} has no Graph-mode/gradient support in sporeling.ms",
                    expected="a call in PyNative mode (outside jit / GRAPH_MODE)",
                    got="a call while a Graph-mode trace runs",
                    hint="compute it outside the compiled function or use PyNative mode")
            if any(_recorded(a) for a in checked(args, kwargs)):
                raise EagerOnlyError(
                    f"{qualname} has no Graph-mode/gradient support in sporeling.ms",
                    expected="inputs that grad is not differentiating",
                    got="an input recorded by the grad in progress (its gradient would be "
                        "silently lost)",
                    hint="apply stop_gradient()/detach() to the input if no gradient is "
                         "wanted through it")
            return fn(*args, **kwargs)
        wrapper.__ms_eager_only__ = True
        wrapper.__ms_differentiable__ = tuple(differentiable)
        return wrapper
    return wrap
