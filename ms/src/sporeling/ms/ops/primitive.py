"""``ms.ops.primitive``: ``from mindspore.ops.primitive import Primitive, constexpr``."""
from .primitives import Primitive

__all__ = ["Primitive", "constexpr"]


def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    """MindSpore's ``@constexpr``: ``fn`` runs in Python on constant arguments while a graph
    compiles. Sporeling's tracer runs any Python code at compile time, so ``fn`` is returned
    as is (the keywords are accepted and change nothing)."""
    if fn is None:
        return constexpr
    return fn
