"""``SummaryCollector``: a training callback writing TensorBoard summaries (MindSpore's).

    >>> import numpy as np, tempfile
    >>> from sporeling.expression import nn
    >>> from sporeling.expression.optim import SGD
    >>> from sporeling.expression.train import Model
    >>> net = nn.Dense(4, 2)
    >>> model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
    ...               SGD(net.trainable_params(), 0.1))
    >>> data = [(np.ones((8, 4), np.float32), np.zeros(8, np.int32))] * 4
    >>> model.train(2, data, callbacks=[SummaryCollector(tempfile.mkdtemp(), collect_freq=2)])

Every ``collect_freq`` steps it records the loss (``loss``) and the learning rate
(``learning_rate``); histograms of the parameters whose names match ``histogram_regular``
(default: all trainable ones) every ``collect_tensor_freq`` steps (default
``collect_freq``); the network's compiled IR graph once (the train network's Graph-mode
compile, or, in PyNative mode, the forward network traced in inference mode on the first
batch); and with ``collect_input_data`` the first images of a 4-D NCHW input batch. At each
epoch's end ``epoch_loss`` (the epoch's mean) and, under ``Model.fit``, the evaluation
metrics as ``eval/<name>``.

``collect_specified_data`` keys (unknown keys are an error listing these):
``collect_metric`` (bool, loss and learning rate), ``collect_graph`` (bool),
``histogram_regular`` (a regular expression over parameter names, or None: no histograms),
``collect_input_data`` (bool, default False), ``collect_eval`` (bool),
``collect_landscape`` (None, the default: nothing; or a dict of 2.10's keys
``landscape_size``, ``unit``, ``num_samples``, ``create_landscape``, ``intervals``: the
checkpoints ``SummaryLandscape`` draws from, see :mod:`.landscape`).
"""
from __future__ import annotations

import math
import os
import re

import numpy as np

from sporeling.expression import structure_epoch
from sporeling.expression.train.callbacks import Callback
from sporeling.expression.train.callbacks._values import loss_value

from .landscape import LandscapeCheckpoints, check_collect_landscape
from .summary import SummaryError, SummaryRecord, network_graph

__all__ = ["SummaryCollector"]

_DEFAULTS = {"collect_metric": True, "collect_graph": True, "histogram_regular": ".*",
             "collect_input_data": False, "collect_eval": True, "collect_landscape": None}
_MAX_IMAGES = 4


