"""Reading a MindIR file into a :class:`MindIRGraph`: every part checked before anything
runs (a damaged file, a dangling name, an unsupported operation is a :class:`MindIRError`
naming the file and the node), every value decoded, and the graph runnable on Tensors
with the facade's MindSpore primitives."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from google.protobuf.message import DecodeError

from sporeling.core import ArgumentError

from .errors import MindIRError, MindIRUnsupportedError
from .ops_table import OPS
from .proto import ModelProto
from .values import from_attribute, from_tensor_proto, tensor_dtype

__all__ = ["MindIRGraph", "Node", "read_mindir", "parse_mindir", "read_model", "parse_model",
           "MAX_FILE_BYTES"]

MAX_FILE_BYTES = 2 ** 31 - 1    # protobuf's limit on one message
_SKIPPED_ATTRS = {"input_names", "output_names"}  # bookkeeping, not arguments


@dataclass(frozen=True)
class Node:
    """One operation: ``outputs[0] = op(*inputs, **attrs)`` (a Constant has ``value``)."""
    name: str
    op: str
    inputs: tuple[str, ...]
    output: str
    attrs: dict = field(default_factory=dict)
    value: object = None


@dataclass
class MindIRGraph:
    """A loaded MindIR graph (MindSpore's ``FuncGraph`` from ``mindspore.load``): run it
    with ``nn.GraphCell(graph)``. ``parameters`` maps each weight's name (its
    ``ref_key``, e.g. ``"fc1.weight"``) to its array."""
    name: str
    inputs: list[tuple[str, tuple, np.dtype]]
    outputs: list[str]
    nodes: list[Node]
    parameters: dict[str, np.ndarray]
    where: str = "<bytes>"
    producer: str = ""
    param_keys: dict[str, str] = field(default_factory=dict)  # graph name -> ref_key

    def run(self, inputs, parameters: dict | None = None):
        """The graph's output(s) on ``inputs`` (Tensors), the weights taken from
        ``parameters`` (ref_key -> Tensor or array) where given."""
        from sporeling.expression import Tensor
        params = self.parameters if parameters is None else parameters
        env: dict = {name: x for (name, _, _), x in zip(self.inputs, inputs)}
        for graph_name, key in self.param_keys.items():
            value = params[key]
            env[graph_name] = value if isinstance(value, Tensor) else Tensor(value)
        for node in self.nodes:
            if node.op == "Constant":
                value = node.value
                env[node.output] = Tensor(value) if isinstance(value, np.ndarray) else value
                continue
            env[node.output] = OPS[node.op]([env[i] for i in node.inputs], node.attrs)
        outs = [env[name] for name in self.outputs]
        return outs[0] if len(outs) == 1 else tuple(outs)

    def __repr__(self) -> str:
        ins = ", ".join(f"{n.split(':')[-1]}: {d}{list(s)}" for n, s, d in self.inputs)
        return (f"<MindIRGraph {self.name}({ins}): {len(self.nodes)} nodes, "
                f"{len(self.parameters)} parameters, from {self.producer or 'unknown'}>")


def _path(file_name, op: str) -> Path:
    if not isinstance(file_name, (str, os.PathLike)):
        raise ArgumentError("bad file_name", op=op, expected="a path (str or os.PathLike)",
                            got=f"{type(file_name).__name__} {file_name!r}"[:80])
    path = Path(file_name)
    if not path.is_file():
        raise MindIRError("no such MindIR file", op=op, where=str(path),
                          hint="check the path; export writes '<file_name>.mindir'")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise MindIRError("the file is larger than one MindIR message can be", op=op,
                          where=str(path), got=f"{path.stat().st_size} bytes")
    return path


def read_model(file_name, op: str = "load_mindir"):
    """The ``ModelProto`` in the MindIR file ``file_name`` (parsed and checked to hold a
    graph, not run)."""
    path = _path(file_name, op)
    return parse_model(path.read_bytes(), str(path), op)


def read_mindir(file_name) -> MindIRGraph:
    """The :class:`MindIRGraph` in the MindIR file ``file_name``."""
    path = _path(file_name, "load")
    return parse_mindir(path.read_bytes(), str(path), path.parent)


def _external_reader(base: Path | None, where: str):
    """Reads ``external_data`` (MindSpore's large models keep weights in files next to the
    MindIR), confined to the model's directory and bounds-checked."""
    def read(location: str, offset: int, length: int, tensor: str) -> bytes:
        if base is None:
            raise MindIRError(f"tensor {tensor!r} is stored outside the file", op="load",
                              where=where, hint="load the model from its path")
        target = (base / location).resolve()
        if base.resolve() not in target.parents or not target.is_file():
            raise MindIRError(f"tensor {tensor!r}: its external data file is missing or "
                              "outside the model's directory", op="load", where=where,
                              got=location)
        if offset < 0 or length < 0 or offset + length > target.stat().st_size:
            raise MindIRError(f"tensor {tensor!r}: its external data lies past the end of "
                              f"{location}", op="load", where=where,
                              got=f"offset {offset}, length {length}",
                              hint="the file is truncated or damaged")
        with open(target, "rb") as f:
            f.seek(offset)
            return f.read(length)
    return read


