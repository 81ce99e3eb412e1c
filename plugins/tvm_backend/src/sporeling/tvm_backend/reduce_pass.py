"""Graph mode's ``fuse_reductions`` pass on the TVM backend: a sum or mean whose operand is
an elementwise chain nothing else reads becomes one ``fused_reduce`` equation
(:mod:`.fused_reduce`), so the chain's value is summed where it is computed instead of being
written out and read back -- a batch norm's backward ``sum(dy * x_hat)`` over (N, H, W) is
one pass over its operands instead of three.

It runs after elementwise fusion (and oneDNN's layout pass), in graphs lowered on this
backend only (context key ``tvm_fuse_reductions``, default True). A reduction of a reduction
with nothing else reading the inner one is first made one (the layout pass sums a blocked
array over the batch, then over (H, W): NumPy's one call over both was 20x slower; the
generated loop reads memory once). A reduction of a chain others read too (a dense
layer's bias gradient) becomes a ``fused_reduce`` of that result, which the group pass
then computes in the chain's function; a reduction of anything else is generated alone
(NumPy's sum over a (128, 10) gradient's rows: 20 us, the generated loop's: ~2 us; and a
program whose kernels are all native runs as one native step). Taken: float sums and means
that keep the operand's innermost axis, or of small values (see :mod:`.reduction`), of
chains TVM generates; a large one along the innermost axis of a value, in lanes
(:func:`_in_lanes`); anything else stays as it was.
"""
from __future__ import annotations

from sporeling.compiler.core import Aval
from sporeling.compiler.ir import Equation, Graph, Var
from sporeling.compiler.passes import Pass, PassContext, fused_elementwise_p
from sporeling.compiler.passes.fusion import fusible, fused_equation
from sporeling.compiler.passes.rewrite import map_subgraphs

from .backend import enabled_by
from .fused_reduce import REDUCTIONS, fused_reduce_p
from .reduction import reduce_unsupported

__all__ = ["fuse_reductions", "FUSE_REDUCTIONS"]


def _merged(inner: tuple, outer: tuple, ndim: int) -> tuple:
    """The axes of ``x`` that ``reduce(reduce(x, inner), outer)`` reduces (no kept dims)."""
    left = [a for a in range(ndim) if a not in inner]
    return tuple(sorted(set(inner) | {left[a] for a in outer}))


def _spec(v) -> tuple:
    return tuple(v.aval.shape), v.aval.dtype.str


def fuse_reductions(graph: Graph, ctx: PassContext) -> Graph:
    """``graph`` with the reductions of single-use elementwise chains fused into them."""
    producer = {eq.outputs[0]: eq for eq in graph.equations if len(eq.outputs) == 1}
    uses = graph.use_counts()
    absorbed: set[int] = set()   # ids of the equations a fused_reduce now computes
    fused: dict[int, Equation] = {}  # id of a reduction -> its fused_reduce
    for eq in graph.equations:
        if eq.prim.name not in REDUCTIONS or eq.outputs[0].aval.dtype.kind != "f":
            continue
        x, axis, keepdims = eq.inputs[0], tuple(eq.params["axis"]), eq.params["keepdims"]
        taken = []
        inner = producer.get(x)
        while inner is not None and inner.prim is eq.prim and uses.get(x) == 1 and \
                not inner.params["keepdims"] and not keepdims:
            axis = _merged(tuple(inner.params["axis"]), axis, len(inner.inputs[0].aval.shape))
            taken.append(inner)
            x = inner.inputs[0]
            inner = producer.get(x)
        chain = producer.get(x)
        if chain is not None and uses.get(x) == 1 and (chain.prim is fused_elementwise_p or
                                                       fusible(chain)):
            chain = chain if chain.prim is fused_elementwise_p else fused_equation([chain])
            inputs, expr = list(chain.inputs), chain.params["expr"]
        else:
            chain, inputs, expr = None, [x], ()
        specs = tuple(_spec(v) if isinstance(v, Var) else (tuple(v.value.shape),
                                                            v.value.dtype.str)
                      for v in inputs)
        if reduce_unsupported(expr, specs, axis) is not None:
            if chain is None or reduce_unsupported((), (_spec(x),), axis) is not None:
                lanes = None if taken or keepdims else _in_lanes(eq, x, axis)
                if lanes is not None:
                    fused[id(eq)] = lanes
                    ctx.count("fuse_reductions.in_lanes")
                continue
            inputs, expr = [x], ()  # the reduction alone, the chain stays as it is
            chain = None
        absorbed.update(id(e) for e in taken)
        if chain is not None:
            absorbed.add(id(producer[x]))
        fused[id(eq)] = Equation(fused_reduce_p, inputs, list(eq.outputs),
                                 {"expr": expr, "reduce": eq.prim.name, "axis": axis,
                                  "keepdims": keepdims}, eq.source)
        ctx.count("fuse_reductions.fused")
    equations, changed = [], bool(fused)
    for eq in graph.equations:
        if id(eq) in absorbed:
            continue
        if id(eq) in fused:
            eq = fused[id(eq)]
            if isinstance(eq, list):  # a reduction in lanes: its equations
                equations += eq
                continue
        else:
            params = map_subgraphs(eq.params, lambda g: fuse_reductions(g, ctx))
            if params is not eq.params:
                eq, changed = Equation(eq.prim, eq.inputs, eq.outputs, params, eq.source), True
        equations.append(eq)
    if not changed:
        return graph
    return Graph(list(graph.inputs), equations, list(graph.outputs), graph.name,
                 dict(graph.meta))


