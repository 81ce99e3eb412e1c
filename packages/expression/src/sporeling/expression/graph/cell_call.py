"""Calling a Cell in Graph mode (``set_context(mode=GRAPH_MODE)``).

``Cell.__call__`` hands over here in Graph mode, and for every Cell called while a trace
runs. A top-level call compiles the Cell (``construct`` through the AST front end, traced
with its Parameters lifted to graph inputs) once per call signature and runs the graph;
Cells called inside a trace are inlined into the graph being built.

``TrainOneStepCell`` compiles its whole step -- forward, backward, ``grad_reducer`` (data
parallelism's all-reduces), scaling, clipping and the optimizer's update, written back by
``assign`` -- into one graph when its optimizer can be compiled (``SGD``, ``Momentum``,
``Adam``, ``AdamW`` with constant or per-step learning rates: :mod:`..optim._graph_step`), its
``construct`` is the built-in one and no AMP level above O1 is set in the context (the
AMP graph passes cast whole graphs: the update would be float16). Otherwise it compiles its loss and ``value_and_grad``
into one graph and runs the rest of the step eagerly on NumPy arrays.

Runs eagerly (PyNative) instead: a Cell called while ``grad`` records, so the tape sees
its ops.
"""
from __future__ import annotations

import weakref

from ..autograd.state import STATE
from .cache import CompiledFunction
from .convert import converted
from .tracing import is_tracing, note_cell

__all__ = ["graph_call", "cache_of"]

_CACHES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def cache_of(cell) -> CompiledFunction:
    """The compile cache of ``cell`` (made on first use)."""
    cache = _CACHES.get(cell)
    if cache is None:
        cache = _CACHES[cell] = CompiledFunction(f"{type(cell).__name__}.construct")
    return cache


def _inline(cell, args, kwargs):
    """``cell``'s computation inside the trace being built."""
    if cell._cast_dtype is not None or cell._has_bprop:
        return cell._pynative_call(args, kwargs)
    return converted(cell.construct)(*args, **kwargs)


def graph_call(cell, args: tuple, kwargs: dict):
    """``cell(*args, **kwargs)`` in Graph mode (see the module doc)."""
    if is_tracing():
        note_cell(cell)
        return _inline(cell, args, kwargs)
    from sporeling.core import GRAPH_MODE, get_context
    if STATE.level or get_context("mode") != GRAPH_MODE:
        return cell._pynative_call(args, kwargs)
    from ..train.cell_wrappers import TrainOneStepCell
    if isinstance(cell, TrainOneStepCell):
        if _whole_step_compiles(cell, TrainOneStepCell):
            from ..optim._graph_step import prepare_state
            prepare_state(cell.optimizer)  # the trace runs the step's Python once
            return cache_of(cell).call(_Root(cell), args, kwargs, ("step", cell.training))
        return _train_step(cell, args, kwargs)
    return cache_of(cell).call(_Root(cell), args, kwargs, (cell.training,))


class _Root:
    """The traced function of a top-level Cell call."""
    __slots__ = ("cell",)

    def __init__(self, cell):
        self.cell = cell

    def __call__(self, *args, **kwargs):
        return graph_call(self.cell, args, kwargs)  # tracing: noted and inlined


def _whole_step_compiles(cell, base) -> bool:
    """Whether ``cell``'s step (a ``TrainOneStepCell``) can be one graph: the built-in
    ``construct`` and an optimizer whose update traces, at constant learning rates."""
    from sporeling.core import get_context
    from ..optim.optimizer import Optimizer
    opt = cell.optimizer
    if type(cell).construct is not base.construct or not isinstance(opt, Optimizer):
        return False
    if get_context().get("amp_level", "O0") not in ("O0", "O1", None):
        return False  # amp's graph passes would cast the update to float16 too
    if type(opt)._graph_update is Optimizer._graph_update or \
            type(opt).__call__ is not Optimizer.__call__:
        return False
    from ..optim._graph_step import traceable_learning_rate
    return all(map(traceable_learning_rate, opt._group_lrs))


def _train_step(cell, args, kwargs):
    """One ``TrainOneStepCell`` step: compiled loss + reduced gradients, eager update.

    Both ``_loss_and_grads`` and ``_value_and_grad`` are compiled stand-ins for the step:
    ``construct`` calls the first; a subclass's own ``construct`` may call the second
    (``ms.nn.TrainOneStepCell``). Called inside the other's trace, a stand-in traces
    through (traced arguments bypass the cache)."""
    d = cell.__dict__
    cache = cache_of(cell)
    saved = {name: d.get(name) for name in ("_loss_and_grads", "_value_and_grad")}
    for name, tag in (("_loss_and_grads", "train"), ("_value_and_grad", "grads")):
        d[name] = _compiled(cache, getattr(cell, name), (tag, cell.training))
    try:
        return cell._pynative_call(args, kwargs)
    finally:
        for name, value in saved.items():
            if value is None:
                del d[name]
            else:
                d[name] = value


def _compiled(cache, fn, extra):
    def compiled(*inputs):
        return cache.call(fn, inputs, {}, extra)
    return compiled
