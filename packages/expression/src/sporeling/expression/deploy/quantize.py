"""``sx.quantize``: post-training int8 quantisation of a Cell into a runnable
:class:`QuantizedCell`, saved and loaded as int8 weights + scales in safetensors.

    qnet = sx.quantize(net, calibration_batches, num_batches=8, observer="percentile")
    qnet(x)                                # int8 conv/matmul, int32 accumulation
    qnet.save("lenet_int8.safetensors")    # ~0.27x the float checkpoint
    qnet.export_onnx("lenet_int8.onnx", x)  # QDQ form, for onnxruntime
    qnet = sx.load_quantized(make_lenet(), "lenet_int8.safetensors")
"""
from __future__ import annotations

import itertools

import numpy as np

from sporeling.compiler.pipeline import compile_graph
from sporeling.compiler.quant import (Calibrator, QuantizedOp, build_table, quantizable_sites,
                                      quantize_graph)
from sporeling.core import SporelingError

from ..graph.tracing import rebuild
from ..nn import Cell
from ..serialization.safetensors_io import CheckpointError, read_tensors, write_tensors
from ..tensor import Tensor
from ._graphs import as_array, frozen_graph

__all__ = ["quantize", "QuantizedCell", "load_quantized", "FORMAT", "FORMAT_VERSION"]

FORMAT, FORMAT_VERSION = "sporeling-int8", "1"


def _batches(data, num_batches: int, batch_size: int):
    """Input arrays from ``data``: an array (split into batches), a sporeling.data
    Dataset (its first column), or an iterable of arrays / Tensors / tuples / dicts."""
    if isinstance(data, (np.ndarray, Tensor)):
        arr = as_array(data)
        data = (arr[i:i + batch_size] for i in range(0, len(arr), batch_size))
    elif hasattr(data, "create_tuple_iterator"):
        data = data.create_tuple_iterator(num_epochs=1)
    out = []
    for item in itertools.islice(data, num_batches):
        if isinstance(item, dict):
            item = next(iter(item.values()))
        elif isinstance(item, (tuple, list)):
            item = item[0]
        out.append(np.asarray(as_array(item), np.float32))
    if not out:
        raise SporelingError("no calibration data", op="quantize",
                             expected="at least one batch of inputs", got="an empty iterable")
    return out


class QuantizedCell(Cell):
    """The int8 version of a float network: call it like the network (inputs as Tensors or
    arrays), it returns Tensors. One compiled graph per input shape, each the float graph
    rewritten by the post-training quantisation pass with the same table."""

    def __init__(self, net: Cell, table: dict, param_names: dict):
        super().__init__()
        object.__setattr__(self, "_net", net)      # not a sub-Cell: its weights are float
        self.table = table                           # site key -> QuantizedOp
        self.param_names = param_names               # site key -> the float Parameter
        self._compiled: dict = {}

    @property
    def float_network(self) -> Cell:
        return self._net

    def graph_for(self, x: np.ndarray):
        """The quantised graph for inputs shaped like ``x`` (and how to rebuild outputs)."""
        key = (tuple(x.shape), np.dtype(x.dtype).str)
        entry = self._compiled.get(key)
        if entry is None:
            frozen = frozen_graph(self._net, x)
            qgraph = quantize_graph(frozen.graph, self.table)
            entry = self._compiled[key] = (qgraph, compile_graph(qgraph), frozen)
        return entry

    def __call__(self, x):
        x = np.asarray(as_array(x), np.float32)
        _, run, frozen = self.graph_for(x)
        return rebuild(frozen.out_tree, frozen.out_static, map(Tensor, run(x)))

    def construct(self, x):
        return self(x)

    def export_onnx(self, path, example, *, dynamic_batch: bool = True):
        """Write the quantised network as an ONNX model in QDQ form (int8 weights as
        initializers, QuantizeLinear/DequantizeLinear around float Conv/MatMul; opset 17),
        its input's axis 0 a dynamic ``batch`` dimension unless ``dynamic_batch=False``.
        Returns the path."""
        from sporeling.compiler.export import ExportError
        from sporeling.compiler.export.onnx import save_onnx
        from sporeling.compiler.quant import to_qdq
        x = np.asarray(as_array(example), np.float32)
        if dynamic_batch and x.ndim == 0:
            raise ExportError("a dynamic batch axis needs an example with a batch axis",
                              op="export_onnx", got="a scalar example")
        graph = to_qdq(self.graph_for(x)[0])
        kwargs = {}
        if dynamic_batch:
            bigger = np.concatenate([x, x[:1]])  # the same network at batch + 1
            kwargs = dict(batch_graph=to_qdq(self.graph_for(bigger)[0]), batch=len(x))
        return save_onnx(graph, path, input_names=["input"], **kwargs)

    def save(self, path: str) -> None:
        """int8 weights, their per-channel scales, the activations' scale and zero point,
        and the float Parameters the pass does not quantise (biases), in safetensors."""
        tensors, meta = {}, {"format": FORMAT, "version": FORMAT_VERSION}
        for key, op in self.table.items():
            tensors[f"{key}.weight"] = op.weight
            tensors[f"{key}.weight_scale"] = op.weight_scale
            tensors[f"{key}.input_scale"] = np.float32(op.input_scale).reshape(())
            tensors[f"{key}.input_zero_point"] = np.int8(op.input_zero_point).reshape(())
            meta[f"{key}.axis"] = str(op.axis)
            meta[f"{key}.param"] = self.param_names[key]
        quantised = set(self.param_names.values())
        for name, p in self._net.parameters_and_names():
            if p.name not in quantised:
                tensors[f"float.{p.name}"] = p.asnumpy()
        write_tensors(str(path), tensors, meta)


