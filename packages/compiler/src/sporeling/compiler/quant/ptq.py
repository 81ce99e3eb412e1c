"""Post-training int8 quantisation of a float graph: find the convolutions and matmuls
whose weights are constants, calibrate their input activations on a few batches, and
rewrite each into QDQ + int8 compute:

    y = conv2d(x, W)        ->   xq  = quantize(x, s_x, z_x)                      int8
                                 acc = qconv2d(xq, Wq, x_zero_point=z_x)         int32
                                 y   = dequantize(acc, s_x * s_w, 0, axis=1)     float32

``Wq`` is ``W`` quantised symmetrically per output channel (``s_w`` one scale per channel);
``matmul(x, W)`` (a Dense layer: ``W`` or ``transpose(W)`` constant, ``x`` 2-D) becomes
``qmatmul`` the same way, per output column. Everything else (bias adds, ReLU, pooling)
stays float. Weights must be constants: trace with them closed over, or freeze the
parameter inputs with :func:`sporeling.compiler.passes.freeze_inputs`.

Quantisable equations are keyed ``"<n>.<primitive>"`` by their order in the graph, so a
table made on a graph traced at one batch size applies to the same model traced at another.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import evaluate, make_graph
    >>> w = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    >>> g = make_graph(lambda x: ops.relu(ops.matmul(x, w)), np.ones((2, 4), np.float32))
    >>> batches = [(np.random.default_rng(i).random((2, 4), np.float32),) for i in range(3)]
    >>> q, table = post_training_quantize(g, batches)
    >>> sorted(q.primitive_counts())
    ['dequantize', 'qmatmul', 'quantize', 'relu']
    >>> x = batches[0][0]
    >>> bool(np.abs(evaluate(q, x)[0] - evaluate(g, x)[0]).max() < 0.05)
    True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from ..ir import Const, Equation, Graph, IRError, evaluate
from ..passes.base import Pass, PassContext
from ..passes.dce import eliminate_dead_code
from ..passes.rewrite import Rewriter, rewrite
from .observers import make_observer, quantize_weight_per_channel
from .primitives import dequantize_p, qconv2d_p, qmatmul_p, quantize_p

__all__ = ["QuantizedOp", "QuantSite", "quantizable_sites", "Calibrator", "build_table",
           "quantize_graph", "ptq_pass", "post_training_quantize"]


@dataclass(frozen=True)
class QuantSite:
    """A float equation the pass can quantise: its key, the equation, its float weight as
    the equation consumes it, the weight's output-channel axis and the Const holding the
    weight in the graph (before a transpose: tells the caller which parameter it was)."""
    key: str
    eq: Equation
    weight: np.ndarray
    axis: int
    source: Const


@dataclass
class QuantizedOp:
    """One table entry: the int8 weight (per-channel scales along ``axis``) and the int8
    parameters of the input activation."""
    prim: str
    weight: np.ndarray          # int8, the shape the equation consumes
    weight_scale: np.ndarray    # float32, one per output channel
    axis: int
    input_scale: float
    input_zero_point: int


def _const_weight(v, producers) -> tuple[np.ndarray, Const] | tuple[None, None]:
    """The constant ``v`` stands for and its Const: a Const, or ``transpose`` of one (a
    Dense layer's weight)."""
    if isinstance(v, Const):
        return v.value, v
    eq = producers.get(v)
    if eq is not None and eq.prim.name == "transpose" and isinstance(eq.inputs[0], Const):
        return np.transpose(eq.inputs[0].value, eq.params["axes"]), eq.inputs[0]
    return None, None


def quantizable_sites(graph: Graph) -> list[QuantSite]:
    """The float conv2d / 2-D matmul equations of ``graph`` with constant weights."""
    producers = {v: eq for eq in graph.equations for v in eq.outputs}
    sites = []
    for eq in graph.equations:
        name = eq.prim.name
        if name not in ("conv2d", "matmul") or eq.outputs[0].aval.dtype != np.float32:
            continue
        w, source = _const_weight(eq.inputs[1], producers)
        if w is None or w.dtype != np.float32:
            continue
        if name == "matmul" and (w.ndim != 2 or len(eq.inputs[0].aval.shape) != 2):
            continue
        axis = 0 if name == "conv2d" else 1
        sites.append(QuantSite(f"{len(sites)}.{name}", eq, w, axis, source))
    return sites


class Calibrator:
    """Observers of the input activation of every quantisable site, fed graph run by graph
    run (graphs of one model traced at any batch size)."""

    def __init__(self, observer="minmax"):
        self.observer = observer
        self.observers: dict = {}
        self._probes: dict = {}   # id(graph) -> (graph, probe graph, keys)

    def observe(self, graph: Graph, *inputs) -> None:
        """Run ``graph`` on ``inputs`` and show each site's input to its observer."""
        entry = self._probes.get(id(graph))
        if entry is None or entry[0] is not graph:
            sites = quantizable_sites(graph)
            probe = Graph(list(graph.inputs), list(graph.equations),
                          [s.eq.inputs[0] for s in sites], f"{graph.name}.calibrate")
            entry = self._probes[id(graph)] = (graph, probe, [s.key for s in sites])
        _, probe, keys = entry
        for key, value in zip(keys, evaluate(probe, *inputs)):
            if key not in self.observers:
                self.observers[key] = make_observer(self.observer)
            self.observers[key].observe(np.asarray(value))

    def qparams(self) -> dict[str, tuple[float, int]]:
        """Site key -> ``(scale, zero_point)`` of its input activation."""
        return {k: obs.qparams() for k, obs in self.observers.items()}


def build_table(graph: Graph, activations: dict[str, tuple[float, int]], *,
                reduce_range: bool = False) -> dict:
    """Site key -> :class:`QuantizedOp`: ``graph``'s weights quantised per channel (7-bit
    with ``reduce_range``, see :func:`~.observers.quantize_weight_per_channel`), with the
    calibrated activation parameters (sites without them are left out: they stay float)."""
    table = {}
    for site in quantizable_sites(graph):
        if site.key not in activations:
            continue
        q, scale = quantize_weight_per_channel(site.weight, site.axis,
                                               reduce_range=reduce_range)
        s_x, z_x = activations[site.key]
        table[site.key] = QuantizedOp(site.eq.prim.name, q, scale, site.axis, float(s_x),
                                      int(z_x))
    return table


def quantize_graph(graph: Graph, table: dict, ctx: PassContext | None = None) -> Graph:
    """``graph`` with every site in ``table`` rewritten to QDQ + int8 compute."""
    ctx = ctx if ctx is not None else PassContext()
    sites = {id(s.eq): s for s in quantizable_sites(graph)}
    unknown = set(table) - {s.key for s in sites.values()}
    if unknown:
        raise IRError("the quantisation table names operations the graph does not have",
                      where=graph.name, expected=sorted(s.key for s in sites.values()),
                      got=sorted(unknown))
    by_eq = {}
    for eq_id, site in sites.items():
        if site.key in table:
            entry = table[site.key]
            if entry.weight.shape != site.weight.shape or entry.prim != site.eq.prim.name:
                raise IRError("a quantised weight does not fit its operation",
                              where=f"{graph.name}, {site.key}",
                              expected=f"{site.eq.prim.name} weight {site.weight.shape}",
                              got=f"{entry.prim} weight {entry.weight.shape}")
            by_eq[eq_id] = entry
    # the rule sees equations with their operands substituted; their outputs stay the same
    entries = {eq.outputs[0]: by_eq[id(eq)] for eq in graph.equations if id(eq) in by_eq}

    def rule(eq: Equation, rw: Rewriter):
        entry = entries.get(eq.outputs[0])
        if entry is None:
            return None
        ctx.count("ptq.quantized")
        zp = np.int8(entry.input_zero_point)
        xq = rw.bind(quantize_p, eq.inputs[0], Const(np.float32(entry.input_scale)),
                     Const(zp), axis=None)
        if entry.prim == "conv2d":
            acc = rw.bind(qconv2d_p, xq, Const(entry.weight), x_zero_point=int(zp),
                          **{k: eq.params[k] for k in ("stride", "padding", "dilation",
                                                       "groups")})
        else:
            acc = rw.bind(qmatmul_p, xq, Const(entry.weight), a_zero_point=int(zp))
        # channels are axis 1 of both results: (N, O, H, W) and (M, N)
        scale = (np.float32(entry.input_scale) * entry.weight_scale).astype(np.float32)
        return rw.bind(dequantize_p, acc, Const(scale), Const(np.zeros_like(scale, np.int32)),
                       axis=1)

    new = rewrite(graph, rule, ctx, recurse=False)
    return eliminate_dead_code(new, ctx)  # the weights' transposes are now unused


def ptq_pass(table: dict) -> Pass:
    """The rewrite as a :class:`~sporeling.compiler.passes.Pass` (stage ``canonicalize``)."""
    return Pass("ptq", lambda graph, ctx: quantize_graph(graph, table, ctx),
                stage="canonicalize", min_level="O0",
                doc="post-training int8: conv2d/matmul with constant weights -> QDQ + int8")


def post_training_quantize(graph: Graph, batches: Iterable, *, observer="minmax",
                           num_batches: int | None = None,
                           reduce_range: bool = False) -> tuple[Graph, dict]:
    """Calibrate on ``batches`` (tuples of ``graph``'s inputs; the first ``num_batches``)
    and quantise: ``(quantised graph, table)``."""
    cal = Calibrator(observer)
    for i, batch in enumerate(batches):
        if num_batches is not None and i >= num_batches:
            break
        cal.observe(graph, *(batch if isinstance(batch, (tuple, list)) else (batch,)))
    if not cal.observers:
        raise IRError("no calibration batch reached a quantisable operation",
                      where=graph.name, expected="at least one batch and one conv2d/matmul "
                                                 "with a constant weight",
                      got=f"{len(quantizable_sites(graph))} quantisable operations")
    table = build_table(graph, cal.qparams(), reduce_range=reduce_range)
    return quantize_graph(graph, table), table