def _int_at_least(value, low: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise SummaryError(f"bad {what}", op="SummaryCollector", expected=f"an int >= {low}",
                           got=repr(value))
    return value


class SummaryCollector(Callback):
    """Args:
        summary_dir: folder of the event files.
        collect_freq: record every this many steps (default 10).
        collect_specified_data: what to collect (see the module doc); merged over the
            defaults unless ``keep_default_action=False``, which starts from nothing.
        collect_tensor_freq: histogram every this many steps (default ``collect_freq``).
    """

    def __init__(self, summary_dir: str | os.PathLike, collect_freq: int = 10,
                 collect_specified_data: dict | None = None, keep_default_action: bool = True,
                 collect_tensor_freq: int | None = None, max_file_size: int | None = None):
        self.summary_dir = os.fspath(summary_dir)
        self.collect_freq = _int_at_least(collect_freq, 1, "collect_freq")
        self.collect_tensor_freq = self.collect_freq if collect_tensor_freq is None else \
            _int_at_least(collect_tensor_freq, 1, "collect_tensor_freq")
        given = dict(collect_specified_data or {})
        unknown = sorted(set(given) - set(_DEFAULTS))
        if unknown:
            raise SummaryError(f"unknown collect_specified_data keys {unknown}",
                               op="SummaryCollector", expected=f"keys among {list(_DEFAULTS)}",
                               got=unknown)
        base = dict(_DEFAULTS) if keep_default_action else \
            {k: (None if k in ("histogram_regular", "collect_landscape") else False)
             for k in _DEFAULTS}
        self.collect = {**base, **given}
        pattern = self.collect["histogram_regular"]
        try:
            self._histogram_re = None if pattern is None else re.compile(pattern)
        except (re.error, TypeError) as exc:
            raise SummaryError("bad histogram_regular", op="SummaryCollector",
                               expected="a regular expression over parameter names or None",
                               got=f"{pattern!r} ({exc})") from None
        self._max_file_size = max_file_size
        landscape = self.collect["collect_landscape"]
        self._landscape = None if landscape is None else LandscapeCheckpoints(
            self.summary_dir, check_collect_landscape(landscape, "SummaryCollector"))
        self._record: SummaryRecord | None = None
        self._graph_done = False

    # ---- callback events ----------------------------------------------------------------

    def on_train_begin(self, run_context):
        self._record = SummaryRecord(self.summary_dir, max_file_size=self._max_file_size)
        self._graph_done = not self.collect["collect_graph"]

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        step, rec = cb.cur_step_num, self._record
        if not self._graph_done:
            self._collect_graph(cb)
        wrote = False
        if step % self.collect_freq == 0 or step == 1:
            if self.collect["collect_metric"]:
                loss = loss_value(cb.net_outputs)
                if math.isfinite(loss):
                    rec.add_value("scalar", "loss", loss)
                lr = self._learning_rate(cb.optimizer)
                if lr is not None:
                    rec.add_value("scalar", "learning_rate", lr)
            if self.collect["collect_input_data"]:
                self._collect_input(cb)
            wrote = True
        if self._histogram_re is not None and (step % self.collect_tensor_freq == 0 or
                                               step == 1):
            for param in cb.network.trainable_params():
                if self._histogram_re.search(param.name):
                    rec.add_value("histogram", f"{param.name}", param)
            wrote = True
        if wrote:
            rec.record(step)
        if self._landscape is not None:
            self._landscape.maybe_save(cb.network, step, "step")

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        rec = self._record
        if self._landscape is not None:
            self._landscape.maybe_save(cb.network, cb.cur_epoch_num, "epoch")
        if self.collect["collect_metric"] and cb.get("train_loss") is not None \
                and math.isfinite(cb.train_loss):
            rec.add_value("scalar", "epoch_loss", cb.train_loss)
        results = cb.get("eval_results") if self.collect["collect_eval"] else None
        for name, value in (results or {}).items():
            try:
                rec.add_value("scalar", f"eval/{name}", value)
            except SummaryError:  # a metric that is not one number (a confusion matrix)
                continue
        rec.record(cb.cur_step_num)
        rec.flush()

    def on_train_end(self, run_context):
        if self._landscape is not None:
            self._landscape.write_metadata(run_context.original_args().batch_num)
        if self._record is not None:
            self._record.close()

    # ---- helpers ------------------------------------------------------------------------

    def _collect_graph(self, cb) -> None:
        """The train network's compiled graph, or the forward network traced once."""
        graph = network_graph(cb.train_network)
        if graph is None:
            graph = self._traced_forward(cb)
        if graph is not None:
            self._record.add_value("graph", "network", graph)
        self._graph_done = True  # one attempt: a network that cannot trace gets no graph

    @staticmethod
    def _traced_forward(cb):
        from sporeling.compiler.pipeline import compile_graph
        from sporeling.expression.graph.tracing import trace
        from sporeling.expression.train.batches import as_inputs
        net = cb.network
        inputs = as_inputs(cb.train_dataset_element)[:1]  # the data; the label feeds the loss
        cells = [(c, c.training) for _, c in net.cells_and_names()]
        net.set_train(False)
        try:
            traced, _ = trace(net, tuple(inputs), {}, type(net).__name__)
            return compile_graph(traced.graph).graph
        except Exception:  # the network has no traceable forward on this batch
            return None
        finally:
            for cell, mode in cells:
                cell.__dict__["training"] = mode
            structure_epoch.changed()

    def _collect_input(self, cb) -> None:
        from sporeling.expression.train.batches import as_inputs
        data = as_inputs(cb.train_dataset_element)[0]
        x = np.asarray(getattr(data, "asnumpy", lambda: data)())
        if x.ndim == 4 and x.shape[1] in (1, 3):
            self._record.add_value("image", "input_data", x[:_MAX_IMAGES])

    @staticmethod
    def _learning_rate(optimizer):
        """The next step's learning rate (the first group's, with parameter groups)."""
        get_lr = getattr(optimizer, "get_lr", None)
        if get_lr is None:
            return None
        lr = np.asarray(get_lr(), np.float64).ravel()
        return float(lr[0]) if lr.size else None
