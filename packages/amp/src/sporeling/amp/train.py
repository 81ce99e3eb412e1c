"""Training with loss scaling: ``TrainOneStepWithLossScaleCell`` and ``build_train_network``.

One step: the loss times the scale is differentiated (the scale is an input, so in Graph
mode a new scale needs no recompilation); if every gradient is finite they are divided by
the scale and the optimizer updates the **float32 master weights** (the Parameters: AMP
casts them per call, never in place); otherwise the update is skipped. The scaler is then
adjusted. In Graph mode all but the scaler's adjustment is one compiled graph, the update
and its skip on overflow included (a select between new and old values). The step returns
``(loss, overflow, scale)`` as MindSpore's cell does, so ``Model`` callbacks read the
overflow in ``run_context.original_args().net_outputs[1]``; ``overflow_steps`` counts the
skipped steps.

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> from sporeling.expression.optim import SGD
    >>> net = nn.Dense(3, 1)
    >>> step = build_train_network(net, SGD(net.trainable_params(), 0.1), nn.MSELoss(),
    ...                            level="O2", loss_scaler=DynamicLossScaler(2**10, 2, 50))
    >>> x, y = np.ones((4, 3), np.float32), np.zeros((4, 1), np.float32)
    >>> loss, overflow, scale = step(x, y)
    >>> bool(overflow), float(scale), net.weight.dtype
    (False, 1024.0, dtype('float32'))
"""
from __future__ import annotations

import numpy as np

from sporeling.core import SporelingError, dtypes
from sporeling.expression import Tensor
from sporeling.expression.autograd import value_and_grad
from sporeling.expression.graph.tracing import is_tracing, only_if
from sporeling.expression.optim.clip import clip_by_global_norm
from sporeling.expression.train.cell_wrappers import TrainOneStepCell, WithLossCell

from .convert import auto_mixed_precision
from .levels import check_dtype, check_level
from .loss_scale import DynamicLossScaler, LossScaler, StaticLossScaler, all_finite

__all__ = ["TrainOneStepWithLossScaleCell", "build_train_network"]


class _ScaledLoss:
    """``network(*inputs) * scale`` for inputs ``(*inputs, scale)``."""

    def __init__(self, network):
        self.network = network

    def __call__(self, *inputs):
        return self.network(*inputs[:-1]) * inputs[-1]


def _scaler(scale_sense) -> LossScaler:
    if isinstance(scale_sense, LossScaler):
        return scale_sense
    if isinstance(scale_sense, (int, float)) and not isinstance(scale_sense, bool):
        return StaticLossScaler(scale_sense)
    raise SporelingError("bad scale_sense", op="TrainOneStepWithLossScaleCell",
                         expected="a LossScaler or a number", got=repr(scale_sense))


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """One loss-scaled training step of ``network`` (which returns the loss); see the
    module doc. ``scale_sense``: a :class:`LossScaler` or a number (a static scale)."""

    def __init__(self, network, optimizer, scale_sense=None,
                 max_grad_norm: float | None = None):
        super().__init__(network, optimizer, max_grad_norm=max_grad_norm)
        low = [p.name for p in self.weights if p.dtype in (dtypes.float16, dtypes.bfloat16)]
        if low:
            raise SporelingError("master weights must be float32", op=type(self).__name__,
                                 expected="float32 trainable Parameters",
                                 got=f"16-bit Parameters {low[:5]}",
                                 hint="keep the Parameters float32: auto_mixed_precision "
                                      "casts them for each call")
        self.loss_scaler = _scaler(DynamicLossScaler() if scale_sense is None
                                   else scale_sense)
        self.overflow_steps = 0
        self._value_and_grad = value_and_grad(_ScaledLoss(network), None, self.weights)

    #: Graph mode compiles ``_scaled_step`` (the update included, skipped in the graph on
    #: overflow); the scaler adjusts in Python after it, so a new scale needs no recompiling
    _graph_parts = ("_scaled_step",)

    def construct(self, *inputs):
        scale = self.loss_scaler.scale_value
        loss, finite = self._scaled_step(*inputs, np.array(scale, np.float32))
        finite = bool(finite)
        if not finite:
            self.overflow_steps += 1
        self.loss_scaler.adjust(finite)
        return loss / scale, Tensor(np.array(not finite)), Tensor(np.float32(scale))

    def _scaled_step(self, *inputs):
        """``(scaled loss, gradients finite)`` for ``(*inputs, scale)``, the optimizer's
        update applied when the gradients are finite."""
        scale = inputs[-1]
        loss, grads = self._value_and_grad(*inputs)
        grads = self.grad_reducer(grads)
        finite = all_finite(grads)
        if is_tracing():
            with only_if(finite):  # compiled: a select on every Parameter the update writes
                self._apply(grads, scale)
        elif bool(finite):
            self._apply(grads, scale)
        return loss, finite

    def _apply(self, grads, scale):
        grads = tuple(None if g is None else g / scale for g in grads)
        if self.max_grad_norm is not None:
            grads = clip_by_global_norm(grads, self.max_grad_norm)
        self.optimizer(grads)


_DEFAULT = object()


def build_train_network(network, optimizer, loss_fn=None, level: str = "O0",
                        dtype=dtypes.float16, loss_scaler=_DEFAULT, **kwargs):
    """A training step for ``network`` at ``level`` (MindSpore's ``amp.build_train_network``).

    The network is converted by :func:`~.convert.auto_mixed_precision`, wrapped with
    ``loss_fn`` (in float32) when given, and trained by a
    :class:`TrainOneStepWithLossScaleCell` -- by default with a ``DynamicLossScaler(2**16,
    2, 2000)`` for float16 and a static scale of 1 for bfloat16 (float32's range: no
    underflow to guard against); at ``"O0"`` with no scaler given, a plain
    ``TrainOneStepCell``. ``loss_scale_manager`` is accepted for ``loss_scaler``;
    ``max_grad_norm`` clips the unscaled gradients.
    """
    op = "build_train_network"
    level = check_level(level, op)
    low = check_dtype(dtype, op)
    if "loss_scale_manager" in kwargs:
        loss_scaler = kwargs.pop("loss_scale_manager")
    max_grad_norm = kwargs.pop("max_grad_norm", None)
    if kwargs:
        raise SporelingError("unknown keyword argument", op=op,
                             expected="loss_scaler, loss_scale_manager or max_grad_norm",
                             got=", ".join(sorted(kwargs)))
    net = auto_mixed_precision(network, level, low)
    if loss_fn is not None:
        net = WithLossCell(net, loss_fn)
    if loss_scaler is _DEFAULT:
        if level == "O0":
            return TrainOneStepCell(net, optimizer, max_grad_norm=max_grad_norm)
        loss_scaler = DynamicLossScaler(2.0 ** 16, 2.0, 2000) if low == dtypes.float16 \
            else StaticLossScaler(1.0)
    if loss_scaler is None:
        return TrainOneStepCell(net, optimizer, max_grad_norm=max_grad_norm)
    return TrainOneStepWithLossScaleCell(net, optimizer, loss_scaler,
                                         max_grad_norm=max_grad_norm)
