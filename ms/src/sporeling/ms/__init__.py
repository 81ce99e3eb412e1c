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
from .common.dtype import (Type, bfloat16, bool_, byte, double, dtype_to_nptype,
                           dtype_to_pytype, float16, float32, float64, float_, half, int8,
                           int16, int32, int64, int_, intc, intp, long, pytype_to_dtype, short,
                           single, ubyte, uint8)
from .common.graph_hints import (COMPATIBLE, LAX, STRICT, Symbol, enable_dynamic, frombuffer,
                                 lazy_inline, mutable, no_inline, recompute)
from .common.jit_config import JitConfig
from .common.random import (Generator, default_generator, get_rng_state, initial_seed,
                            manual_seed, seed, set_rng_state)
from . import context
from .context import (GRAPH_MODE, PYNATIVE_MODE, ParallelMode, get_auto_parallel_context,
                      get_context, reset_auto_parallel_context, set_auto_parallel_context,
                      set_context)
from . import ops, nn, amp, dataset, train, communication  # noqa: E402
from . import mint  # noqa: E402
from .ops.functional_math.differential import grad, value_and_grad  # noqa: E402
# 2.10 binds these at the top level without listing them in __all__
from .ops import jacfwd, jacrev, jvp, vjp, vmap  # noqa: E402,F401
from .train import (BackupAndRestore, CheckpointConfig, LossMonitor, Model,  # noqa: E402
                    ModelCheckpoint, TimeMonitor)
from .train.serialization import (ckpt_to_safetensors, load_checkpoint,  # noqa: E402
                                  load_param_into_net, safetensors_to_ckpt, save_checkpoint)
from .mindir import export, load, load_mindir, save_mindir  # noqa: E402  MindIR files
from .train import FlopsUtilizationCollector  # noqa: E402
from .train import (F1, MAE, MSE, ROC, Accuracy, BleuScore, Callback,  # noqa: E402
                    ConfusionMatrix, ConfusionMatrixMetric, CosineSimilarity, DatasetHelper,
                    Dice, DynamicLossScaleManager, EarlyStopping, Fbeta, FixedLossScaleManager,
                    HausdorffDistance, History, LambdaCallback, LearningRateScheduler, Loss,
                    LossScaleManager, MeanSurfaceDistance, Metric, OcclusionSensitivity,
                    OnRequestExit, Perplexity, Precision, Recall, ReduceLROnPlateau,
                    RootMeanSquareDistance, RunContext, Top1CategoricalAccuracy,
                    Top5CategoricalAccuracy, TopKCategoricalAccuracy, async_ckpt_thread_status,
                    auc, build_train_network, connect_network_with_dataset, data_sink,
                    get_metric_fn, load_checkpoint_async, merge_sliced_parameter, names,
                    rearrange_inputs)
from .ops.functional_array.sparse import COOTensor, CSRTensor  # noqa: E402
from .runtime_info import (get_level, get_log_config, run_check, set_deterministic,  # noqa: E402
                           set_device, synchronize)
from .runtime_info import (get_current_device, launch_blocking,  # noqa: E402
                           set_recursion_limit)
from .runtime_memory import (empty_cache, max_memory_allocated, memory_allocated,  # noqa: E402
                             memory_reserved, memory_stats, memory_summary,
                             reset_max_memory_allocated, reset_peak_memory_stats)
from .common.tensor import swap_tensors  # noqa: E402
from .common.sparse_tensor import RowTensor, SparseTensor  # noqa: E402
from .common.dtype import QuantDtype  # noqa: E402
from .common.dtype import (Int, TensorType, cdouble, cfloat, complex64,  # noqa: E402
                           complex128, float8_e4m3fn, float8_e5m2, get_py_obj_dtype, list_,
                           number, string, tensor_type, tuple_, type_none, uint, uint16,
                           uint32, uint64, uintc, uintp, ushort)
from .common.saved_tensors import (register_saved_tensors_hooks,  # noqa: E402
                                   saved_tensors_hooks)
from .runtime_memory import (MemPool, max_memory_reserved, ms_memory_recycle,  # noqa: E402
                             reset_max_memory_reserved, set_memory, use_mem_pool)
from .runtime_streams import (Event, Stream, StreamCtx, StreamLimitCtx,  # noqa: E402
                              communication_stream, current_stream, default_stream,
                              get_device_limit, get_stream_limit, reset_stream_limit,
                              set_cur_stream, set_device_limit, set_stream_limit)
from .runtime_threads import dispatch_threads_num, set_cpu_affinity  # noqa: E402
from . import runtime  # noqa: E402  (2.10's ms.runtime namespace)
from .parallel_layout import Layout, shard  # noqa: E402
from .context import (get_algo_parameters, get_ps_context,  # noqa: E402
                      reset_algo_parameters, set_algo_parameters, set_ps_context)
from .common.tensor_methods_host import UntypedStorage  # noqa: E402
from . import rewrite  # noqa: E402  (2.10's mindspore.rewrite)
from .rewrite import Node, NodeType, ScopedValue, SymbolTree  # noqa: E402
from .obfuscation import load_obf_params_into_net, obfuscate_ckpt  # noqa: E402
from .train.distributed_checkpoint import (build_searched_strategy,  # noqa: E402
                                           get_ckpt_path_with_strategy,
                                           load_distributed_checkpoint,
                                           merge_pipeline_strategys, parameter_broadcast,
                                           rank_list_for_transform, transform_checkpoint_by_rank,
                                           transform_checkpoints, unified_safetensors)
