"""Wrapper cells of ``ms.nn``: training steps, loss/eval wrappers, gradients, loss-scale
update cells, ``TimeDistributed`` and ``ParameterUpdate``."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.amp import DynamicLossScaler, StaticLossScaler
from sporeling.amp import TrainOneStepWithLossScaleCell as _AmpLossScaleStep
from sporeling.core.errors import ShapeError
from sporeling.expression.nn import WithEvalCell, WithLossCell
from sporeling.expression.nn import TrainOneStepCell as _TrainOneStepCell

from ..ops.functional_math.differential import grad as _ms_grad
from ..ops.functional_math.differential import value_and_grad as _ms_value_and_grad
from .cell import Cell

ops = sx.ops

__all__ = ["TrainOneStepCell", "TrainOneStepWithLossScaleCell", "WithLossCell",
           "WithEvalCell", "WithGradCell", "ForwardValueAndGrad", "ParameterUpdate",
           "TimeDistributed", "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell"]


class TrainOneStepCell(_TrainOneStepCell):
    """``TrainOneStepCell(network, optimizer, sens=None, return_grad=False)``: one step of
    ``network`` (returning the loss) and ``optimizer(grads)``; returns the loss, or
    ``(loss, grads)`` with ``return_grad``."""

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(network, optimizer, 1.0 if sens is None else float(sens))
        self.return_grad = bool(return_grad)

    def construct(self, *inputs):
        loss, grads = self._value_and_grad(*inputs)
        if self.sens != 1.0:
            grads = tuple(ops.mul(g, self.sens) for g in grads)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        return (loss, grads) if self.return_grad else loss


class FixedLossScaleUpdateCell(Cell):
    """A constant loss scale: ``construct(loss_scale, overflow)`` returns ``overflow``."""

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = float(loss_scale_value)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        return overflow


class DynamicLossScaleUpdateCell(Cell):
    """``construct(loss_scale, overflow)``: on overflow divide the scale (a Parameter) by
    ``scale_factor`` (not below 1) and reset the counter; after ``scale_window`` finite steps
    multiply it. Returns ``overflow``."""

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        if scale_factor <= 1 or scale_window <= 0:
            raise ValueError("DynamicLossScaleUpdateCell: expected scale_factor > 1 and "
                             f"scale_window > 0, got {scale_factor}, {scale_window}")
        self.loss_scale_value = float(loss_scale_value)
        self.scale_factor, self.scale_window = float(scale_factor), int(scale_window)
        self.cur_iter = 0

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        value = float(np.asarray(loss_scale.asnumpy() if hasattr(loss_scale, "asnumpy")
                                 else loss_scale))
        if bool(np.asarray(overflow.asnumpy() if hasattr(overflow, "asnumpy") else overflow)):
            value = max(value / self.scale_factor, 1.0)
            self.cur_iter = 0
        else:
            self.cur_iter += 1
            if self.cur_iter >= self.scale_window:
                value *= self.scale_factor
                self.cur_iter = 0
        self.loss_scale_value = value
        if hasattr(loss_scale, "set_data"):
            loss_scale.set_data(np.asarray(value, np.dtype(loss_scale.dtype)))
        return overflow


class TrainOneStepWithLossScaleCell(_AmpLossScaleStep):
    """``TrainOneStepWithLossScaleCell(network, optimizer, scale_sense)``: ``scale_sense`` a
    ``DynamicLossScaleUpdateCell``, a ``FixedLossScaleUpdateCell`` or a Tensor/number (fixed
    scale). Returns ``(loss, overflow, scale)`` as MindSpore does; overflowing steps skip the
    update."""

    def __init__(self, network, optimizer, scale_sense):
        if isinstance(scale_sense, DynamicLossScaleUpdateCell):
            scaler = DynamicLossScaler(scale_sense.loss_scale_value, scale_sense.scale_factor,
                                       scale_sense.scale_window)
        elif isinstance(scale_sense, FixedLossScaleUpdateCell):
            scaler = StaticLossScaler(scale_sense.loss_scale_value)
        else:
            value = scale_sense.asnumpy() if hasattr(scale_sense, "asnumpy") else scale_sense
            scaler = StaticLossScaler(float(np.asarray(value).reshape(-1)[0]))
        super().__init__(network, optimizer, scaler)
        self.scale_sense = scale_sense


class WithGradCell(Cell):
    """Gradients of ``loss_fn(network(data), label)`` (or of ``network(*inputs)`` when
    ``loss_fn`` is None) with respect to the network's trainable parameters; ``sens`` scales
    them."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.sens = sens
        self.weights = tuple(network.trainable_params())
        self._grad = _ms_grad(self.network, None, self.weights)  # all-ones sens

    def construct(self, *inputs):
        grads = self._grad(*inputs)
        grads = grads if isinstance(grads, tuple) else (grads,)
        return tuple(ops.mul(g, float(self.sens)) for g in grads) if self.sens is not None \
            else grads