def _param_names(frozen, sites) -> dict:
    return {s.key: frozen.const_names.get(id(s.source.value), "?") for s in sites}


def quantize(net: Cell, calibration_data, *, num_batches: int = 8, batch_size: int = 64,
             observer="minmax", reduce_range: bool = False) -> QuantizedCell:
    """Post-training int8 quantisation of ``net``: its convolutions and Dense layers get
    per-channel symmetric int8 weights, their inputs int8 parameters from an observer
    (``"minmax"``, ``"percentile"``, ``"mse"`` or an Observer class) calibrated on the first
    ``num_batches`` batches of ``calibration_data`` (an array split into ``batch_size``
    rows, a sporeling.data Dataset, or an iterable of arrays / Tensors / tuples / dicts).
    ``reduce_range``: 7-bit weights, for onnxruntime's int8 kernels on x86 CPUs without
    VNNI, which saturate on full-range weights (see the compiler README)."""
    batches = _batches(calibration_data, num_batches, batch_size)
    cal = Calibrator(observer)
    graphs = {}
    for x in batches:
        shape = x.shape
        if shape not in graphs:
            graphs[shape] = frozen_graph(net, x)
        cal.observe(graphs[shape].graph, x)
    frozen = graphs[batches[0].shape]
    sites = quantizable_sites(frozen.graph)
    if not sites:
        raise SporelingError("nothing to quantise: no convolution or Dense layer with "
                             "constant weights", op="quantize", where=type(net).__name__,
                             expected="conv2d or 2-D matmul operations")
    table = build_table(frozen.graph, cal.qparams(), reduce_range=reduce_range)
    return QuantizedCell(net, table, _param_names(frozen, sites))


def _scalar(a: np.ndarray):
    return a.reshape(-1)[0]  # written with shape (); some readers give (1,)


def load_quantized(net: Cell, path: str) -> QuantizedCell:
    """A :class:`QuantizedCell` of ``net`` (a fresh float network of the same
    architecture) from a file written by :meth:`QuantizedCell.save`. The float weights of
    quantised layers are set to their dequantised values, the others to the saved ones."""
    tensors, meta = read_tensors(str(path))
    if meta.get("format") != FORMAT or meta.get("version") != FORMAT_VERSION:
        raise CheckpointError("not a quantised Sporeling network of a known version",
                              op="load_quantized", where=str(path),
                              expected=f"format {FORMAT!r} version {FORMAT_VERSION!r}",
                              got=f"format {meta.get('format')!r} version "
                                  f"{meta.get('version')!r}")
    params = {p.name: p for _, p in net.parameters_and_names()}
    table, names = {}, {}
    for key in sorted({k.rsplit(".", 1)[0] for k in tensors if not k.startswith("float.")}):
        name = meta.get(f"{key}.param")
        axis = int(meta[f"{key}.axis"])
        op = QuantizedOp(key.split(".", 1)[1], tensors[f"{key}.weight"],
                         tensors[f"{key}.weight_scale"], axis,
                         float(_scalar(tensors[f"{key}.input_scale"])),
                         int(_scalar(tensors[f"{key}.input_zero_point"])))
        shape = [1] * op.weight.ndim
        shape[axis] = -1
        w = op.weight.astype(np.float32) * op.weight_scale.reshape(shape)
        p = params.get(name)
        if p is None or p.shape not in (w.shape, w.T.shape):
            raise CheckpointError("a quantised layer does not fit the network",
                                  op="load_quantized", where=f"{path}, {key}",
                                  expected=f"a Parameter {name!r} of shape {w.shape}",
                                  got="no such Parameter" if p is None else str(p.shape))
        p.set_data(Tensor(w if p.shape == w.shape else np.ascontiguousarray(w.T)))
        table[key], names[key] = op, name
    for key, value in tensors.items():
        if key.startswith("float."):
            name = key[len("float."):]
            if name not in params or params[name].shape != value.shape:
                raise CheckpointError("a saved Parameter does not fit the network",
                                      op="load_quantized", where=f"{path}, {name}",
                                      got=str(value.shape),
                                      expected=str(params[name].shape) if name in params
                                      else "a Parameter of that name")
            params[name].set_data(Tensor(value))
    return QuantizedCell(net, table, names)
