"""Primitives: the atoms every op is built from.

A primitive has a name, an abstract-evaluation rule (shapes and dtypes in, shapes and dtypes
out, raising ``ShapeError``/``DTypeError`` that name the primitive), a backward rule written
with the functional ops, optionally batching and sharding rules, and how it lowers when a
backend has no kernel for it (a lowering rule, a Python ``impl``, or a decomposition into
other primitives); kernels live per backend in ``sporeling.runtime``, keyed by the
primitive's name. :func:`bind` hands a primitive and its operands to whichever interpreter
owns the operands (eager NumPy, PyNative recording, graph tracing), so one backward rule
serves every mode.

    >>> import numpy as np
    >>> from sporeling.compiler import primitives
    >>> add = primitives()["add"]
    >>> bind(add, np.ones(2, np.float32), np.ones(2, np.float32))
    array([2., 2.], dtype=float32)
"""
from __future__ import annotations

import sys

from typing import Any, Callable

import numpy as np

from sporeling.core import PluginError, Registry, SporelingError, get_plugin_host
from sporeling.core.hooks import declare_registry

from .aval import Aval
from .stack import receiver

__all__ = ["Primitive", "AMP_CLASSES", "PrimitiveRegistry", "primitives", "defined_primitives", "bind",
           "MissingRuleError"]


class MissingRuleError(SporelingError, NotImplementedError):
    """A transformation met a primitive that has no rule for it."""


AMP_CLASSES = ("white", "black", "promote", "never")
"""The mixed-precision classes a primitive may declare (``amp=``): computed in the low
dtype, kept in float32, run in the widest type of its operands, never recast."""


class Primitive:
    """A named operation and everything the compiler knows about it: its traits (given
    here) and its rules (attached with the ``def_*`` helpers next to the definition).

    Traits:

    * ``elementwise``: each result element depends only on the same (broadcast) element
      of every operand, and the result has the broadcast shape. Such a primitive needs no
      batching or sharding rule of its own: vmap lines its operands up, operator parallel
      splits it along any dimension.
    * ``fusible``: the elementwise fusion pass may put it in a ``fused_elementwise`` chain
      (its kernel computes elementwise with broadcasting and writes ``out=``).
    * ``amp``: its mixed-precision class, one of :data:`AMP_CLASSES` or None (no class:
      each AMP level's default applies).
    * ``nondeterministic``: two applications to equal operands may differ (random draws):
      common-subexpression elimination never merges them and constant folding never folds
      them.
    * ``fresh_per_run``: bound without operands, every application is a new value
      (``rng_seed``): :func:`bind` gives it to the innermost trace -- an equation run on
      every execution of the graph -- instead of computing it once while tracing.
    * ``core``: in the core set, the primitives every backend implements itself (see
      :mod:`.core_set`); any other has a decomposition into them, or is an extension a
      backend may add.

    How it runs where a backend has no kernel for it, in the order lowering tries them:
    ``lowering`` (``def_lowering``: a kernel built from the equation, e.g. control flow
    running sub-programs), the backend's kernel, ``impl`` (``def_impl``: Python run in
    place of a kernel), ``decomposition`` (``def_decomposition``: the primitive written
    with other primitives, traced into the graph; a ``core`` primitive has none: every
    backend implements it).

    What a kernel does with memory (writes ``out=``, works in place, returns a view) is
    the backend's to say, where the kernel is registered.
    """

    __slots__ = ("name", "multiple_results", "differentiable", "abstract_eval", "doc", "impl",
                 "module", "elementwise", "fusible", "amp", "nondeterministic", "batching",
                 "sharding", "backward", "fresh_per_run", "lowering", "decomposition",
                 "core", "describe")

    def __init__(self, name: str, *, multiple_results: bool = False,
                 differentiable: bool = True, doc: str = "", elementwise: bool = False,
                 fusible: bool = False, amp: str | None = None,
                 nondeterministic: bool = False, fresh_per_run: bool = False,
                 core: bool = False):
        if amp is not None and amp not in AMP_CLASSES:
            raise SporelingError(f"primitive {name!r}: unknown AMP class", op=name,
                                 expected="one of " + ", ".join(AMP_CLASSES) + " or None",
                                 got=repr(amp))
        if fusible and multiple_results:
            raise SporelingError(f"primitive {name!r} cannot be fusible", op=name,
                                 expected="one result (a fused chain passes one value on)",
                                 got="multiple_results=True")
        self.name = name
        self.multiple_results = multiple_results
        self.differentiable = differentiable
        self.abstract_eval: Callable[..., Aval | tuple[Aval, ...]] | None = None
        self.doc = doc
        self.elementwise, self.fusible, self.amp = bool(elementwise), bool(fusible), amp
        self.nondeterministic = bool(nondeterministic)
        self.fresh_per_run = bool(fresh_per_run)
        self.core = bool(core)
        # a Python implementation the eager interpreter runs instead of a backend kernel
        # (control flow: it evaluates sub-graphs, which no runtime kernel knows)
        self.impl: Callable | None = None
        # rule(args, dims, **params) -> (out, out_dim) for vmap (core.batching)
        self.batching: Callable | None = None
        # rule(eq) -> OpDims | None for operator parallel (core.sharding)
        self.sharding: Callable | None = None
        # the BackwardRule def_backward attaches (core.rules)
        self.backward = None
        # rule(eq, lower_sub) -> kernel, for what no backend kernel can do (lowering)
        self.lowering: Callable | None = None
        # fn(*inputs, **params) written with ops: this primitive in terms of others
        self.decomposition: Callable | None = None
        # fn(**params) -> str: what a compiled program's report says of a call beside the
        # primitive's name (a wrapper primitive: what it wraps)
        self.describe: Callable[..., str] | None = None
        # the defining module: each package grad-checks its own primitives
        self.module: str = sys._getframe(1).f_globals.get("__name__", "?")
        if name in _DEFINED:
            raise SporelingError(f"primitive {name!r} is defined twice",
                                 expected="unique primitive names", got=name)
        _DEFINED[name] = self

    def def_abstract_eval(self, rule: Callable[..., Aval | tuple[Aval, ...]]):
        """``rule(*avals, **params) -> Aval`` (or a tuple of them); usable as a decorator."""
        self.abstract_eval = rule
        return rule

    def def_describe(self, rule: Callable[..., str]):
        """``rule(**params) -> str``: a call's detail in ``jit(f).explain()``; usable as a
        decorator."""
        self.describe = rule
        return rule

    def def_impl(self, impl: Callable):
        """``impl(*arrays, **params)`` runs this primitive eagerly in place of a kernel;
        usable as a decorator."""
        self.impl = impl
        return impl

    def def_batching(self, rule: Callable):
        """``rule(args, dims, **params) -> (out, out_dim)`` batches this primitive for
        ``vmap`` (see :mod:`.batching`); usable as a decorator."""
        self.batching = rule
        return rule

    def def_sharding_rule(self, rule: Callable):
        """``rule(eq) -> OpDims | None`` labels the dimensions of this primitive's
        operands for operator parallel (see :mod:`.sharding`); usable as a decorator."""
        self.sharding = rule
        return rule

    def def_lowering(self, rule: Callable):
        """``rule(eq, lower_sub) -> kernel`` lowers this primitive's equations whatever the
        backend (control flow: the kernel runs lowered sub-programs); usable as a decorator.
        ``lower_sub(graph)`` lowers a sub-graph and returns a function of its flat inputs
        giving the list of its outputs; the kernel is called as ``kernel(backend, *inputs)``
        and returns one value (a tuple for multiple results)."""
        self.lowering = rule
        return rule

    def def_decomposition(self, fn: Callable):
        """``fn(*inputs, **params)``, written with the functional ops, computes this
        primitive from others (returning a tuple for multiple results); usable as a
        decorator. Lowering traces it into the graph in place of an equation whose backend
        has no kernel for this primitive (see :mod:`sporeling.compiler.lowering.decompose`).
        Write only exact decompositions: the same function, not an approximation of it."""
        self.decomposition = fn
        return fn

    def abstract(self, *avals, **params):
        """Shapes and dtypes of the result, or a clear error naming this primitive."""
        if self.abstract_eval is None:
            raise MissingRuleError(f"primitive {self.name!r} has no abstract-evaluation rule",
                                   op=self.name)
        return self.abstract_eval(*avals, **params)

    def bind(self, *args, **params):
        return bind(self, *args, **params)

    def __repr__(self) -> str:
        return f"<primitive {self.name}>"


