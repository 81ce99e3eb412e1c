"""``ms.amp``: mixed precision under MindSpore 2.x's names (``sporeling.amp``'s), plus the
loss-scale managers ``FixedLossScaleManager`` and ``DynamicLossScaleManager``."""
from __future__ import annotations

from sporeling.amp import (DynamicLossScaler, LossScaler, StaticLossScaler, all_finite,
                           auto_mixed_precision, autocast, build_train_network,
                           custom_mixed_precision, get_black_list, get_white_list)

__all__ = ["auto_mixed_precision", "custom_mixed_precision", "build_train_network",
           "autocast", "get_white_list", "get_black_list", "LossScaler", "StaticLossScaler",
           "DynamicLossScaler", "all_finite", "FixedLossScaleManager",
           "DynamicLossScaleManager", "LossScaleManager"]


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
