"""``ms.set_context`` / ``ms.get_context`` and the mode constants, as MindSpore 2.x has them.

Keys Sporeling knows (``mode``, ``device_target``, ``device_id``, ``max_call_depth``,
``save_graphs``, ``max_device_memory``, ``mempool_block_size``, ...) go to
``sporeling.core.set_context`` and are validated there. A few MindSpore keys that tune
backends Sporeling does not have (``pynative_synchronize``, ``enable_graph_kernel``,
``jit_syntax_level``, ``save_graphs_path``, ...) are accepted and remembered so scripts run
unchanged; they change nothing -- but for ``jit_config={"jit_level": ...}``, whose level
becomes the context's ``jit_level`` (how Graph mode compiles). Any other key is a
``ContextError`` naming the known ones.
"""
from __future__ import annotations

import importlib
from typing import Any

from sporeling.core import GRAPH_MODE, PYNATIVE_MODE
from sporeling.core import get_context as _core_get
from sporeling.core import set_context as _core_set
from sporeling.core.errors import ContextError

__all__ = ["set_context", "get_context", "GRAPH_MODE", "PYNATIVE_MODE", "ParallelMode",
           "set_auto_parallel_context", "get_auto_parallel_context",
           "reset_auto_parallel_context", "set_ps_context", "get_ps_context",
           "set_algo_parameters", "get_algo_parameters", "reset_algo_parameters"]

# MindSpore keys without an effect here (accepted for portability; see the module doc)
_NO_EFFECT = {
    "pynative_synchronize": False, "enable_graph_kernel": False, "graph_kernel_flags": "",
    "jit_syntax_level": None, "save_graphs_path": ".", "runtime_num_threads": 30,
    "inter_op_parallel_num": 0, "deterministic": "OFF", "memory_optimize_level": "O0",
    "enable_reduce_precision": True, "check_bprop": False, "jit_config": None,
    "op_timeout": 1900, "print_file_path": None, "env_config_path": None,
    "enable_compile_cache": False, "compile_cache_path": ".", "precompile_only": False,
    "ascend_config": None, "gpu_config": None, "aoe_tune_mode": None, "aoe_config": None,
}
_no_effect_values: dict[str, Any] = {}


def set_context(**kwargs: Any) -> None:
    """MindSpore's ``set_context``: ``ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")``."""
    known = set(_core_get())
    core_keys = {k: v for k, v in kwargs.items() if k in known}
    unknown = sorted(k for k in kwargs if k not in known and k not in _NO_EFFECT)
    if unknown:
        raise ContextError("unknown context key", op="ms.set_context",
                           expected=f"one of {sorted(known | set(_NO_EFFECT))}",
                           got=", ".join(unknown))
    jit_config = kwargs.get("jit_config")
    if isinstance(jit_config, dict) and jit_config.get("jit_level"):
        core_keys["jit_level"] = jit_config["jit_level"]  # how Graph mode compiles
    if core_keys:
        _core_set(**core_keys)
    _no_effect_values.update({k: v for k, v in kwargs.items() if k in _NO_EFFECT})


def get_context(attr_key: str) -> Any:
    """MindSpore's ``get_context(attr_key)``."""
    if attr_key in _NO_EFFECT:
        return _no_effect_values.get(attr_key, _NO_EFFECT[attr_key])
    return _core_get(attr_key)


class ParallelMode:
    """MindSpore's parallel mode names (``ms.ParallelMode.DATA_PARALLEL``)."""
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"


_AUTO_PARALLEL_DEFAULTS = {"parallel_mode": ParallelMode.STAND_ALONE, "gradients_mean": False,
                           "device_num": 1, "global_rank": 0, "gradient_fp32_sync": True}
_auto_parallel: dict[str, Any] = dict(_AUTO_PARALLEL_DEFAULTS)


def _parallel(name: str):
    """``sporeling.parallel.<name>`` when that package is installed and provides it."""
    try:
        module = importlib.import_module("sporeling.parallel")
    except ImportError:
        return None
    return getattr(module, name, None)


def set_auto_parallel_context(**kwargs: Any) -> None:
    """MindSpore's ``set_auto_parallel_context``: sporeling.parallel's when installed; else
    recorded here (one process runs the whole model)."""
    fn = _parallel("set_auto_parallel_context")
    if fn is not None:
        return fn(**kwargs)
    mode = kwargs.get("parallel_mode", _auto_parallel["parallel_mode"])
    modes = {v for k, v in vars(ParallelMode).items() if k.isupper()}
    if mode not in modes:
        raise ContextError("unknown parallel_mode", op="ms.set_auto_parallel_context",
                           expected=f"one of {sorted(modes)}", got=repr(mode))
    _auto_parallel.update(kwargs)


def get_auto_parallel_context(attr_key: str) -> Any:
    fn = _parallel("get_auto_parallel_context")
    if fn is not None:
        return fn(attr_key)
    if attr_key not in _auto_parallel:
        raise ContextError("unknown auto-parallel key", op="ms.get_auto_parallel_context",
                           expected=f"one of {sorted(_auto_parallel)}", got=repr(attr_key))
    return _auto_parallel[attr_key]


