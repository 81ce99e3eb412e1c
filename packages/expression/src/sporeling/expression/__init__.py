"""sporeling.expression: the user's front door -- Tensor, Parameter, ops, grad.

    >>> import sporeling.expression as sx
    >>> x = sx.Tensor([1.0, 2.0, 3.0])
    >>> sx.grad(lambda x: (x * x).sum())(x)
    Tensor(shape=[3], dtype=Float32, value= [2., 4., 6.])
"""
from importlib.metadata import PackageNotFoundError, version as _version

from sporeling.core import (GRAPH_MODE, PYNATIVE_MODE, context, dtypes, get_context,
                            set_context, set_seed)
from sporeling.core.dtypes import (bfloat16, bool_, float16, float32, float64, int8, int16,
                                   int32, int64, uint8)

from . import ops
from .autograd import (GradError, call_with_bprop, custom_bprop, grad, is_recording,
                       no_grad, stop_gradient, value_and_grad)
from .tensor import Parameter, ParameterTuple, Tensor
from .graph import jit
from .sharding import shard  # operator parallel, answered by a plugin (sporeling-parallel)

try:
    __version__ = _version("sporeling-expression")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "Tensor", "Parameter", "ParameterTuple", "ops", "grad", "value_and_grad", "GradError",
    "stop_gradient", "no_grad", "jit", "shard", "is_recording", "custom_bprop", "call_with_bprop",
    "set_context", "get_context", "context", "set_seed", "GRAPH_MODE", "PYNATIVE_MODE",
    "dtypes", "bool_", "int8", "int16", "int32", "int64", "uint8", "float16", "bfloat16",
    "float32", "float64", "__version__",
]

from . import nn, optim, serialization, train  # noqa: E402  (they build on Tensor and grad)
from .serialization import (load_checkpoint, load_param_into_net,  # noqa: E402
                            save_checkpoint)
from .train import Model  # noqa: E402

__all__ += ["nn", "optim", "serialization", "train", "Model", "save_checkpoint",
            "load_checkpoint", "load_param_into_net"]

from . import deploy  # noqa: E402  (quantisation and pruning: build on nn and train)
from .deploy import (PruningCallback, load_quantized, prune,  # noqa: E402
                     quantize)

__all__ += ["deploy", "quantize", "load_quantized", "prune", "PruningCallback"]

from .export import GraphCell, export, load  # noqa: E402  (export/load: SIR and ONNX)

__all__ += ["export", "load", "GraphCell"]
