"""The strategy search's context key: ``fully_use_devices`` (MindSpore's
``set_algo_parameters(fully_use_devices=...)``)."""
from __future__ import annotations

__all__ = ["add_search_options"]


def _flag(value):
    if not isinstance(value, bool):
        raise ValueError("must be True or False")
    return value


def add_search_options(options) -> None:
    options.add_option("fully_use_devices", True, convert=_flag, valid="True or False",
                       doc="Strategy search: consider only strategies that split every op "
                           "over all the devices (False: ones using fewer devices too).")
