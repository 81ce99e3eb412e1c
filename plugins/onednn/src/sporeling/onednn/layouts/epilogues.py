"""Graph mode's ``onednn_epilogues`` pass: a convolution's or a matmul's bias and
activation computed by oneDNN's kernel as it writes the result, instead of by a separate
elementwise loop reading it back.

After the layout pass and elementwise fusion, a convolution layer is an ``onednn_blocked``
convolution whose result only a chain reads, the chain being ``add(y, b)``, ``add(y, b) ->
relu`` or ``relu(y)`` with ``b`` one value per output channel (broadcast) -- or those ops
one by one, where elementwise fusion leaves single ops alone; a Dense layer is the same
with a ``matmul`` (one oneDNN runs: from ``MIN_MACS`` multiply-adds) and ``b`` one value
per column. Such a pair becomes one ``onednn_blocked`` call (``op="matmul"`` for a
product: nothing blocked) with ``epilogue=("bias", "relu")`` (or the part present):
oneDNN adds the bias inside its kernel and applies the activation as a post-op
(``plan.POST_OPS``). The chain's result Var is kept, so the backward pass (a ReLU's
gradient reads the activated result) reads the same value.
"""
from __future__ import annotations

from sporeling.compiler.ir import Equation, Graph
from sporeling.compiler.passes import Pass, PassContext, Rewriter, fused_elementwise_p

from ..blocking import logical_shape
from ..kernels.matmul import MIN_MACS
from ..plan import POST_OPS
from .assign import _enabled
from .primitives import onednn_blocked_p

__all__ = ["fuse_epilogues", "EPILOGUES"]


def _per_channel(shape: tuple, out: tuple, block: int | None) -> bool:
    """Whether an operand of ``shape`` holds one value per channel of a convolution's
    result ``out`` (plain ``(N, C, H, W)`` or blocked ``(N, C/b, H, W, b)``)."""
    if block:
        return shape == (1, out[1], 1, 1, out[4])
    return shape in ((1, out[1], 1, 1), (out[1], 1, 1))


def _kind(eq: Equation | None) -> str | None:
    """What ``eq`` is to this pass: ``"conv2d"`` (a blocked convolution), ``"matmul"`` (a
    float32 matrix product oneDNN runs: from ``MIN_MACS`` multiply-adds, or one already
    given an epilogue) or None."""
    if eq is None:
        return None
    if eq.prim is onednn_blocked_p:
        return eq.params["op"] if eq.params["op"] in ("conv2d", "matmul") else None
    if eq.prim.name == "matmul" and len(eq.inputs) == 2:
        (m, k), (k2, n) = [tuple(v.aval.shape) if len(v.aval.shape) == 2 else (0, 0)
                           for v in eq.inputs]
        if all(str(v.aval.dtype) == "float32" for v in eq.inputs) and k == k2 and \
                m * k * n >= MIN_MACS:
            return "matmul"
    return None


def _nodes(eq: Equation):
    """``eq`` as a list of ``(name, refs)`` nodes (a chain's, or one elementwise op's), or
    None when it is neither or not float32."""
    if eq.prim is fused_elementwise_p:
        expr = eq.params["expr"]
        if any(str(node[4]) != "float32" for node in expr):
            return None
        return [(name, refs) for name, refs, *_ in expr]
    if (eq.prim.name == "add" or eq.prim.name in POST_OPS) and not eq.params and \
            str(eq.outputs[0].aval.dtype) == "float32":
        return [(eq.prim.name, tuple(("in", k) for k in range(len(eq.inputs))))]
    return None


def _epilogue(eq: Equation, producer: dict, uses: dict):
    """``(producer, bias or None, steps)`` when ``eq`` continues the epilogue of a
    convolution or a matmul that oneDNN can apply, else None."""
    nodes = _nodes(eq)
    if not nodes:
        return None
    made = reads = bias = None
    steps = []
    for k, (name, refs) in enumerate(nodes):
        if k == 0 and name == "add" and len(refs) == 2 and all(r[0] == "in" for r in refs):
            values = [eq.inputs[r[1]] for r in refs]
            for y, b in (values, values[::-1]):
                if _kind(producer.get(y)) is not None:
                    made, reads, bias = producer[y], y, b
                    break
            steps.append("bias")
        elif k == 0 and name in POST_OPS and refs[0][0] == "in":
            reads = eq.inputs[refs[0][1]]
            made = producer.get(reads)
            steps.append(name)
        elif k > 0 and name in POST_OPS and refs == (("node", k - 1),):
            steps.append(name)
        else:
            return None
    kind = _kind(made)
    if kind is None or uses.get(reads) != 1:
        return None
    if made.params.get("epilogue") and "bias" in steps:  # the bias comes first
        return None
    out = tuple(reads.aval.shape)
    if bias is not None:
        shape = tuple(getattr(getattr(bias, "aval", None), "shape", (None,)))
        per = _per_channel(shape, out, made.params["blocks_out"][0]) if kind == "conv2d" \
            else shape in ((out[-1],), (1, out[-1]))
        if not per or str(bias.aval.dtype) != "float32":
            return None
    return made, bias, tuple(steps)


def fuse_epilogues(graph: Graph, ctx: PassContext) -> Graph:
    """``graph`` with each convolution's and oneDNN-sized matmul's bias and activations
    folded into it (a chain of them, or the ops one by one where no chain was fused)."""
    uses = graph.use_counts()
    rw = Rewriter(graph, ctx)
    for eq in graph.equations:
        found = _epilogue(eq, rw.producers, uses)
        if found is None:
            rw.emit(eq)
            continue
        made, bias, steps = found
        rw.equations.remove(made)  # nothing else reads its result: computed here instead
        rw.source = made.source
        params = made.params if made.prim is onednn_blocked_p else dict(
            op="matmul", params=(), blocks_in=(None, None), blocks_out=(None,))
        inputs, blocks_in = list(made.inputs), params["blocks_in"]
        if bias is not None:  # (C,) in channel order: a view of the broadcast bias
            out = eq.outputs[0].aval.shape
            channels = out[-1] if params["op"] == "matmul" else \
                logical_shape(out, params["blocks_out"][0])[1]
            inputs.append(rw.bind("reshape", bias, shape=(channels,)))
            blocks_in = blocks_in + (None,)
        rw.emit(Equation(onednn_blocked_p, inputs, list(eq.outputs),
                         dict(params, blocks_in=blocks_in,
                              epilogue=params.get("epilogue", ()) + steps), made.source))
        rw.changed = True
        ctx.count("onednn_epilogues.fused")
    return rw.finish()


EPILOGUES = Pass("onednn_epilogues", fuse_epilogues, stage="fusion", order=55,
                 enabled=_enabled,
                 doc="a convolution's or matmul's bias and ReLU applied by oneDNN's kernel "
                     "as it writes the result (post-ops)")
