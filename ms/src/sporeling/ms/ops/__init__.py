"""``ms.ops``: MindSpore 2.x functional ops and primitive classes over ``sx.ops``.

Each part lives in its own module; this file only gathers their ``__all__``.
"""
from .functional_math import *      # noqa: F401,F403  elementwise, reduction, comparison, linalg, creation, random
from .functional_math import __all__ as _math_all
from .functional_array import *     # noqa: F401,F403  array, nn, loss, activation, parameter, image
from .functional_array import __all__ as _array_all
from .primitives import *           # noqa: F401,F403  primitive classes, GradOperation
from .primitives import __all__ as _prim_all
from .multitype import HyperMap, Map, MultitypeFuncGraph
from .reg_info import *             # noqa: F401,F403  op-registration builders, DataType
from .reg_info import __all__ as _reg_all
from .registries import ReduceOp, tensor_operator_registry, vm_impl_registry
from .functional_array.collectives import P2POp

__all__ = [*_math_all, *_array_all, *_prim_all, "HyperMap", "Map", "MultitypeFuncGraph",
           *_reg_all, "P2POp", "ReduceOp", "tensor_operator_registry", "vm_impl_registry"]

from ..common import tensor_methods as _tensor_methods  # noqa: E402

_tensor_methods.install()  # MindSpore's Tensor methods, over these functions

from . import composite, functional, operations, primitive  # noqa: E402,F401  MindSpore's module paths
from . import array_ops, auto_generate, linalg_ops, signature  # noqa: E402,F401
from .auto_generate import gen_ops_def, gen_ops_prim  # noqa: E402,F401
from . import operations as P  # noqa: E402,N812  2.10's ``ops.P`` (``ops.functional``'s alias)

__all__ += ["P", "array_ops", "auto_generate", "gen_ops_def", "gen_ops_prim", "linalg_ops",
            "signature"]

import sys as _sys  # noqa: E402

from . import other_ops  # noqa: E402  2.10's ops.other_ops (= ops.operations.other_ops)

operations.other_ops = other_ops
_sys.modules[f"{operations.__name__}.other_ops"] = other_ops
__all__ += ["other_ops"]

# 2.10's operator-generation helpers, each mapped onto the facade's ops and dtypes
from . import arg_dtype_cast, arg_handler  # noqa: E402,F401  argument converters
from . import cpp_create_prim_instance_helper, gen_extend_func, pyboost_inner_prim  # noqa: E402,F401,E501

auto_generate.gen_extend_func = gen_extend_func  # where 2.10 has these three
auto_generate.pyboost_inner_prim = pyboost_inner_prim
auto_generate.cpp_create_prim_instance_helper = cpp_create_prim_instance_helper
__all__ += ["arg_dtype_cast", "arg_handler", "cpp_create_prim_instance_helper",
            "gen_extend_func", "pyboost_inner_prim"]

from importlib.util import find_spec as _find_spec  # noqa: E402

if _find_spec("sporeling.parallel") is not None:  # its key-value store, imported on use
    __all__ += ["TCPStore"]                       # (sporeling.parallel costs ~60 ms)


def __getattr__(name):
    if name == "TCPStore" and name in __all__:
        from .tcp_store import TCPStore
        globals()[name] = TCPStore
        return TCPStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
