"""``export(..., file_format="MINDIR")``: a network traced in inference mode, lowered node
by node to MindIR as MindSpore 2.10 writes it (weights as named graph parameters with
their ``raw_data`` embedded, PRIMITIVE_FUNCTION nodes taking their arguments as Constant
inputs), so that ``mindspore.load`` runs it."""
from __future__ import annotations

from pathlib import Path

from sporeling.compiler.ir import Var
from sporeling.expression.serialization import atomic_write

from .builder import Builder
from .errors import MindIRError, MindIRUnsupportedError
from .lowering import RULES, bias_add, lower
from .proto import ModelProto
from .tracing import inference_graph
from .values import abstract_of, shape_proto

__all__ = ["to_model", "export_mindir", "MAX_FILE_BYTES"]

MAX_FILE_BYTES = 2 ** 31 - 1  # protobuf's limit on one message


class _Lowering(Builder):
    """A Builder that knows the graph's uses, for the two fusions MindSpore's own files
    have: ``matmul(x, transpose(w))`` -> ``MatMul(x, w, False, True)`` and a Dense bias
    ``add(matmul, b)`` -> ``BiasAdd``."""

    def __init__(self, graph, *args):
        super().__init__(*args)
        self.uses: dict = {}
        self.producer: dict = {}
        for eq in graph.equations:
            for v in eq.inputs:
                if isinstance(v, Var):
                    self.uses.setdefault(v, []).append(eq)
            for v in eq.outputs:
                self.producer[v] = eq
        for v in graph.outputs:
            if isinstance(v, Var):
                self.uses.setdefault(v, []).append(None)
        self.deferred = {eq for eq in graph.equations if self._fusable_transpose(eq)}

    def operand(self, v):
        """As Builder's; None for the output of a transpose folded into its MatMul."""
        if isinstance(v, Var) and self.producer.get(v) in self.deferred:
            return None
        return super().operand(v)

    def is_used(self, v) -> bool:
        return bool(self.uses.get(v))

    def _fusable_transpose(self, eq) -> bool:
        if eq.prim.name != "transpose" or tuple(eq.params["axes"]) != (1, 0):
            return False
        return all(use is not None and use.prim.name == "matmul" and
                   use.inputs[1] is eq.outputs[0] and use.inputs[0] is not eq.outputs[0] and
                   len(use.inputs[0].aval.shape) == 2 for use in self.uses[eq.outputs[0]])

    def transposed_rhs(self, eq, ins):
        """``(transpose_b, ins)`` of a matmul: the transpose of its right operand folded
        into the MatMul."""
        rhs = eq.inputs[1]
        source = self.producer.get(rhs)
        if source is None or source not in self.deferred:
            return False, ins
        return True, [ins[0], self.operand(source.inputs[0])]

    def is_bias_add(self, eq) -> bool:
        if eq.prim.name != "add":
            return False
        x, bias = eq.inputs
        return (isinstance(x, Var) and self.producer.get(x) is not None and
                self.producer[x].prim.name == "matmul" and len(x.aval.shape) == 2 and
                tuple(bias.aval.shape) == tuple(x.aval.shape[-1:]) and
                bias.aval.dtype == x.aval.dtype)


def to_model(graph, param_names: dict[int, str], name: str | None = None) -> ModelProto:
    """``graph`` (inputs, equations on Vars and Consts) as a MindIR ``ModelProto``; a
    :class:`MindIRUnsupportedError` lists every primitive that has no MindIR form."""
    missing = {eq.prim.name for eq in graph.equations if eq.prim.name not in RULES}
    if missing:
        raise MindIRUnsupportedError("primitives without a MindIR form", op="export",
                                     names=missing, hint="see the MindIR section of "
                                     "sporeling-ms's README for what is supported")
    model = ModelProto(ir_version="1.1", producer_name="Sporeling", model_version="2.10.0",
                       little_endian=True, mind_ir_version=3)
    b = _Lowering(graph, model, f"{name or graph.name}_construct", param_names)
    for i, v in enumerate(graph.inputs):
        b.names[v] = b.prefix + f"input{i}"
        info = b.graph.input.add(name=b.names[v])
        info.tensor.append(shape_proto(v.aval.shape, v.aval.dtype))
    for eq in graph.equations:
        b.where = f"{eq.prim.name} ({eq.source})" if eq.source else eq.prim.name
        if eq in b.deferred:
            continue
        ins = [b.operand(v) for v in eq.inputs]
        if b.is_bias_add(eq):
            outs = [bias_add(b, ins[0], ins[1], eq.outputs[0].aval)]
        else:
            outs = lower(b, eq, ins)
        b.names.update((v, n) for v, n in zip(eq.outputs, outs) if n is not None)
    _outputs(b, graph)
    return model


def _outputs(b, graph) -> None:
    outs = [b.operand(v) for v in graph.outputs]
    avals = [v.aval for v in graph.outputs]
    if len(outs) == 1:
        info = b.graph.output.add(name=outs[0])
        info.tensor.append(shape_proto(avals[0].shape, avals[0].dtype))
        return
    b.where = "outputs"
    info = b.graph.output.add(name=b.node("MakeTuple", outs, avals, {}), denotation="Tuple")
    info.attr_info.CopyFrom(abstract_of(avals))


def export_mindir(net, *inputs, file_name) -> Path:
    """Write ``net(*inputs)`` as MindIR to ``file_name`` (``.mindir`` added when missing)
    atomically; returns the path."""
    path = Path(file_name)
    if path.suffix.lower() != ".mindir":
        path = path.with_name(path.name + ".mindir")
    graph, _, names = inference_graph(net, tuple(inputs))
    data = to_model(graph, names).SerializeToString()
    if len(data) > MAX_FILE_BYTES:
        raise MindIRError("the model is too large for one MindIR file", op="export",
                          where=str(path), got=f"{len(data)} bytes",
                          expected=f"at most {MAX_FILE_BYTES} (protobuf's limit)")

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)

    atomic_write(str(path), write)
    return path