def reset_auto_parallel_context() -> None:
    fn = _parallel("reset_auto_parallel_context")
    if fn is not None:
        return fn()
    _auto_parallel.clear()
    _auto_parallel.update(_AUTO_PARALLEL_DEFAULTS)


# ---- parameter server -------------------------------------------------------------------
# MindSpore's parameter-server training (``set_ps_context(enable_ps=True)``) has no
# counterpart in Sporeling: the PS mode stays off and asking for it is an error; the SSL
# settings that go with it are checked and kept.
_PS_DEFAULTS = {"enable_ps": False, "config_file_path": "", "enable_ssl": False,
                "client_password": "", "server_password": ""}
_ps_context: dict[str, Any] = dict(_PS_DEFAULTS)


def set_ps_context(**kwargs: Any) -> None:
    """MindSpore's parameter-server settings (``enable_ps``, ``config_file_path``,
    ``enable_ssl``, ``client_password``, ``server_password``). ``enable_ps=True`` is a
    ``ContextError``: Sporeling trains without a parameter server."""
    unknown = sorted(set(kwargs) - set(_PS_DEFAULTS))
    if unknown:
        raise ContextError("unknown parameter-server key", op="ms.set_ps_context",
                           expected=f"one of {sorted(_PS_DEFAULTS)}", got=", ".join(unknown))
    for key, value in kwargs.items():
        kind = bool if isinstance(_PS_DEFAULTS[key], bool) else str
        if not isinstance(value, kind):
            raise ContextError(f"{key} must be a {kind.__name__}", op="ms.set_ps_context",
                               expected=kind.__name__, got=type(value).__name__)
    if kwargs.get("enable_ps"):
        raise ContextError("no parameter-server mode", op="ms.set_ps_context",
                           expected="enable_ps=False", got="enable_ps=True",
                           hint="train data parallel (set_auto_parallel_context) instead")
    _ps_context.update(kwargs)


def get_ps_context(attr_key: str) -> Any:
    """A parameter-server setting (``enable_ps`` is always False)."""
    if attr_key not in _PS_DEFAULTS:
        raise ValueError(f"For 'get_ps_context', 'attr_key' must be one of "
                         f"{sorted(_PS_DEFAULTS)}, but got {attr_key!r}.")
    return _ps_context[attr_key]


# ---- the strategy search's parameters ---------------------------------------------------
# ``fully_use_devices`` is sporeling.parallel's search knob of that name; the others tune
# MindSpore's own search, which Sporeling's does not have: their defaults are accepted and
# any other value is a ContextError (it would change nothing).
_ALGO_DEFAULTS = {"fully_use_devices": True, "elementwise_op_strategy_follow": False,
                  "enable_algo_approxi": False, "algo_approxi_epsilon": 0.1,
                  "tensor_slice_align_enable": False, "tensor_slice_align_size": 16}
_algo: dict[str, Any] = dict(_ALGO_DEFAULTS)


def set_algo_parameters(**kwargs: Any) -> None:
    """MindSpore's strategy-search parameters: ``fully_use_devices`` (False: strategies
    that leave devices idle are considered too); the other keys only at their defaults."""
    unknown = sorted(set(kwargs) - set(_ALGO_DEFAULTS))
    if unknown:
        raise ContextError("unknown algo parameter", op="ms.set_algo_parameters",
                           expected=f"one of {sorted(_ALGO_DEFAULTS)}", got=", ".join(unknown))
    for key, value in kwargs.items():
        if key == "fully_use_devices":
            if not isinstance(value, bool):
                raise ContextError("fully_use_devices must be a bool",
                                   op="ms.set_algo_parameters", expected="True or False",
                                   got=repr(value))
        elif value != _ALGO_DEFAULTS[key] or type(value) is not type(_ALGO_DEFAULTS[key]):
            raise ContextError(f"{key} is not a knob of Sporeling's strategy search",
                               op="ms.set_algo_parameters",
                               expected=f"{key}={_ALGO_DEFAULTS[key]!r} (the default)",
                               got=repr(value))
    if "fully_use_devices" in kwargs and "fully_use_devices" in _core_get():
        _core_set(fully_use_devices=kwargs["fully_use_devices"])
    _algo.update(kwargs)


def get_algo_parameters(attr_key: str) -> Any:
    """One strategy-search parameter."""
    if attr_key not in _ALGO_DEFAULTS:
        raise ValueError(f"For 'get_algo_parameters', 'attr_key' must be one of "
                         f"{sorted(_ALGO_DEFAULTS)}, but got {attr_key!r}.")
    if attr_key == "fully_use_devices" and attr_key in _core_get():
        return _core_get(attr_key)
    return _algo[attr_key]


def reset_algo_parameters() -> None:
    """Every strategy-search parameter back to its default."""
    set_algo_parameters(**_ALGO_DEFAULTS)
