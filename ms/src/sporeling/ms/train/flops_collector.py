"""``FlopsUtilizationCollector``: MindSpore 2.10's callback reporting the model FLOPs
utilization (MFU) and hardware FLOPs utilization (HFU) of a Graph-mode training run.

As MindSpore's, it counts the matrix products and convolutions (``matmul``, batched
included, ``conv1d``/``conv2d``/``conv_transpose2d``; a multiply-add is 2 FLOPs) of the
compiled training step -- forward and backward as compiled -- and divides the FLOP/s of the
mean step time by ``computility`` (the device's peak FLOP/s). The first step, which
compiles, is left out of the mean step time. Model and hardware FLOPs are equal (no recomputation is
compiled in), and so are the full and per-shard counts (one process)."""
from __future__ import annotations

import time

from sporeling.core import GRAPH_MODE, get_context
from sporeling.compiler.ir import Graph
from sporeling.expression.graph.cell_call import cache_of
from sporeling.expression.train.batches import TrainError
from sporeling.expression.train.callbacks import Callback

__all__ = ["FlopsUtilizationCollector", "graph_flops"]

_CONVS = ("conv1d", "conv2d")


def _prod(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def graph_flops(graph: Graph) -> int:
    """FLOPs of the matrix products and convolutions of ``graph`` (and its sub-graphs)."""
    total = 0
    for eq in graph.equations:
        name = eq.prim.name
        if name == "matmul":
            total += 2 * _prod(eq.outputs[0].aval.shape) * int(eq.inputs[0].aval.shape[-1])
        elif name in _CONVS:  # weight (out, in/groups, *kernel): one product per entry
            total += 2 * _prod(eq.outputs[0].aval.shape) * _prod(eq.inputs[1].aval.shape[1:])
        elif name == "conv_transpose2d":  # each input entry spreads over (out/groups, *kernel)
            total += 2 * _prod(eq.inputs[0].aval.shape) * _prod(eq.inputs[1].aval.shape[1:])
        for value in eq.params.values():
            for sub in value if isinstance(value, (tuple, list)) else (value,):
                if isinstance(sub, Graph):
                    total += graph_flops(sub)
    return total


class FlopsUtilizationCollector(Callback):
    """``FlopsUtilizationCollector(data_size=None, computility=1, full_flops=True,
    enable_ma_collector=False)``: at every ``data_size``-th step (default: the steps of an
    epoch) print the mean step time since the last print, MFU and HFU; the FLOP counts
    (``flops``) are printed after the first step. ``full_flops``: the whole model's FLOPs
    (True) or one shard's (the same on one process). ``enable_ma_collector`` (a cloud log
    sink) must stay False. Graph mode only."""

    def __init__(self, data_size=None, computility=1, full_flops=True,
                 enable_ma_collector=False):
        if data_size is not None and (isinstance(data_size, bool) or
                                      not isinstance(data_size, int) or data_size <= 0):
            raise TypeError(f"For 'FlopsUtilizationCollector', 'data_size' must be a positive "
                            f"int, but got {data_size!r}.")
        if isinstance(computility, bool) or not isinstance(computility, (int, float)) or \
                computility <= 0:
            raise TypeError(f"For 'FlopsUtilizationCollector', 'computility' must be a "
                            f"positive number, but got {computility!r}.")
        for name, value in (("full_flops", full_flops),
                            ("enable_ma_collector", enable_ma_collector)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'FlopsUtilizationCollector', '{name}' must be bool, "
                                f"but got {type(value).__name__}.")
        if enable_ma_collector:
            raise TrainError("the MA collector writes to ModelArts' log service",
                             op="FlopsUtilizationCollector", expected="False", got="True")
        self.data_size, self.computility, self.full_flops = data_size, computility, full_flops
        self.flops = None  # FLOPs of one training step, once compiled
        self.mfu = self.hfu = None  # the last figures printed
        self._started, self._times = 0.0, []

    def on_train_begin(self, run_context):
        if get_context("mode") != GRAPH_MODE:
            raise TrainError("FLOPs are counted on the compiled training step",
                             op="FlopsUtilizationCollector", expected="Graph mode",
                             got="PyNative mode",
                             hint="ms.set_context(mode=ms.GRAPH_MODE) before training")

    def on_train_step_begin(self, run_context):
        self._started = time.perf_counter()

    def on_train_step_end(self, run_context):
        elapsed = time.perf_counter() - self._started
        cb = run_context.original_args()
        if self.flops is None:  # the first step compiled the graph: count, do not time
            graph = cache_of(cb.train_network).last_graph
            if graph is None:
                raise TrainError("the training step was not compiled",
                                 op="FlopsUtilizationCollector", expected="Graph mode")
            self.flops = graph_flops(graph)
            print(f"Full model flops is {self.flops}, Full hardware flops is {self.flops}, "
                  f"Shard model flops is {self.flops}, Shard hardware flops is "
                  f"{self.flops}")
        else:
            self._times.append(elapsed)
        every = self.data_size or cb.get("batch_num") or 1
        if self._times and cb.cur_step_num % every == 0:
            step = sum(self._times) / len(self._times)
            self.mfu = self.hfu = self.flops / step / self.computility
            print(f"Train per step time: {step * 1000:.3f} ms, mfu:{self.mfu:.2f} "
                  f"hfu:{self.hfu:.2f}")
            self._times = []
