"""Rule helpers the plugin's primitives share."""
from __future__ import annotations

from sporeling.compiler import def_backward
from sporeling.compiler.core import MissingRuleError

__all__ = ["first_order_only"]


def first_order_only(prim, what: str):
    """A backward rule for ``prim`` that refuses, by name: the tape may record ``prim``
    inside a gradient that is differentiated again, but only reaching it is an error."""
    @def_backward(prim, uses=())
    def refuse(ct, *args, out, **params):
        raise MissingRuleError(f"no second derivative {what}", op=prim.name,
                               expected="first-order gradients through this value",
                               got="a gradient of its gradient")
    return refuse
