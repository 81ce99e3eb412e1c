"""Graph mode: the cast-insertion and cast-elimination passes.

With ``set_context(amp_level=..., amp_dtype=...)`` every graph the compiler optimises (a
``jit`` function, a Graph-mode Cell, a ``TrainOneStepCell``'s forward and backward) is
converted after tracing, in float32, by the AMP class each primitive declares
(``Primitive("matmul", amp="white")``; see :mod:`.lists`):

* ``amp_cast_insertion`` (stage ``canonicalize``): each equation to run in another dtype
  gets its float operands cast to it, is re-bound there, and its float outputs are cast
  back -- so every value keeps its traced type and the rewrite is local. O1 and auto move
  the white class down (the black class is float32 already); O2 moves everything but the
  black and ``never`` classes; O3 everything but ``never``.
  Control-flow sub-graphs are converted inside.
* ``amp_cast_elimination`` (stage ``simplify``, before ``simplify``): a cast of a cast whose
  first step lost nothing (float16 -> float32 -> float16) becomes one cast or none, and the
  casts left unused are dropped -- in an O2 graph the chains between neighbours in float16
  vanish, leaving casts only at the float32 inputs and around the black list. It runs at
  ``graph_opt_level`` O0 too.

Equations the trace marked in ``graph.meta["amp_keep"]`` (their output Vars) keep their
dtype at every level: an optimiser's update and the ``assign`` of the new values, so a
``TrainOneStepCell`` compiled at O2/O3 updates its float32 master weights in float32.

``PassContext.options["amp_level"]`` / ``["amp_dtype"]`` override the context (a flag on one
compilation).

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> from sporeling.compiler.passes import PassContext
    >>> g = make_graph(lambda x, w: ops.exp(ops.relu(ops.matmul(x, w))),
    ...                np.ones((2, 3), np.float32), np.ones((3, 3), np.float32))
    >>> ctx = PassContext(options={"amp_level": "O2", "amp_dtype": np.float16})
    >>> g2 = CAST_ELIMINATION.run(CAST_INSERTION.run(g, ctx), ctx)
    >>> [(eq.prim.name, str(eq.outputs[0].aval.dtype)) for eq in g2.equations]
    [('cast', 'float16'), ('cast', 'float16'), ('matmul', 'float16'), ('relu', 'float16'), ('cast', 'float32'), ('exp', 'float32')]
"""
from __future__ import annotations

import numpy as np

from sporeling.compiler.core import Aval
from sporeling.compiler.ir import Const, Equation
from sporeling.compiler.passes import Pass, PassContext, Rewriter, rewrite
from sporeling.compiler.passes.dce import eliminate_dead_code
from sporeling.core import ContextError, SporelingError, dtypes, get_context

from .levels import check_dtype, check_level

__all__ = ["CAST_INSERTION", "CAST_ELIMINATION", "insert_casts", "eliminate_casts",
           "amp_setting"]

_F32 = dtypes.float32


def amp_setting(ctx: PassContext) -> tuple[str, np.dtype]:
    """``(level, low dtype)`` for this compilation: the pass options, else the context."""
    def read(key, default):
        if key in ctx.options:
            return ctx.options[key]
        try:
            return get_context(key)
        except ContextError:  # a plugin host without the amp plugin's keys (tests)
            return default
    level = check_level(read("amp_level", "O0"), "amp_cast_insertion")
    return level, check_dtype(read("amp_dtype", dtypes.float16), "amp_cast_insertion")


def _enabled(ctx: PassContext) -> bool:
    return amp_setting(ctx)[0] != "O0"


def _target(prim, level: str, low):
    """The dtype the equation's float32 values move to, or None to leave it (by the AMP
    class the primitive declares)."""
    if prim.amp == "never":
        return None
    if level in ("O1", "auto"):
        return low if prim.amp == "white" else None
    if level == "O2" and prim.amp == "black":
        return None
    return low


def _operand(v, dtype, rw: Rewriter):
    if np.dtype(v.aval.dtype) != _F32:
        return v
    if isinstance(v, Const):
        return Const(np.asarray(v.value).astype(dtype))
    return rw.bind("cast", v, dtype=dtype)


def _insertion_rule(level: str, low):
    def rule(eq: Equation, rw: Rewriter):
        target = _target(eq.prim, level, low)
        if target is None or not any(np.dtype(v.aval.dtype) == _F32 for v in eq.inputs):
            return None
        keep = rw.graph.meta.get("amp_keep")
        if keep and eq.outputs and all(v in keep for v in eq.outputs):
            rw.ctx.count("amp.kept")  # an optimiser's update: the master weights' float32
            return None
        try:  # the rule must accept the new dtype: check before emitting anything
            eq.prim.abstract(*(_aval(v, target) for v in eq.inputs), **eq.params)
        except SporelingError:
            rw.ctx.count("amp.kept")
            return None
        outs = rw.bind(eq.prim, *(_operand(v, target, rw) for v in eq.inputs), **eq.params)
        outs = outs if eq.prim.multiple_results else (outs,)
        back = [o if np.dtype(o.aval.dtype) == np.dtype(old.aval.dtype)
                else rw.bind("cast", o, dtype=np.dtype(old.aval.dtype))
                for o, old in zip(outs, eq.outputs)]
        rw.ctx.count("amp.converted")
        return tuple(back) if eq.prim.multiple_results else back[0]
    return rule


def _aval(v, target):
    a = v.aval
    return Aval(tuple(a.shape), target) if np.dtype(a.dtype) == _F32 else a


def insert_casts(graph, ctx: PassContext):
    """``graph`` converted to the level of ``ctx`` (see the module doc)."""
    level, low = amp_setting(ctx)
    if level == "O0":
        return graph
    return rewrite(graph, _insertion_rule(level, low), ctx)


def _lossless(a, b) -> bool:
    return np.can_cast(np.dtype(a), np.dtype(b), "safe")


def _collapse(eq: Equation, rw: Rewriter):
    if eq.prim.name != "cast":
        return None
    x, dtype = eq.inputs[0], np.dtype(eq.outputs[0].aval.dtype)
    inner = rw.producer(x)
    if inner is not None and inner.prim.name == "cast" and \
            _lossless(inner.inputs[0].aval.dtype, x.aval.dtype):
        x = inner.inputs[0]
        rw.ctx.count("amp.casts_removed")
        if np.dtype(x.aval.dtype) != dtype:
            return rw.bind("cast", x, dtype=dtype)
    if np.dtype(x.aval.dtype) == dtype:
        return x
    return None


def eliminate_casts(graph, ctx: PassContext):
    """``graph`` without cast round trips that cancel, nor the casts left unused."""
    out = rewrite(graph, _collapse, ctx)
    return out if out is graph else eliminate_dead_code(out, ctx)


CAST_INSERTION = Pass("amp_cast_insertion", insert_casts, stage="canonicalize",
                      min_level="O0", order=50, enabled=_enabled,
                      doc="AMP: cast equations to the amp_level's dtype by the "
                          "white/black lists")
CAST_ELIMINATION = Pass("amp_cast_elimination", eliminate_casts, stage="simplify",
                        min_level="O0", order=15, enabled=_enabled,
                        doc="AMP: remove cast round trips that cancel "
                            "(float16 -> float32 -> float16)")
