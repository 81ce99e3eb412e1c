"""``Primitive``: the base of MindSpore-style operator classes, and ``primitive``, the one
factory that makes each class a thin adapter over a function.

A class is configured once (``ops.ReduceSum(keep_dims=True)``: the constructor's arguments
become attributes, also in ``.attrs``) and then called on tensors
(``reduce_sum(x, axis)``). ``shard(in_strategy)`` annotates the op for operator parallelism
when sporeling-parallel is installed: inside a function run by ``sporeling.parallel.shard``
(or a sharded Cell) the op recorded by the call gets the strategy and the others follow by
propagation; run whole on one device otherwise. ``set_device(...)`` and extra attributes from
``add_prim_attr`` are recorded and inert.
"""
from __future__ import annotations

import contextlib
import importlib
import inspect
from typing import Callable

from sporeling.core.errors import SporelingError

__all__ = ["Primitive", "primitive"]

_NO_DEFAULT = inspect.Parameter.empty


class Primitive:
    """Base of the primitive classes: a name, attributes, and inert parallel settings."""

    def __init__(self, name: str | None = None):
        self.name = name or type(self).__name__
        self.attrs: dict = {}
        self.in_strategy = None
        self.out_strategy = None
        self.device = None

    def add_prim_attr(self, name: str, value) -> "Primitive":
        """Record an attribute (MindSpore passes them to kernels; here they are kept only)."""
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name: str) -> "Primitive":
        self.attrs.pop(name, None)
        return self

    def shard(self, in_strategy=None, out_strategy=None, **kwargs) -> "Primitive":
        """Set the op's sharding strategy: one tuple per input, one number of slices per
        dimension (``ops.MatMul().shard(((2, 1), (1, 1)))``); see the module doc."""
        self.in_strategy, self.out_strategy = in_strategy, out_strategy
        self.attrs.update(in_strategy=in_strategy, out_strategy=out_strategy, **kwargs)
        return self

    def set_device(self, device_target: str) -> "Primitive":
        """Record a device target (inert: one backend runs everything)."""
        self.device = device_target
        return self

    def __call__(self, *args, **kwargs):
        raise SporelingError("a bare Primitive has no computation", op=self.name,
                             expected="a primitive class such as ops.ReduceSum",
                             got="ops.Primitive")

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.attrs.items() if k not in ("in_strategy", "out_strategy")}
        args = ", ".join(f"{k}={v!r}" for k, v in shown.items())
        return f"Prim[{self.name}]" + (f"<{args}>" if args else "")


def _sharding(in_strategy):
    """sporeling.parallel's annotation of the op recorded inside the block, when a strategy
    is set and the package is installed (the facade does not depend on it)."""
    if in_strategy is None:
        return contextlib.nullcontext()
    try:
        annotate = importlib.import_module("sporeling.parallel.operator.annotate")
    except ImportError:
        return contextlib.nullcontext()
    return annotate.strategy(in_strategy)


def primitive(name: str, init: Callable, call: Callable, doc: str) -> type:
    """A ``Primitive`` subclass named ``name``: ``init``'s signature (a function whose
    parameters are the constructor's, with their defaults) sets the attributes; ``call(self,
    *inputs)`` computes, reading them from ``self``."""
    signature = inspect.signature(init)

    def __init__(self, *args, **kwargs):
        Primitive.__init__(self, name)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise SporelingError(f"bad arguments for ops.{name}", op=f"ops.{name}",
                                 expected=f"ops.{name}{signature}", got=str(exc)) from None
        bound.apply_defaults()
        for key, value in bound.arguments.items():
            setattr(self, key, value)
            self.attrs[key] = value
        init(**bound.arguments)  # validates the attributes (raises on bad ones)

    def __call__(self, *inputs, **kwargs):
        with _sharding(self.in_strategy):
            return call(self, *inputs, **kwargs)

    cls = type(name, (Primitive,), {"__init__": __init__, "__call__": __call__,
                                    "__doc__": doc, "__module__": "sporeling.ms.ops"})
    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
         *signature.parameters.values()])
    return cls