_LANES = (16, 8, 4, 2)


def _in_lanes(eq: Equation, x: Var, axis: tuple) -> list | None:
    """A sum or mean of ``x`` (no chain) along its innermost axis -- a large one, which
    :mod:`.reduction` does not take (a serial chain of additions) -- as two generated
    reductions that are (LeNet's first bias gradient: (N, 6, 28, 28) over (N, H, W)): the
    value viewed with its innermost reduced run split into ``L`` lanes, ``(..., run / L,
    L)``, reduced over all but the lanes (each lane's additions independent: vectorised),
    then the ``L`` lanes of each kept index (a mean twice is the mean). None: no such
    split (a run no lane count divides)."""
    shape = tuple(x.aval.shape)
    groups: list = []  # (extent, reduced) of each run of axes alike
    for k, n in enumerate(shape):
        reduced = k in axis
        if groups and groups[-1][1] == reduced:
            groups[-1] = (groups[-1][0] * n, reduced)
        else:
            groups.append((n, reduced))
    run = groups[-1][0]
    lanes = next((n for n in _LANES if run % n == 0 and run > n), None)
    if lanes is None or not groups[-1][1]:
        return None
    view = tuple(n for n, _ in groups[:-1]) + (run // lanes, lanes)
    first = tuple(k for k, (_, reduced) in enumerate(groups) if reduced)
    kept = tuple(n for n, reduced in groups[:-1] if not reduced) + (lanes,)
    dtype = x.aval.dtype
    if reduce_unsupported((), ((view, dtype.str),), first) is not None or \
            reduce_unsupported((), ((kept, dtype.str),), (len(kept) - 1,)) is not None:
        return None
    from sporeling.compiler.ops.shape import reshape_p
    viewed, part = Var(Aval(view, dtype)), Var(Aval(kept, dtype))
    reduce = eq.prim.name
    return [Equation(reshape_p, [x], [viewed], {"shape": view}, eq.source),
            Equation(fused_reduce_p, [viewed], [part], {
                "expr": (), "reduce": reduce, "axis": first, "keepdims": False}, eq.source),
            Equation(fused_reduce_p, [part], list(eq.outputs), {
                "expr": (), "reduce": reduce, "axis": (len(kept) - 1,), "keepdims": False},
                eq.source)]


FUSE_REDUCTIONS = Pass("fuse_reductions", fuse_reductions, stage="fusion", order=60,
                       enabled=enabled_by("tvm_fuse_reductions"),
                       doc="sums and means of elementwise chains as one fused_reduce "
                           "(TVM backend)")
