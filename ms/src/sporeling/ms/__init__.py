"""sporeling.ms: MindSpore 2.x's API over Sporeling (``import sporeling.ms as ms``).

The layout is MindSpore's: ``ms.Tensor``, ``ms.Parameter``, ``ms.set_context``,
``ms.jit``, ``ms.grad``/``ms.value_and_grad`` (``ms.ops``'s: MindSpore's all-ones
sensitivity for non-scalar outputs), checkpoints, dtype objects (``ms.float32``
prints ``Float32``; ``ms.dtype`` is also importable as ``mstype``), and the subpackages
``ms.nn``, ``ms.ops``, ``ms.amp``, ``ms.dataset``, ``ms.train``, ``ms.communication``.
Everything calls ``sporeling.expression`` (and ``sporeling.data``/``sporeling.amp``); the
facade adapts names and signatures only.
"""
from importlib.metadata import PackageNotFoundError, version as _version

from sporeling.core import get_seed, set_seed
from sporeling.expression import Parameter, ParameterTuple, Tensor, no_grad

from . import common
from .common.api import jit
from .common import dtype
from .common.dtype import (bfloat16, bool_, double, dtype_to_nptype, dtype_to_pytype,
                           float16, float32, float64, float_, half, int8, int16, int32, int64,
                           int_, pytype_to_dtype, single, uint8)
from . import context
from .context import (GRAPH_MODE, PYNATIVE_MODE, ParallelMode, get_auto_parallel_context,
                      get_context, reset_auto_parallel_context, set_auto_parallel_context,
                      set_context)
from . import ops, nn, amp, dataset, train, communication  # noqa: E402
from . import mint  # noqa: E402
from .ops.functional_math.differential import grad, value_and_grad  # noqa: E402
from .train import (CheckpointConfig, LossMonitor, Model, ModelCheckpoint,  # noqa: E402
                    TimeMonitor)
from .train.serialization import (ckpt_to_safetensors, load_checkpoint,  # noqa: E402
                                  load_param_into_net, safetensors_to_ckpt, save_checkpoint)

mstype = dtype

try:
    __version__ = _version("sporeling-ms")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0+unknown"


def jit_class(cls):
    """MindSpore's ``@jit_class``: marks a class usable inside compiled code. Sporeling's
    tracer runs any Python object's methods at compile time, so the class is returned as is."""
    return cls


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """MindSpore 2.10's ``mindspore.tensor``: ``Tensor(input_data, dtype, shape=, init=)``
    (``tensor([1, 2])`` is int64, ``tensor([1.5])`` float32). ``const_arg`` and ``device``
    (``"CPU"``, ...) are accepted and change nothing: Sporeling has one host device."""
    if device is not None and not isinstance(device, str):
        raise TypeError(f"tensor: device must be a str such as 'CPU', got {type(device).__name__}")
    if init is None and input_data is None and shape is not None:
        return Tensor(shape=shape, dtype=dtype)
    return Tensor(input_data, dtype, shape=shape if init is not None else None, init=init)


from_numpy = Tensor.from_numpy


def is_tensor(obj) -> bool:
    """True for a ``Tensor`` (Parameters included)."""
    return isinstance(obj, Tensor)


__all__ = [
    "Tensor", "tensor", "from_numpy", "Parameter", "ParameterTuple", "jit", "jit_class", "grad", "value_and_grad",
    "no_grad", "save_checkpoint", "load_checkpoint", "load_param_into_net",
    "ckpt_to_safetensors", "safetensors_to_ckpt", "set_seed",
    "get_seed", "set_context", "get_context", "GRAPH_MODE", "PYNATIVE_MODE", "ParallelMode",
    "set_auto_parallel_context", "get_auto_parallel_context", "reset_auto_parallel_context",
    "context", "dtype", "mstype", "common", "is_tensor", "dtype_to_nptype", "dtype_to_pytype",
    "pytype_to_dtype", "bool_", "int8", "int16", "int32", "int64", "uint8", "float16",
    "float32", "float64", "bfloat16", "half", "single", "double", "float_", "int_",
    "ops", "nn", "mint", "amp", "dataset", "train", "communication", "Model", "LossMonitor",
    "ModelCheckpoint", "CheckpointConfig", "TimeMonitor", "__version__",
]