from .segmented_checkpoints import load_segmented_checkpoints  # noqa: E402
from .train import ConvertModelUtils, ConvertNetUtils  # noqa: E402  THOR
from .train import restore_group_info_list  # noqa: E402  MindSpore's group info file
from .pipeline_shared import sync_pipeline_shared_parameters  # noqa: E402
from .device_ctx import DeviceCtx  # noqa: E402
from .pluggable_allocator import PluggableAllocator  # noqa: E402  MemPool's blocks from a .so

mstype = dtype

try:
    __version__ = _version("sporeling-ms")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0+unknown"


def jit_class(cls):
    """MindSpore's ``@jit_class``: marks a class usable inside compiled code. Sporeling's
    tracer runs any Python object's methods at compile time, so the class is returned as is.
    As in 2.10, a Cell is not such a class (``TypeError``)."""
    from .nn import Cell
    if isinstance(cls, type) and issubclass(cls, Cell):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot "
                        f"be used for nn.Cell: {cls}.")
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
    "ModelCheckpoint", "CheckpointConfig", "TimeMonitor", "BackupAndRestore", "__version__",
    "export", "load", "load_mindir", "save_mindir",  # MindIR files
    # dtype aliases, graph-compiler hints, random state
    "Type", "byte", "ubyte", "short", "intc", "intp", "long", "JitConfig", "mutable",
    "Symbol", "lazy_inline", "no_inline", "enable_dynamic", "recompute", "STRICT",
    "COMPATIBLE", "LAX", "frombuffer", "Generator", "default_generator", "manual_seed", "seed",
    "initial_seed", "get_rng_state", "set_rng_state",
    # mindspore.train's names, re-exported at the top level as MindSpore 2.10 does
    "Callback", "RunContext", "EarlyStopping", "History", "LambdaCallback",
    "LearningRateScheduler", "ReduceLROnPlateau", "OnRequestExit", "Metric", "Accuracy", "Loss",
    "MAE", "MSE", "Precision", "Recall", "Fbeta", "F1", "ConfusionMatrix",
    "ConfusionMatrixMetric", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
    "Top5CategoricalAccuracy", "ROC", "auc", "Dice", "BleuScore", "CosineSimilarity",
    "Perplexity", "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance",
    "OcclusionSensitivity", "get_metric_fn", "names", "rearrange_inputs", "LossScaleManager",
    "FixedLossScaleManager", "DynamicLossScaleManager", "build_train_network",
    "DatasetHelper", "connect_network_with_dataset", "data_sink", "load_checkpoint_async",
    "async_ckpt_thread_status", "merge_sliced_parameter",
    "FlopsUtilizationCollector",
    # the host device
    "run_check", "synchronize", "set_device", "set_deterministic", "get_level",
    "get_log_config", "COOTensor", "CSRTensor",
    "get_current_device", "launch_blocking", "set_recursion_limit", "swap_tensors",
    "RowTensor", "SparseTensor",  # 2.10's deprecated sparse containers
    # the host memory pool's figures
    "memory_allocated", "max_memory_allocated", "memory_reserved", "memory_stats",
    "memory_summary", "reset_peak_memory_stats", "reset_max_memory_allocated", "empty_cache",
    "QuantDtype", "load_segmented_checkpoints",
    # the other dtypes and type objects of mindspore.common.dtype
    "uint16", "uint32", "uint64", "ushort", "uintc", "uintp", "uint", "complex64",
    "complex128", "cfloat", "cdouble", "float8_e4m3fn", "float8_e5m2", "Int", "TensorType",
    "tensor_type", "number", "string", "list_", "tuple_", "type_none", "get_py_obj_dtype",
    "saved_tensors_hooks", "register_saved_tensors_hooks",
    # streams and events (synchronous CPU device), core and thread limits
    "Stream", "Event", "StreamCtx", "StreamLimitCtx", "current_stream", "default_stream",
    "communication_stream", "set_cur_stream", "set_device_limit", "get_device_limit",
    "set_stream_limit", "get_stream_limit", "reset_stream_limit", "dispatch_threads_num",
    "set_cpu_affinity",
    # memory pools
    "MemPool", "use_mem_pool", "max_memory_reserved", "reset_max_memory_reserved",
    "set_memory", "ms_memory_recycle",
    # operator parallel and distributed checkpoints
    "shard", "Layout", "build_searched_strategy", "merge_pipeline_strategys",
    "load_distributed_checkpoint", "transform_checkpoints", "transform_checkpoint_by_rank",
    "rank_list_for_transform", "get_ckpt_path_with_strategy", "set_ps_context",
    "get_ps_context", "UntypedStorage", "parameter_broadcast", "unified_safetensors",
    "SymbolTree", "Node", "NodeType", "ScopedValue",  # mindspore.rewrite
    "set_algo_parameters", "get_algo_parameters", "reset_algo_parameters",
    "obfuscate_ckpt", "load_obf_params_into_net",
    "ConvertNetUtils", "ConvertModelUtils", "restore_group_info_list",
    "sync_pipeline_shared_parameters", "DeviceCtx", "PluggableAllocator",
]

from .common.insight import insight_names  # noqa: E402
# sporeling.insight's tools, where that plugin is installed (imported on first use)
__getattr__ = insight_names("sporeling.ms", ("Profiler", "SummaryRecord", "SummaryCollector",
                                           "SummaryLandscape"),
                            globals())
