"""``SummaryRecord``: TensorBoard event files from training (MindSpore's name and API).

    >>> import tempfile
    >>> log_dir = tempfile.mkdtemp()
    >>> with SummaryRecord(log_dir) as rec:
    ...     for step in range(3):
    ...         rec.add_value("scalar", "loss", 1.0 / (step + 1))
    ...         rec.record(step)
    True
    True
    True

Values wait in the record until :meth:`SummaryRecord.record` writes them at a step, through
tensorboardX. Plugins (kinds of value):

* ``"scalar"``: a number or a one-element Tensor/array;
* ``"histogram"``: any Tensor/array (its values' distribution);
* ``"image"``: NCHW (MindSpore's layout), CHW or HW; uint8 as is, floats in [0, 1] as is,
  other floats scaled to [0, 1] by their minimum and maximum;
* ``"graph"``: a Sporeling IR graph (:class:`sporeling.compiler.ir.Graph`) or a Cell that
  has been compiled in Graph mode, written as a TensorBoard ``GraphDef`` (see
  :mod:`.graph_def`). ``network=`` writes the network's graph at the first ``record``
  after it has been compiled;
* ``"landscape"``: a loss landscape (a dict of arrays and a ``"metadata"`` dict, what
  :class:`~sporeling.insight.landscape.SummaryLandscape` makes), one tensor summary per
  array tagged ``<name>/<field>`` (plugin ``loss_landscape``, the metadata as its JSON).
"""
from __future__ import annotations

import os

import numpy as np
from tensorboardX import SummaryWriter
from tensorboardX.proto import event_pb2

from sporeling.core import SporelingError

from .graph_def import graph_def

__all__ = ["SummaryRecord", "SummaryError", "network_graph", "PLUGINS"]

PLUGINS = ("scalar", "histogram", "image", "graph", "landscape")


class SummaryError(SporelingError, ValueError):
    """A summary value of the wrong kind or shape, or a record used after closing."""


def _array(value, what: str) -> np.ndarray:
    asnumpy = getattr(value, "asnumpy", None)
    try:
        return np.asarray(asnumpy() if asnumpy is not None else value)
    except Exception as exc:  # a value NumPy cannot hold
        raise SummaryError(f"cannot read {what} as an array", op="add_value",
                           expected="a Tensor, an array or a number",
                           got=f"{type(value).__name__} ({exc})") from None


def network_graph(network):
    """The compiled IR of ``network``: itself if it is an IR graph, else the optimised graph
    of a Cell's most recent Graph-mode compile (``None`` if it has not compiled)."""
    if hasattr(network, "equations") and hasattr(network, "inputs"):
        return network
    try:
        from sporeling.expression.graph.cell_call import cache_of
        executable = cache_of(network).last_executable
    except TypeError:  # not a Cell (a cache is keyed by weak reference to a Cell)
        return None
    return None if executable is None else executable.graph


def _image(value, name: str) -> tuple[np.ndarray, str]:
    x = _array(value, f"image {name!r}")
    layouts = {2: "HW", 3: "CHW", 4: "NCHW"}
    if x.ndim not in layouts or (x.ndim >= 3 and x.shape[-3] not in (1, 3, 4)):
        raise SummaryError(f"image {name!r} has the wrong shape", op="add_value",
                           expected="NCHW, CHW or HW with 1, 3 or 4 channels",
                           got=f"shape {x.shape}")
    if x.dtype != np.uint8:
        x = x.astype(np.float32)
        lo, hi = float(x.min()), float(x.max())
        if lo < 0 or hi > 1:
            x = (x - lo) / (hi - lo if hi > lo else 1.0)
    return x, layouts[x.ndim]


def _landscape_summary(name: str, landscape: dict):
    """One tensor summary per array of ``landscape`` (float64), tagged ``name/field``."""
    import json

    from tensorboardX.proto import summary_pb2, tensor_pb2, tensor_shape_pb2, types_pb2
    content = json.dumps(landscape["metadata"]).encode()
    values = []
    for field, array in landscape.items():
        if field == "metadata":
            continue
        array = np.asarray(array, np.float64)
        shape = tensor_shape_pb2.TensorShapeProto(
            dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=n) for n in array.shape])
        tensor = tensor_pb2.TensorProto(dtype=types_pb2.DT_DOUBLE, tensor_shape=shape,
                                        double_val=array.ravel().tolist())
        meta = summary_pb2.SummaryMetadata(plugin_data=summary_pb2.SummaryMetadata.PluginData(
            plugin_name="loss_landscape", content=content))
        values.append(summary_pb2.Summary.Value(tag=f"{name}/{field}", metadata=meta,
                                                tensor=tensor))
    return summary_pb2.Summary(value=values)


