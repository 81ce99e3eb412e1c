"""``ms.run_check``, ``ms.synchronize``, ``ms.set_device``, ``ms.set_deterministic`` and the
log settings (``get_level``, ``get_log_config``) on Sporeling's one host device."""
from __future__ import annotations

import os

import numpy as np

__all__ = ["run_check", "synchronize", "set_device", "set_deterministic", "get_level",
           "get_log_config"]


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
