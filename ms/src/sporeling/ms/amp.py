"""``ms.amp``: mixed precision under MindSpore 2.x's names (``sporeling.amp``'s), plus the
loss-scale managers ``FixedLossScaleManager`` and ``DynamicLossScaleManager``."""
from __future__ import annotations

import numpy as np

from sporeling.amp import (LossScaler, all_finite, auto_mixed_precision, autocast,
                           custom_mixed_precision, get_black_list, get_white_list)
from sporeling.amp import DynamicLossScaler as _SxDynamicLossScaler
from sporeling.amp import StaticLossScaler as _SxStaticLossScaler
from sporeling.expression import Parameter
from sporeling.amp import build_train_network as _sx_build_train_network
from sporeling.core.errors import SporelingError

__all__ = ["auto_mixed_precision", "custom_mixed_precision", "build_train_network",
           "autocast", "get_white_list", "get_black_list", "LossScaler", "StaticLossScaler",
           "DynamicLossScaler", "all_finite", "FixedLossScaleManager",
           "DynamicLossScaleManager", "LossScaleManager"]


class StaticLossScaler(_SxStaticLossScaler):
    """MindSpore's: ``scale_value`` is a float32 Parameter (sporeling.amp's: a float)."""

    @property
    def scale_value(self):
        return self._scale

    @scale_value.setter
    def scale_value(self, value) -> None:
        self._scale = Parameter(np.array(value, np.float32), name="scale_value",
                                requires_grad=False)

    def __repr__(self) -> str:
        return f"StaticLossScaler(scale_value={float(self._scale.asnumpy()):g})"


class DynamicLossScaler(_SxDynamicLossScaler):
    """MindSpore's: ``scale_value`` (float32) and ``counter`` (int32) are the Parameters
    themselves, eagerly too (sporeling.amp's read as a float and an int outside a trace);
    scaling multiplies by the Parameter, as MindSpore does."""

    @property
    def scale_value(self):
        return self._scale

    @property
    def counter(self):
        return self._counter


class LossScaleManager:
    """Base of MindSpore's loss-scale managers."""

    def get_loss_scale(self) -> float:
        raise NotImplementedError

    def get_update_cell(self):
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale; ``drop_overflow_update`` skips steps whose gradients overflow."""

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True):
        if loss_scale < 1:
            raise ValueError(f"FixedLossScaleManager: loss_scale must be >= 1, got {loss_scale}")
        self.loss_scale = float(loss_scale)
        self.drop_overflow_update = bool(drop_overflow_update)

    def get_loss_scale(self) -> float:
        return self.loss_scale

    def get_drop_overflow_update(self) -> bool:
        return self.drop_overflow_update

    def get_update_cell(self):
        """``None`` when overflowing steps are not dropped (MindSpore's behaviour), else an
        ``nn.FixedLossScaleUpdateCell``."""
        if not self.drop_overflow_update:
            return None
        from .nn import FixedLossScaleUpdateCell
        return FixedLossScaleUpdateCell(self.loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """Scale divided by ``scale_factor`` on overflow, multiplied after ``scale_window``
    finite steps."""

    def __init__(self, init_loss_scale: float = 2 ** 24, scale_factor: int = 2,
                 scale_window: int = 2000):
        if init_loss_scale < 1 or scale_factor <= 1 or scale_window <= 0:
            raise ValueError("DynamicLossScaleManager: expected init_loss_scale >= 1, "
                             f"scale_factor > 1, scale_window > 0; got {init_loss_scale}, "
                             f"{scale_factor}, {scale_window}")
        self.loss_scale = float(init_loss_scale)
        self.scale_factor, self.scale_window = scale_factor, int(scale_window)

    def get_loss_scale(self) -> float:
        return self.loss_scale

    def get_drop_overflow_update(self) -> bool:
        return True

    def get_update_cell(self):
        from .nn import DynamicLossScaleUpdateCell
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0",
                        **kwargs):
    """MindSpore 2.10's ``amp.build_train_network``: ``network`` converted at ``level``
    (``cast_model_type`` overrides the low dtype), wrapped with ``loss_fn`` and trained by a
    step whose loss scaling is ``loss_scale_manager``'s: a ``DynamicLossScaleManager`` or
    ``FixedLossScaleManager(drop_overflow_update=True)`` skips overflowing steps
    (``nn.TrainOneStepWithLossScaleCell``); ``drop_overflow_update=False`` gives a
    ``TrainOneStepCell`` whose gradients carry the fixed scale (the optimizer's
    ``loss_scale`` undoes it). ``boost_level`` (Ascend) must stay "O0"; BatchNorm is kept in
    float32 (``keep_batchnorm_fp32=False`` is refused)."""
    op = "build_train_network"
    if boost_level != "O0":
        raise SporelingError("boost_level has no effect without Ascend boosts", op=op,
                             expected="'O0'", got=repr(boost_level))
    unknown = set(kwargs) - {"loss_scale_manager", "cast_model_type", "keep_batchnorm_fp32"}
    if unknown:
        raise SporelingError("unknown keyword argument", op=op,
                             expected="loss_scale_manager, cast_model_type or "
                                      "keep_batchnorm_fp32", got=", ".join(sorted(unknown)))
    if kwargs.get("keep_batchnorm_fp32", True) is not True:
        raise SporelingError("BatchNorm always computes in float32 here", op=op,
                             expected="keep_batchnorm_fp32=True", got="False")
    options = {}
    if kwargs.get("cast_model_type") is not None:
        options["dtype"] = kwargs["cast_model_type"]
    manager = kwargs.get("loss_scale_manager")
    if manager is None:
        return _sx_build_train_network(network, optimizer, loss_fn, level, **options)
    if not isinstance(manager, LossScaleManager):
        raise TypeError(f"For 'build_train_network', 'loss_scale_manager' must be a "
                        f"LossScaleManager, but got {type(manager).__name__}.")
    if isinstance(manager, DynamicLossScaleManager):
        scaler = DynamicLossScaler(manager.loss_scale, manager.scale_factor,
                                   manager.scale_window)
    elif manager.get_drop_overflow_update():
        scaler = StaticLossScaler(manager.get_loss_scale())
    else:
        from .nn import TrainOneStepCell
        step = _sx_build_train_network(network, optimizer, loss_fn, level, loss_scaler=None,
                                       **options)
        return TrainOneStepCell(step.network, optimizer, sens=manager.get_loss_scale())
    return _sx_build_train_network(network, optimizer, loss_fn, level, loss_scaler=scaler,
                                   **options)

