"""Sporeling's IR as a TensorBoard ``GraphDef`` (the protobufs tensorboardX ships).

tensorboardX's ``add_graph`` wants a PyTorch model; the file writer underneath takes any
``GraphDef``, which this module builds from a :class:`sporeling.compiler.ir.Graph`: one node
per equation (op = the primitive's name), ``input/k`` placeholders, ``const/k`` constants and
``output/k`` identities, edges from the operands (``node:i`` for an equation's i-th result),
the result shapes as ``_output_shapes`` (TensorBoard labels edges with them), the dtype, the
user's source line and the equation's parameters as attributes. Sub-graphs held in
parameters (``cond`` branches, loop bodies) are drawn inside their equation's scope.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(lambda x: ops.relu(ops.mul(x, 2.0)), np.ones(3, np.float32))
    >>> gd = graph_def(g)
    >>> [(n.name, n.op, list(n.input)) for n in gd.node]
    [('input/0', 'Placeholder', []), ('const/0', 'Const', []), ('mul_0', 'mul', ['input/0', 'const/0']), ('relu_1', 'relu', ['mul_0']), ('output/0', 'Identity', ['relu_1'])]
"""
from __future__ import annotations

import numpy as np
from tensorboardX.proto import (attr_value_pb2, graph_pb2, node_def_pb2, tensor_shape_pb2,
                                versions_pb2)

__all__ = ["graph_def"]

_MAX_ATTR = 240  # characters of a parameter's text kept as an attribute


def _shape(shape) -> tensor_shape_pb2.TensorShapeProto:
    return tensor_shape_pb2.TensorShapeProto(
        dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=int(d)) for d in shape])


def _text(value) -> attr_value_pb2.AttrValue:
    text = str(value)
    if len(text) > _MAX_ATTR:
        text = text[:_MAX_ATTR] + "..."
    return attr_value_pb2.AttrValue(s=text.encode())


def _is_graph(value) -> bool:
    return hasattr(value, "equations") and hasattr(value, "inputs")


class _Builder:
    def __init__(self):
        self.nodes: list = []
        self.consts = 0

    def node(self, name, op, inputs=(), avals=(), **attrs) -> None:
        attr = {k: _text(v) for k, v in attrs.items() if v is not None}
        if avals:
            attr["_output_shapes"] = attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue
                                                              .ListValue(shape=[_shape(a.shape)
                                                                                for a in avals]))
            attr["dtype"] = _text(", ".join(str(np.dtype(a.dtype)) for a in avals))
        self.nodes.append(node_def_pb2.NodeDef(name=name, op=op, input=list(inputs),
                                               attr=attr))

    def operand(self, v, names: dict, scope: str) -> str:
        if v in names:
            return names[v]
        value = getattr(v, "value", None)
        if value is not None:  # a Const
            name = f"{scope}const/{self.consts}"
            self.consts += 1
            shown = value.item() if value.ndim == 0 else f"array{list(value.shape)}"
            self.node(name, "Const", avals=[v.aval], value=shown)
            return name
        return f"{scope}unknown"  # a Var from an enclosing graph (closure): drawn loose

    def add(self, graph, scope: str = "") -> None:
        names: dict = {}
        for k, v in enumerate(graph.inputs):
            names[v] = f"{scope}input/{k}"
            self.node(names[v], "Placeholder", avals=[v.aval])
        for i, eq in enumerate(graph.equations):
            name = f"{scope}{eq.prim.name}_{i}"
            inputs = [self.operand(v, names, scope) for v in eq.inputs]
            params = {f"param {k}": p for k, p in eq.params.items() if not _is_graph(p)}
            self.node(name, eq.prim.name, inputs, [v.aval for v in eq.outputs],
                      source=eq.source, **params)
            for j, v in enumerate(eq.outputs):
                names[v] = name if j == 0 else f"{name}:{j}"
            for k, p in eq.params.items():
                subs = p if isinstance(p, (tuple, list)) else (p,)
                for n, sub in enumerate(s for s in subs if _is_graph(s)):
                    self.add(sub, f"{name}/{k}{n if len(subs) > 1 else ''}/")
        for k, v in enumerate(graph.outputs):
            self.node(f"{scope}output/{k}", "Identity", [self.operand(v, names, scope)],
                      [v.aval])


def graph_def(graph) -> graph_pb2.GraphDef:
    """The ``GraphDef`` of a Sporeling IR graph (see the module doc)."""
    builder = _Builder()
    builder.add(graph)
    return graph_pb2.GraphDef(node=builder.nodes, versions=versions_pb2.VersionDef(producer=22))

