"""Calling a Cell in Graph mode (``set_context(mode=GRAPH_MODE)``).

``Cell.__call__`` hands over here in Graph mode, and for every Cell called while a trace
runs. A top-level call compiles the Cell (``construct`` through the AST front end, traced
with its Parameters lifted to graph inputs) once per call signature and runs the graph;
Cells called inside a trace are inlined into the graph being built.

A ``TrainOneStepCell`` compiles its whole step -- forward, backward, ``grad_reducer`` (data
parallelism's all-reduces), scaling, clipping and the optimizer's update (every optimizer's
update rule is ops on Tensors, learning-rate schedules included), written back by ``assign``
-- into one graph. A subclass whose step needs Python between graphs (the loss scaler of
``sporeling.amp``) names the methods to compile in ``_graph_parts``: each compiles to its
own graph, the update inside one of them, and ``construct`` runs as Python around them.
Nothing of a step runs eagerly in Graph mode -- what cannot be traced is an error -- except
the update of an optimizer that declares ``_eager_update`` (``sporeling.parallel``'s ZeRO
``ShardedOptimizer``, whose collectives run on NumPy between ranks): then the loss and
gradients compile and that update runs as Python.

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
    """The compile cache of ``cell`` (made on first use). A Cell class whose
    ``_specialize_values`` is True may read its inputs' values while tracing, as
    ``jit(specialize_values=True)`` (the MindSpore facade's ``nn.Cell``)."""
    cache = _CACHES.get(cell)
    if cache is None:
        cache = _CACHES[cell] = CompiledFunction(
            f"{type(cell).__name__}.construct", bool(getattr(cell, "_specialize_values", False)))
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
        from ..optim._state import prepare_state
        prepare_state(cell.optimizer)  # made before the trace: no retrace
        parts = cell._graph_parts or (_GRADIENT_PARTS if getattr(
            cell.optimizer, "_eager_update", False) else ())
        if parts:
            return _parts_call(cell, parts, args, kwargs)
        return cache_of(cell).call(_Root(cell), args, kwargs, ("step", cell.training))
    return cache_of(cell).call(_Root(cell), args, kwargs, (cell.training,))


class _Root:
    """The traced function of a top-level Cell call."""
    __slots__ = ("cell",)

    def __init__(self, cell):
        self.cell = cell

    def __call__(self, *args, **kwargs):
        return graph_call(self.cell, args, kwargs)  # tracing: noted and inlined


# the loss and gradients, as the built-in step (``_loss_and_grads``) and as a subclass's own
# ``construct`` reads them (``_value_and_grad``: ``ms.nn.TrainOneStepCell``)
_GRADIENT_PARTS = ("_loss_and_grads", "_value_and_grad")


def _parts_call(cell, parts, args, kwargs):
    """``cell``'s ``construct`` run as Python, each method named in ``parts`` replaced by
    its compiled graph for the call (a part called inside another's trace traces through:
    traced arguments bypass the cache)."""
    d = cell.__dict__
    cache = cache_of(cell)
    saved = {name: d.get(name) for name in parts}
    for name in parts:
        d[name] = _compiled(cache, getattr(cell, name), (name, cell.training))
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
