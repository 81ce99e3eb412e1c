"""``DeviceCtx(name, device_id=None)`` (2.10's ``mindspore.common.device``): a context
manager that makes ``name``/``device_id`` the current device (``set_device``) and restores
the previous one on exit; nested contexts unwind in order (a stack per thread).

MindSpore accepts ``"CPU"``, ``"GPU"``, ``"Ascend"`` and ``"meta"``; entering a device no
installed Sporeling backend serves (``"meta"``, tensors without storage, included) raises
``set_device``'s ``ContextError`` and changes nothing."""
from __future__ import annotations

import threading

from .runtime_info import get_current_device, set_device

__all__ = ["DeviceCtx"]

_VALID = ["CPU", "GPU", "Ascend", "meta"]
_local = threading.local()


def _stack() -> list:
    if not hasattr(_local, "stack"):
        _local.stack = []
    return _local.stack


class DeviceCtx:
    """Device context."""

    def __init__(self, name: str, device_id=None):
        self.name = name
        self.device_id = device_id

    def __enter__(self) -> "DeviceCtx":
        if self.name not in _VALID:
            raise ValueError(f"For DeviceCtx, the name must be one of {_VALID}, but got "
                             f"{self.name}.")
        if self.device_id is not None and self.device_id < 0:
            raise ValueError("For DeviceCtx, the device_id must be greater than or equal to 0.")
        before = get_current_device()
        if self.device_id is None:
            self.device_id = 0
        set_device(self.name, self.device_id)
        _stack().append(before)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> None:
        before = _stack().pop()
        set_device(before.device_target, before.device_id)
