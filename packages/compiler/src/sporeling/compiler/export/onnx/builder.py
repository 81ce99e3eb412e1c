"""What an emitter writes with: ONNX nodes, initializers, fresh names, shape tensors that
follow a dynamic batch axis."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ONNXExportError

__all__ = ["Batch", "Builder"]


@dataclass(frozen=True)
class Batch:
    """A dimension that is ``k`` times the batch size (found by tracing at two batch
    sizes, see :mod:`.batch`)."""
    k: int


class Builder:
    """Collects the nodes and initializers of one ONNX graph."""

    def __init__(self, onnx_module, batch_source: str | None):
        self.onnx = onnx_module
        self.helper = onnx_module.helper
        self.nodes: list = []
        self.initializers: list = []
        self._n = 0
        self._consts: dict = {}
        self.batch_source = batch_source  # an input whose axis 0 is the batch
        self._batch = None
        self.where = ""  # the equation being converted (for errors)

    def fresh(self, hint: str = "t") -> str:
        self._n += 1
        return f"{hint}_{self._n}"

    def node(self, op: str, inputs, outputs=None, **attrs) -> list[str]:
        """Add ``op``; returns its output names (one fresh name unless ``outputs``)."""
        outputs = list(outputs) if outputs is not None else [self.fresh(op.lower())]
        self.nodes.append(self.helper.make_node(op, list(inputs), outputs,
                                                name=self.fresh("n_" + op), **attrs))
        return outputs

    def one(self, op: str, inputs, output=None, **attrs) -> str:
        return self.node(op, inputs, None if output is None else [output], **attrs)[0]

    def const(self, value, dtype=None) -> str:
        """An initializer holding ``value`` (shared between equal small constants)."""
        a = np.asarray(value, dtype=dtype)
        key = None
        if a.size <= 16:
            key = (a.dtype.str, a.shape, a.tobytes())
            if key in self._consts:
                return self._consts[key]
        name = self.fresh("c")
        self.initializers.append(self.onnx.numpy_helper.from_array(np.ascontiguousarray(a),
                                                                   name))
        if key is not None:
            self._consts[key] = name
        return name

    def ints(self, values) -> str:
        return self.const(np.asarray(values, np.int64).reshape(-1))

    # ---- a dynamic batch axis --------------------------------------------------------------

    def batch(self) -> str:
        """The run-time batch size, a 1-element int64 tensor."""
        if self._batch is None:
            if self.batch_source is None:
                raise self.error("a batch-dependent dimension but no input with a batch axis")
            shape = self.one("Shape", [self.batch_source])
            self._batch = self.one("Slice", [shape, self.ints([0]), self.ints([1])])
        return self._batch

    def shape_tensor(self, dims) -> str:
        """A 1-D int64 shape tensor for ``dims`` (ints and :class:`Batch` entries)."""
        if not any(isinstance(d, Batch) for d in dims):
            return self.ints(dims)
        parts = []
        for d in dims:
            if isinstance(d, Batch):
                b = self.batch()
                parts.append(b if d.k == 1 else self.one("Mul", [b, self.ints([d.k])]))
            else:
                parts.append(self.ints([d]))
        return self.one("Concat", parts, axis=0)

    def error(self, message: str, **kw) -> ONNXExportError:
        return ONNXExportError(message, op=self.where or "to_onnx", **kw)

    def static(self, value, what: str):
        """``value`` (a nested param) with no batch-dependent entry, or an error."""
        if _has_batch(value):
            raise self.error(f"{what} depends on the batch size, which this primitive's ONNX "
                             "mapping cannot follow", got=repr(value),
                             hint="export with dynamic_batch=False")
        return value


def _has_batch(value) -> bool:
    if isinstance(value, Batch):
        return True
    if isinstance(value, (tuple, list)):
        return any(_has_batch(v) for v in value)
    if isinstance(value, dict):
        return any(_has_batch(v) for v in value.values())
    return False
