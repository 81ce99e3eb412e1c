"""What a lowering rule writes with: MindIR nodes named and shaped as MindSpore 2.10
names them, their ``PrimitiveProto`` entries, constants and parameters."""
from __future__ import annotations

import numpy as np

from sporeling.compiler.ir import Const, Var

from .errors import MindIRError
from .proto import AttributeProto, ModelProto, NodeProto, PrimitiveProto
from .values import abstract_of, to_attribute, to_tensor_proto

__all__ = ["Builder"]

_PRIMITIVE, _FUNCTION = PrimitiveProto.PRIMITIVE, PrimitiveProto.PRIMITIVE_FUNCTION


class Builder:
    """Collects one MindIR graph: ``graph`` (a ``GraphProto``) and the model's
    ``primitives``. ``param_names`` maps ``id(array)`` of a network's Parameter data to its
    name, so that weights become named graph parameters as in MindSpore's files."""

    def __init__(self, model: ModelProto, name: str, param_names: dict[int, str]):
        self.model = model
        self.graph = model.graph
        self.graph.name = name
        self.prefix = name + ":"
        self.param_names = param_names
        self._n = 0
        self._prims: dict = {}
        self._values: dict = {}
        self._params: dict[int, str] = {}
        self.names: dict = {}   # Var -> node output name
        self.where = ""         # the equation being lowered, for errors

    def fresh(self, hint: str = "CNode") -> str:
        self._n += 1
        return f"{hint}_{self._n}"

    def error(self, message: str, **kw) -> MindIRError:
        return MindIRError(message, op="export", where=self.where or None, **kw)

    # ---- operands ---------------------------------------------------------------------

    def operand(self, v) -> str:
        """The name of a Var (an input or a node's output) or a Const (a graph parameter
        when it is a network's weight, a Constant node otherwise)."""
        if isinstance(v, Var):
            return self.names[v]
        if not isinstance(v, Const):
            return self.value(v)
        key = id(v.value)
        if key in self.param_names:
            if key not in self._params:
                ref = self.param_names[key]
                t = to_tensor_proto(v.value, self.prefix + ref, self.where)
                t.ref_key = ref
                self.graph.parameter.append(t)
                self._params[key] = t.name
            return self._params[key]
        return self.tensor(v.value)

    def tensor(self, array) -> str:
        """A Constant node holding ``array`` (TENSORS, as MindSpore writes tensor values)."""
        return self._constant(np.asarray(array))

    def value(self, value) -> str:
        """A Constant node holding a Python scalar, string or tuple (an operand of a
        PRIMITIVE_FUNCTION node: axes, shapes, flags, dtype ids)."""
        return self._constant(value)

    def _constant(self, value) -> str:
        key = None
        if not isinstance(value, np.ndarray):
            key = (type(value).__name__, repr(value))
        elif value.size <= 16:
            key = ("array", value.dtype.str, value.shape, value.tobytes())
        if key is not None and key in self._values:
            return self._values[key]
        name = self.fresh("ValueNode")
        node = self.graph.node.add(output=[name], name=name, op_type="Constant")
        node.attribute.append(to_attribute(value, "value"))
        if key is not None:
            self._values[key] = name
        return name

    # ---- nodes ------------------------------------------------------------------------

    def _primitive(self, op: str, attrs: dict | None) -> str:
        key = (op, repr(sorted((attrs or {}).items())))
        if key not in self._prims:
            name = f"{op}:{len(self._prims) + 1}"
            prim = self.model.primitives.add(name=name, op_type=op, instance_name="",
                                             prim_type=_FUNCTION if attrs is None
                                             else _PRIMITIVE)
            for k, v in (attrs or {}).items():
                prim.attribute.append(to_attribute(v, k))
            self._prims[key] = name
        return self._prims[key]

    def node(self, op: str, inputs, avals, attrs: dict | None = None) -> str:
        """A node applying ``op`` to ``inputs`` (names), with abstract value(s) ``avals``
        (one Aval, or several for a tuple); ``attrs`` makes it a PRIMITIVE with those
        attributes (Conv2D, MaxPool), else a PRIMITIVE_FUNCTION whose every argument is an
        input (MindSpore 2.10's form for most operations). Returns its output name."""
        avals = [avals] if hasattr(avals, "shape") else list(avals)
        name = self.prefix + self.fresh()
        node = NodeProto(input=list(inputs), output=[name], name=name,
                         op_type="REF::" + self._primitive(op, attrs),
                         domain=f"Default/{op}-op{self._n}")
        node.attribute.append(abstract_of(avals))
        node.node_attr.append(AttributeProto(name="checkpoint", i=1, type=AttributeProto.BOOL))
        self.graph.node.append(node)
        return name