class ForwardValueAndGrad(Cell):
    """``(value, grads)`` of ``network(*inputs)``: ``get_all`` for the inputs' gradients,
    ``get_by_list`` for ``weights``' (both: ``(inputs_grads, weights_grads)``);
    ``sens_param`` makes the last input the output's cotangent."""

    def __init__(self, network, weights=None, get_all=False, get_by_list=False,
                 sens_param=False):
        super().__init__(auto_prefix=False)
        if get_by_list and weights is None:
            raise ValueError("ForwardValueAndGrad: get_by_list=True needs weights")
        self.network, self.get_all, self.get_by_list = network, get_all, get_by_list
        self.sens_param = bool(sens_param)
        self.weights = tuple(weights) if weights is not None else None

    def construct(self, *inputs):
        n = len(inputs) - (1 if self.sens_param else 0)
        position = tuple(range(n)) if self.get_all else (None if self.get_by_list else 0)
        weights = self.weights if self.get_by_list else None
        if self.sens_param:
            fn = sx.value_and_grad(self.network, position, weights, sens_param=True)
        else:   # MindSpore's all-ones sensitivity for a non-scalar output
            fn = _ms_value_and_grad(self.network, position, weights)
        return fn(*inputs)


class ParameterUpdate(Cell):
    """``construct(x)`` writes ``x`` into ``param`` and returns it."""

    def __init__(self, param):
        super().__init__(auto_prefix=False)
        if not isinstance(param, sx.Parameter):
            raise TypeError(f"ParameterUpdate: expected a Parameter, got "
                            f"{type(param).__name__}")
        self._param = param

    def construct(self, x):
        if tuple(x.shape) != tuple(self._param.shape):
            raise ShapeError("value shape differs from the parameter's", op="ParameterUpdate",
                             expected=tuple(self._param.shape), got=tuple(x.shape))
        self._param.set_data(x)
        return x


class TimeDistributed(Cell):
    """Apply ``layer`` to every step along ``time_axis``. With ``reshape_with_axis`` the
    time axis is folded into that axis (one call), else ``layer`` runs on each step's slice
    and the outputs are stacked back at ``time_axis`` (MindSpore's two paths)."""

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        super().__init__()
        if not callable(layer):
            raise TypeError(f"TimeDistributed: layer must be a Cell, got "
                            f"{type(layer).__name__}")
        self.layer, self.time_axis = layer, int(time_axis)
        self.reshape_with_axis = reshape_with_axis

    def construct(self, x):
        shape = tuple(x.shape)
        t = self.time_axis % len(shape)
        if self.reshape_with_axis is None:
            steps = [self.layer(ops.getitem(x, (slice(None),) * t + (i,)))
                     for i in range(shape[t])]
            return ops.stack(steps, t)
        other = self.reshape_with_axis % len(shape)
        if t == other:
            raise ShapeError("time_axis and reshape_with_axis coincide", op="TimeDistributed",
                             expected="two different axes", got=(t, other))
        rest = [i for i in range(len(shape)) if i not in (t, other)]
        y = ops.transpose(x, tuple([other, t] + rest))
        out = self.layer(ops.reshape(y, (shape[other] * shape[t],) + tuple(y.shape[2:])))
        out = ops.reshape(out, (shape[other], shape[t]) + tuple(out.shape[1:]))
        if len(out.shape) != len(shape):  # the layer changed the rank: keep (other, time, ...)
            return out
        inverse = [0] * len(shape)
        for position, axis in enumerate([other, t] + rest):
            inverse[axis] = position
        return ops.transpose(out, tuple(inverse))