def parse_model(data: bytes, where: str = "<bytes>", op: str = "load"):
    """The ``ModelProto`` in a MindIR file's bytes, checked to hold a graph."""
    if not data:
        raise MindIRError("the file is empty", op=op, where=where,
                          expected="a MindIR (ModelProto)")
    model = ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, ValueError, TypeError, RuntimeError) as exc:
        raise MindIRError("the file cannot be parsed as a MindIR", op=op, where=where,
                          got=str(exc) or "DecodeError",
                          hint="the file is damaged, truncated, encrypted or not a MindIR"
                          ) from None
    if not model.HasField("graph") or not model.graph.output or not model.ir_version:
        raise MindIRError("the file holds no MindIR graph", op=op, where=where,
                          expected="a ModelProto with ir_version and a graph with outputs",
                          hint="the file is damaged or not a MindIR")
    return model


def parse_mindir(data: bytes, where: str = "<bytes>", base: Path | None = None
                 ) -> MindIRGraph:
    """A :class:`MindIRGraph` from a MindIR file's bytes; ``base`` is the directory that
    holds its external data, if any."""
    model = parse_model(data, where)
    graph = model.graph
    external = _external_reader(base, where)
    parameters, keys = {}, {}
    for t in graph.parameter:
        key = t.ref_key or t.name.rsplit(":", 1)[-1]
        parameters[key] = from_tensor_proto(t, where, external)
        keys[t.name] = key
    inputs = []
    for info in graph.input:
        if len(info.tensor) != 1:
            raise MindIRError(f"input {info.name!r} is not one tensor", op="load",
                              where=where, hint="only tensor inputs are supported")
        t = info.tensor[0]
        dims = tuple(int(d) for d in t.dims)
        dtype = tensor_dtype(t, f"{where}, input {info.name!r}")
        inputs.append((info.name, dims, dtype))
    prims = {p.name: p for p in model.primitives}
    nodes = [_node(n, prims, where, external) for n in graph.node]
    _check(nodes, inputs, keys, [o.name for o in graph.output], where)
    return MindIRGraph(graph.name, inputs, [o.name for o in graph.output], nodes, parameters,
                       where, model.producer_name, keys)


def _node(n, prims, where: str, external) -> Node:
    at = f"{where}, node {n.name!r}"
    if len(n.output) != 1:
        raise MindIRError("a node without exactly one output", op="load", where=at,
                          got=len(n.output))
    if n.op_type == "Constant":
        value = n.attribute[0] if len(n.attribute) == 1 else None
        if value is None:
            raise MindIRError("a Constant without one value", op="load", where=at)
        return Node(n.name, "Constant", (), n.output[0], value=from_attribute(
            value, at, external))
    if n.op_type.startswith("REF::"):
        prim = prims.get(n.op_type[5:])
        if prim is None:
            raise MindIRError("a node naming a primitive the file does not define",
                              op="load", where=at, got=n.op_type)
        op, attributes = prim.op_type, prim.attribute
    else:  # older files: the operation and its attributes on the node itself
        op, attributes = n.op_type, [a for a in n.attribute if a.name != "shape"]
    attrs = {a.name: from_attribute(a, at, external) for a in attributes
             if a.name not in _SKIPPED_ATTRS}
    return Node(n.name, op, tuple(n.input), n.output[0], attrs)


def _check(nodes, inputs, keys, outputs, where: str) -> None:
    """Every operation supported, every name defined before it is read."""
    missing = sorted({n.op for n in nodes if n.op != "Constant" and n.op not in OPS})
    if missing:
        raise MindIRUnsupportedError("MindSpore operations Sporeling cannot run",
                                     op="load", where=where, names=missing,
                                     hint="see the MindIR section of sporeling-ms's README")
    defined = {name for name, _, _ in inputs} | set(keys)
    for node in nodes:
        for name in node.inputs:
            if name not in defined:
                raise MindIRError(f"node {node.name!r} ({node.op}) reads {name!r}, which "
                                  "nothing before it defines", op="load", where=where,
                                  hint="the file is damaged")
        defined.add(node.output)
    for name in outputs:
        if name not in defined:
            raise MindIRError(f"the graph's output {name!r} is never defined", op="load",
                              where=where, hint="the file is damaged")

