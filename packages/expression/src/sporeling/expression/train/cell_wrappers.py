"""Wrapper cells for training and evaluation (MindSpore's ``nn.WithLossCell``,
``nn.WithEvalCell``, ``nn.TrainOneStepCell``).

    >>> import numpy as np
    >>> from sporeling.expression import nn, ops
    >>> from sporeling.expression.optim import SGD
    >>> net = nn.Dense(3, 1)
    >>> mse = lambda out, y: ops.mean((out - y) ** 2)
    >>> step = TrainOneStepCell(WithLossCell(net, mse), SGD(net.trainable_params(), 0.1))
    >>> x, y = np.ones((4, 3), np.float32), np.zeros((4, 1), np.float32)
    >>> first = float(step(x, y)); later = [float(step(x, y)) for _ in range(20)][-1]
    >>> later < first
    True

The wrappers use ``auto_prefix=False``, so ``Parameter.name`` stays the backbone's own
(``"weight"``, not ``"network._backbone.weight"``) and checkpoints of the training network
load into the bare backbone.
"""
from __future__ import annotations

from sporeling.core import get_plugin_host

from ..autograd import on_gradient_ready, value_and_grad
from ..nn.cell import Cell
from ..optim.clip import clip_by_global_norm

__all__ = ["WithLossCell", "WithEvalCell", "TrainOneStepCell"]


class WithLossCell(Cell):
    """``loss_fn(backbone(*data), label)`` for inputs ``(*data, label)``."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        if not callable(backbone) or not callable(loss_fn):
            raise TypeError("WithLossCell: backbone and loss_fn must be callable, got "
                            f"{type(backbone).__name__} and {type(loss_fn).__name__}")
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, *inputs):
        if len(inputs) < 2:
            raise TypeError(f"WithLossCell: expected (data..., label), got {len(inputs)} "
                            "input(s)")
        return self._loss_fn(self._backbone(*inputs[:-1]), inputs[-1])

    @property
    def backbone_network(self):
        """The wrapped network."""
        return self._backbone


class WithEvalCell(Cell):
    """``(loss, outputs, label)`` for inputs ``(*data, label)``: what ``Model.eval`` feeds
    its metrics (``Loss`` takes item 0, the others items 1 and 2)."""

    def __init__(self, network, loss_fn):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn

    def construct(self, *inputs):
        outputs = self._network(*inputs[:-1])
        label = inputs[-1]
        return self._loss_fn(outputs, label), outputs, label


def _scale(grads, factor: float):
    return tuple(None if g is None else g * factor for g in grads)


class TrainOneStepCell(Cell):
    """One training step: loss and gradients of ``network`` (which returns the loss) with
    respect to ``optimizer.parameters``, then ``optimizer(grads)``; returns the loss.

    ``sens`` scales the gradients (MindSpore's initial gradient of the loss, used for loss
    scaling). ``max_grad_norm`` (ours) clips the gradients to that global norm before the
    update -- PyTorch's ``clip_grad_norm_`` between ``backward`` and ``step``.
    ``grad_reducer`` is where data parallelism reduces gradients: the identity unless a
    plugin answers the ``sporeling_grad_reducer`` hook (``sporeling.parallel`` does in
    ``data_parallel`` mode: parameters broadcast from rank 0 here, gradients all-reduced in
    buckets started during backward). It runs before ``sens`` scaling and clipping, and in
    Graph mode inside the compiled step.

    In Graph mode the whole step, the optimizer's update included, is one compiled graph.
    A subclass whose ``construct`` needs Python between graphs names the methods Graph mode
    compiles (each to its own graph) in ``_graph_parts``; ``construct`` then runs as Python
    around them.
    """

    _graph_parts: tuple = ()

    def __init__(self, network, optimizer, sens: float = 1.0,
                 max_grad_norm: float | None = None):
        super().__init__(auto_prefix=False)
        if not hasattr(optimizer, "parameters") or not callable(optimizer):
            raise TypeError(f"TrainOneStepCell: expected an Optimizer, got "
                            f"{type(optimizer).__name__}")
        if max_grad_norm is not None and not max_grad_norm > 0:
            raise ValueError(f"TrainOneStepCell: max_grad_norm must be > 0, got "
                             f"{max_grad_norm!r}")
        self.network = network
        self.optimizer = optimizer
        self.weights = tuple(optimizer.parameters)
        self.sens = float(sens)
        self.max_grad_norm = max_grad_norm
        self._value_and_grad = value_and_grad(network, None, self.weights)
        self.grad_reducer = _plugin_reducer(self) or _identity

    def construct(self, *inputs):
        loss, grads = self._loss_and_grads(*inputs)
        if self.sens != 1.0:  # after the reducer: both are linear
            grads = _scale(grads, self.sens)
        if self.max_grad_norm is not None:
            grads = clip_by_global_norm(grads, self.max_grad_norm)
        self.optimizer(grads)
        return loss

    def _loss_and_grads(self, *inputs):
        """The loss and the reduced gradients. A reducer with ``gradient_ready`` hears of each final gradient during backward (in
        Graph mode while the backward is traced, so what it binds lands amid backward's
        equations)."""
        ready = getattr(self.grad_reducer, "gradient_ready", None)
        if ready is None:
            loss, grads = self._value_and_grad(*inputs)
        else:
            with on_gradient_ready(ready):
                loss, grads = self._value_and_grad(*inputs)
        return loss, self.grad_reducer(grads)


def _plugin_reducer(cell):
    """A plugin's answer to ``sporeling_grad_reducer`` (None when no plugin answers, or the
    host has no such hook: a bare host in tests)."""
    caller = getattr(get_plugin_host().hook, "sporeling_grad_reducer", None)
    return None if caller is None else caller(train_cell=cell)


def _identity(grads):
    return grads
