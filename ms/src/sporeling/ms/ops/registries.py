"""``ops.vm_impl_registry``, ``ops.tensor_operator_registry`` and ``ops.ReduceOp``: MindSpore's
name registries and its collective reduction names."""
from __future__ import annotations

from collections import UserDict

from sporeling.core.errors import ArgumentError

__all__ = ["Registry", "vm_impl_registry", "tensor_operator_registry", "ReduceOp"]


class Registry(UserDict):
    """A name -> object table (MindSpore's ``Registry``): ``register(key, obj)``, or
    ``@registry.register(key)`` as a decorator; a key is a name or a class (kept by its
    name). ``get(key)`` also takes a primitive instance: its class's entry, else its name's."""

    @staticmethod
    def _name(key) -> str:
        if isinstance(key, str):
            return key
        if isinstance(key, type):
            return key.__name__
        raise ArgumentError("a registry key must be a name or a class", expected="str or type",
                            got=type(key).__name__)

    def register(self, key, obj=None):
        name = self._name(key)
        if obj is None:
            def deco(fn):
                self[name] = fn
                return fn
            return deco
        self[name] = obj
        return obj

    def get(self, key, default=None):
        if isinstance(key, (str, type)):
            return self.data.get(self._name(key), default)
        for name in (type(key).__name__, getattr(key, "name", None)):
            if name in self.data:
                return self.data[name]
        return default


class _FacadeFallback(Registry):
    """``tensor_operator_registry``: what is registered, else the ``ms.ops`` function or
    primitive class of that name (MindSpore registers its Tensor methods' ops there)."""

    def get(self, key, default=None):
        found = super().get(key)
        if found is not None:
            return found
        from sporeling.ms import ops
        return getattr(ops, key, default) if isinstance(key, str) else default


vm_impl_registry = Registry()
tensor_operator_registry = _FacadeFallback()


class ReduceOp:
    """The reductions of the collective ops (``ops.AllReduce(op=ReduceOp.SUM)``)."""
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
