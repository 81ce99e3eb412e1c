"""``ms.run_check``, ``ms.synchronize``, ``ms.set_device``/``ms.get_current_device``,
``ms.set_deterministic``, ``ms.launch_blocking``, ``ms.set_recursion_limit`` and the log
settings (``get_level``, ``get_log_config``) on Sporeling's one host device."""
from __future__ import annotations

import os

import numpy as np

__all__ = ["run_check", "synchronize", "set_device", "set_deterministic", "get_level",
           "get_log_config", "DeviceInfo", "get_current_device", "launch_blocking",
           "set_recursion_limit"]


def run_check() -> None:
    """Check the installation: multiply two small tensors and print the result."""
    import sporeling.ms as ms
    print(f"MindSpore version (sporeling.ms facade): {ms.__version__}")
    x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    ok = np.allclose((x * x).asnumpy(), [1.0, 4.0, 9.0])
    if not ok:
        raise RuntimeError("run_check: a multiplication gave a wrong result")
    print("The result of multiplication calculation is correct, MindSpore has been "
          "installed on platform [CPU] successfully!")


def synchronize() -> None:
    """Wait for the device to finish: every Sporeling op has finished when it returns."""


def set_device(device_target, device_id=None) -> None:
    """Choose the device (``"CPU"``; ``device_id`` the card): ``set_context``'s keys."""
    from .context import set_context
    if not isinstance(device_target, str):
        raise TypeError(f"For 'set_device', 'device_target' must be a str, but got "
                        f"{type(device_target).__name__}.")
    kwargs = {"device_target": device_target}
    if device_id is not None:
        kwargs["device_id"] = device_id
    set_context(**kwargs)


class DeviceInfo(tuple):
    """``(device_target, device_id)``, also as attributes (MindSpore 2.10's)."""

    def __new__(cls, device_target, device_id):
        return super().__new__(cls, (device_target, device_id))

    @property
    def device_target(self) -> str:
        return self[0]

    @property
    def device_id(self) -> int:
        return self[1]


def get_current_device() -> DeviceInfo:
    """The device ``set_device`` (or ``set_context``) chose: ``("CPU", 0)`` by default."""
    from .context import get_context
    return DeviceInfo(get_context("device_target"), get_context("device_id"))


def launch_blocking() -> None:
    """Run ops synchronously, so an error points at the line that caused it (2.10:
    ``set_context(pynative_synchronize=True)``). Every Sporeling op has finished when it
    returns, so this only records the setting."""
    from .context import set_context
    set_context(pynative_synchronize=True)


def set_recursion_limit(recursion_limit=1000) -> None:
    """The deepest nesting of function calls a Graph-mode trace may reach
    (``set_context(max_call_depth=...)``)."""
    from .context import set_context
    if isinstance(recursion_limit, bool) or not isinstance(recursion_limit, int) \
            or recursion_limit <= 0:
        raise ValueError(f"For 'set_recursion_limit', 'recursion_limit' must be a positive "
                         f"int, but got {recursion_limit!r}.")
    set_context(max_call_depth=recursion_limit)


def set_deterministic(deterministic) -> None:
    """Ask for deterministic computation (``get_context("deterministic")`` becomes
    ``"ON"``); Sporeling's CPU kernels are deterministic either way."""
    from .context import set_context
    if not isinstance(deterministic, bool):
        raise TypeError(f"For 'set_deterministic', 'deterministic' must be bool, but got "
                        f"{type(deterministic).__name__}.")
    set_context(deterministic="ON" if deterministic else "OFF")


_LOG_KEYS = ("GLOG_v", "GLOG_logtostderr", "GLOG_log_dir", "GLOG_stderrthreshold",
             "logger_maxBytes", "logger_backupCount")


def get_level() -> str:
    """MindSpore's log level, from ``GLOG_v`` (``"2"``: WARNING, by default)."""
    return os.environ.get("GLOG_v", "2")


def get_log_config() -> dict:
    """The log settings given by environment variables (``GLOG_v``, ...), with the
    level's default."""
    config = {key: os.environ[key] for key in _LOG_KEYS if key in os.environ}
    config.setdefault("GLOG_v", get_level())
    return config