class SummaryRecord:
    """Args:
        log_dir: folder of the event files (made if missing).
        file_suffix: ends the event file's name (TensorBoard finds ``*tfevents*`` files).
        network: a Cell or IR graph whose compiled graph the first ``record`` writes.
        max_file_size: unused here (tensorboardX writes one file); accepted for MindSpore
            code.
        flush_secs: how often tensorboardX flushes to disk.
    """

    def __init__(self, log_dir: str | os.PathLike, file_prefix: str = "events",
                 file_suffix: str = "_MS", network=None, max_file_size: int | None = None,
                 raise_exception: bool = False, flush_secs: int = 10):
        self.log_dir = os.fspath(log_dir)
        self.network = network
        self._writer = SummaryWriter(self.log_dir, filename_suffix=file_suffix,
                                     flush_secs=flush_secs)
        self._pending: list[tuple[str, str, object]] = []
        self._graph_written = False
        self._closed = False

    def add_value(self, plugin: str, name: str, value) -> None:
        """Queue ``value`` under ``name`` for the next :meth:`record` (see the module doc)."""
        self._check_open("add_value")
        if plugin not in PLUGINS:
            raise SummaryError(f"unknown summary plugin {plugin!r}", op="add_value",
                               expected=" or ".join(map(repr, PLUGINS)), got=repr(plugin))
        if not isinstance(name, str) or not name:
            raise SummaryError("a summary needs a name", op="add_value",
                               expected="a non-empty str", got=repr(name))
        if plugin == "scalar":
            x = _array(value, f"scalar {name!r}")
            if x.size != 1:
                raise SummaryError(f"scalar {name!r} has more than one value", op="add_value",
                                   expected="a number or a one-element tensor",
                                   got=f"shape {x.shape}")
            value = float(x.reshape(()))
        elif plugin == "histogram":
            value = _array(value, f"histogram {name!r}").astype(np.float64).ravel()
        elif plugin == "image":
            value = _image(value, name)
        elif plugin == "landscape":
            if not isinstance(value, dict) or not isinstance(value.get("metadata"), dict):
                raise SummaryError(f"landscape {name!r} is not a landscape", op="add_value",
                                   expected="a dict of arrays with a 'metadata' dict",
                                   got=type(value).__name__)
        else:
            graph = network_graph(value)
            if graph is None:
                raise SummaryError(f"no compiled graph for {name!r}", op="add_value",
                                   expected="an IR graph or a Cell compiled in Graph mode",
                                   got=type(value).__name__,
                                   hint="call the Cell once under set_context(mode=GRAPH_MODE)")
            value = graph
        self._pending.append((plugin, name, value))

    def record(self, step: int, train_network=None, plugin_filter=None) -> bool:
        """Write the queued values at ``step`` (``plugin_filter(plugin) -> bool`` may drop
        some); also the network's graph, once, when it has been compiled."""
        self._check_open("record")
        if isinstance(step, bool) or not isinstance(step, (int, np.integer)) or step < 0:
            raise SummaryError("bad step", op="record", expected="an int >= 0", got=repr(step))
        network = train_network if train_network is not None else self.network
        if network is not None and not self._graph_written:
            graph = network_graph(network)
            if graph is not None:
                self._write_graph(graph)
        w, step = self._writer, int(step)
        for plugin, name, value in self._pending:
            if plugin_filter is not None and not plugin_filter(plugin):
                continue
            if plugin == "scalar":
                w.add_scalar(name, value, step)
            elif plugin == "histogram":
                w.add_histogram(name, value, step, bins="auto")
            elif plugin == "image":
                x, layout = value
                if layout == "NCHW":
                    w.add_images(name, x, step, dataformats=layout)
                else:
                    w.add_image(name, x, step, dataformats=layout)
            elif plugin == "landscape":
                w._get_file_writer().add_summary(_landscape_summary(name, value), step)
            else:
                self._write_graph(value)
        self._pending.clear()
        return True

    def _write_graph(self, graph) -> None:
        # tensorboardX's add_graph wants a torch model; its file writer takes a GraphDef
        # as an event (what add_graph writes underneath).
        event = event_pb2.Event(graph_def=graph_def(graph).SerializeToString())
        self._writer._get_file_writer().add_event(event)
        self._graph_written = True

    def _check_open(self, op: str) -> None:
        if self._closed:
            raise SummaryError("the summary record is closed", op=op,
                               where=f"SummaryRecord({self.log_dir!r})",
                               expected="an open record", got="closed")

    def flush(self) -> None:
        """Write what tensorboardX buffers to disk now."""
        self._check_open("flush")
        self._writer.flush()

    def close(self) -> None:
        """Flush and close the event file (closing twice does nothing)."""
        if not self._closed:
            self._writer.close()
            self._closed = True

    def __enter__(self) -> "SummaryRecord":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
