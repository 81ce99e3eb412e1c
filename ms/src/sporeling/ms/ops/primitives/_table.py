"""The declaration helpers of the table-driven primitive classes (``*_table.py``).

A class is one line: ``same("Acos", F.acos)`` when the class takes no attributes and its
inputs are the function's arguments; ``op("CumProd", "exclusive=False, reverse=False",
lambda self, x, axis: ...)`` otherwise, the attributes given as a Python parameter list
(MindSpore's ``__init__``, defaults included) and read from ``self`` by the call. A class
over an eager-only function is eager only itself (``ms/api/coverage.py`` lists it so)."""
from __future__ import annotations

import inspect
from types import SimpleNamespace

import numpy as np

from sporeling.ms.common import eager_only

from .. import functional_array as _fa
from .. import functional_math as _fm
from .base import primitive

# the facade's functions, one namespace (``ms.ops``'s, which imports this package)
F = SimpleNamespace(**{n: getattr(m, n) for m in (_fm, _fa) for n in m.__all__})


def _init(params: str):
    """A no-op function with the parameter list ``params`` (its signature is the class's)."""
    def init(**_):
        pass
    # the declarations' own constant text: the parameter list, defaults and all
    init.__signature__ = inspect.signature(eval(f"lambda {params}: None", {"np": np}))  # noqa: S307
    return init


def op(name: str, params: str, call, doc: str = "", eager: bool = False) -> type:
    """A primitive class ``name`` with attributes ``params`` computing ``call(self, *inputs)``;
    ``eager``: computed on NumPy values, so refused under Graph mode and for inputs ``grad``
    differentiates (``sporeling.ms.common.eager_only``)."""
    if eager:
        call = eager_only(f"ops.{name}")(call)
    cls = primitive(name, _init(params), call,
                    doc or f"MindSpore's ``ops.{name}({params})``, over the facade's functions.")
    if eager:
        cls.__ms_eager_only__ = True
    return cls


def same(name: str, fn, doc: str = "", eager: bool = False) -> type:
    """A class without attributes whose call is ``fn(*inputs)`` (eager only when ``fn`` is)."""
    return op(name, "", lambda self, *inputs: fn(*inputs),
              doc or f"``ops.{name}()(...)``: ``{fn.__name__}(...)``.",
              eager or getattr(fn, "__ms_eager_only__", False))


def table(namespace: dict, classes: list[type]) -> list[str]:
    """Bind ``classes`` in the module ``namespace``; their names (its ``__all__``)."""
    namespace.update({c.__name__: c for c in classes})
    return [c.__name__ for c in classes]