_DEFINED: dict[str, Primitive] = {}  # every Primitive constructed in this process


def defined_primitives() -> dict[str, Primitive]:
    """Every primitive constructed so far, by name, whether or not a plugin contributed it
    (the compiler's own modules use this while they are being imported)."""
    return _DEFINED


class PrimitiveRegistry(Registry[Primitive]):
    """What ``sporeling_add_primitives`` fills: primitive name -> :class:`Primitive`."""

    def __init__(self) -> None:
        super().__init__("primitive")

    def add_primitive(self, *prims: Primitive, replace: bool = False) -> None:
        """Contribute ``prims`` (their rules attached where they are defined)."""
        for prim in prims:
            if not isinstance(prim, Primitive):
                raise PluginError(f"plugin {self.source!r} contributed a non-primitive",
                                  expected="sporeling.compiler.Primitive", got=repr(prim))
            self.add(prim.name, prim, replace=replace)

    def add_defined_in(self, package: str) -> None:
        """Contribute every primitive whose defining module is ``package`` or below it."""
        self.add_primitive(*(p for p in list(_DEFINED.values())
                             if p.module == package or p.module.startswith(package + ".")))


declare_registry("sporeling_add_primitives", PrimitiveRegistry)


def primitives() -> PrimitiveRegistry:
    """Every primitive the installed plugins contribute (the compiler's built-ins included),
    collected once per plugin host through ``sporeling_add_primitives``."""
    return get_plugin_host().registry("sporeling_add_primitives")


def bind(prim: Primitive, *args: Any, **params: Any):
    """Apply ``prim`` through the interpreter that owns the operands.

    The owner is the highest-level interpreter among the operands' ``_interpreter``
    attributes; plain arrays and scalars belong to the eager NumPy interpreter. A fresh
    primitive bound without operands (``rng_seed``) goes to this thread's innermost trace
    (see :mod:`.stack`).
    """
    best = None
    for a in args:
        if type(a) is _ndarray:  # eager's (a failed getattr costs an exception)
            continue
        interp = getattr(a, "_interpreter", None)
        if interp is not None and (best is None or interp.level > best.level):
            best = interp
    if best is None:
        if not args and prim.fresh_per_run:  # a new value per run: the innermost trace's
            layer = receiver()
            if layer is not None:
                return layer.apply(prim, args, params)
        best = _EAGER[0] or _load_eager()
    return best.apply(prim, args, params)


_ndarray = np.ndarray
_EAGER: list = [None]  # the eager interpreter, imported on first use (it imports us)


def _load_eager():
    from .interpreter import eager
    _EAGER[0] = eager
    return eager
