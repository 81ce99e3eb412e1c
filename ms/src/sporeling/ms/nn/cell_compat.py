"""``nn.Cell``'s bookkeeping members of MindSpore 2.10 that Sporeling does not need to run
a network but scripts read or set: flags and names (``phase``, ``cls_name``,
``param_prefix``, scopes), mixed-precision type, ``recompute``, jit config, the
auto-parallel attributes (plain values on one device), name checks and ``cast_inputs``."""
from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from enum import IntEnum

from sporeling.core import dtypes

__all__ = ["CellCompatMixin", "MixedPrecisionType"]

_instances = itertools.count(1)


class MixedPrecisionType(IntEnum):
    """What ``get_mixed_precision_type`` returns (MindSpore's enum)."""
    NOTSET = 0
    FP16 = 1
    FP32 = 2
    BF16 = 3


_TO_DTYPE = {MixedPrecisionType.FP16: dtypes.float16, MixedPrecisionType.FP32: dtypes.float32,
             MixedPrecisionType.BF16: dtypes.bfloat16}


def _typed_property(name: str, types, default, what: str, check=None):
    """A property over ``__dict__[name]`` whose setter checks the type (as MindSpore's)."""
    def get(self):
        return self.__dict__.get(name, default() if callable(default) else default)

    def put(self, value):
        if isinstance(value, bool) and bool not in types or not isinstance(value, types):
            raise TypeError(f"For 'Cell', the property '{what}' must be "
                            f"{' or '.join(t.__name__ for t in types)} type, but got type "
                            f"{type(value).__name__}.")
        if check is not None:
            check(value)
        self.__dict__[name] = value
    return property(get, put)


def _non_negative(value):
    if value < 0:
        raise ValueError(f"the pipeline stage must be >= 0, but got {value}")


class CellCompatMixin:
    """The members described in the module doc."""

    IGNORE_LIST = ["_scope", "_cell_init_args", "_auto_prefix", "_cells", "_params",
                   "_create_time", "_phase", "_parameter_layout_dict", "_bprop_debug",
                   "_param_prefix", "requires_grad", "cell_type"]
    total_instance_count = 0

    def _note_instance(self) -> None:
        d = self.__dict__
        d["_create_time"] = int(time.time() * 1e9)
        CellCompatMixin.total_instance_count = next(_instances)
        d.setdefault("_phase", "train")

    # ---- names and flags ------------------------------------------------------------------

    @property
    def cls_name(self) -> str:
        """The class name."""
        return type(self).__name__

    @property
    def create_time(self) -> int:
        """When the cell was made (ns since the epoch)."""
        return self.__dict__.get("_create_time", 0)

    phase = _typed_property("_phase", (str,), "train", "phase")
    bprop_debug = _typed_property("_bprop_debug", (bool,), False, "bprop_debug")
    cell_init_args = _typed_property("_cell_init_args", (str,), "", "cell_init_args")
    parameter_layout_dict = _typed_property("_parameter_layout_dict", (dict,), dict,
                                            "parameter_layout_dict")
    parallel_parameter_name_list = _typed_property("_parallel_parameter_name_list", (list,),
                                                   tuple, "parallel_parameter_name_list")
    parallel_parameter_merge_net_dict = _typed_property(
        "_parallel_parameter_merge_net_dict", (dict,), dict, "parallel_parameter_merge_net_dict")
    pipeline_stage = _typed_property("_pipeline_stage", (int,), 0, "pipeline_stage",
                                     _non_negative)
    pipeline_segment = _typed_property("_pipeline_segment", (int,), 0, "pipeline_segment",
                                       _non_negative)

    @property
    def param_prefix(self) -> str:
        """This cell's path in the tree ``update_cell_prefix`` was called on ("" before)."""
        return self.__dict__.get("_param_prefix", "")

    @property
    def exist_names(self) -> set:
        """The parameter names ``check_names`` found."""
        return self.__dict__.setdefault("_exist_names", set())

    @property
    def exist_objs(self) -> set:
        """The ids of the parameters ``check_names`` found."""
        return self.__dict__.setdefault("_exist_objs", set())

    @property
    def jit_config_dict(self) -> dict:
        """What ``set_jit_config`` was given (empty before)."""
        return self.__dict__.get("_jit_config_dict", {})

    @property
    def compile_cache(self) -> set:
        """The compile phases this cell has graphs for (Graph mode): one entry per graph
        of its compile cache."""
        from sporeling.expression.graph.cell_call import cache_of
        return {f"{self.phase}.{i}" for i in range(cache_of(self).info()["entries"])}

    def update_cell_prefix(self) -> None:
        """Set every sub-cell's ``param_prefix`` to its path in this cell."""
        for path, cell in self.cells_and_names():
            cell.__dict__["_param_prefix"] = path

    def update_cell_type(self, cell_type) -> None:
        """Record the cell type (``"quant"``, ``"second-order"``) in ``cell_type``."""
        self.__dict__["cell_type"] = cell_type

    def generate_scope(self) -> None:
        """Set every sub-cell's scope (``get_scope``) to its path in this cell."""
        for path, cell in self.cells_and_names():
            cell.__dict__["_scope"] = path

    def get_scope(self):
        """The scope ``generate_scope`` gave this cell (None before)."""
        return self.__dict__.get("_scope")

    def set_broadcast_flag(self, mode=True):
        """Mark this cell and its sub-cells for parameter broadcast (flag
        ``broadcast_flag``); returns the cell."""
        self.add_flags_recursive(broadcast_flag=mode)
        return self

    def set_jit_config(self, jit_config) -> None:
        """Keep a ``JitConfig``'s options in ``jit_config_dict``; its ``jit_level`` is the
        level this Cell compiles at when called in Graph mode ("": the context's)."""
        from sporeling.expression.graph.cell_call import cache_of

        from ..common.jit_config import JitConfig
        if not isinstance(jit_config, JitConfig):
            raise TypeError(f"For 'set_jit_config', the argument 'jit_config' must be a "
                            f"JitConfig, but got {type(jit_config).__name__}.")
        self.__dict__["_jit_config_dict"] = dict(jit_config.jit_config_dict)
        cache_of(self).set_jit_level(jit_config.level)

    def recompute(self, **kwargs) -> None:
        """Mark this cell and its sub-cells recomputed in the backward pass instead of
        keeping their activations (``mp_comm_recompute``, ``parallel_optimizer_comm_recompute``
        accepted). A memory trade-off only: results and gradients are the same."""
        known = ("mp_comm_recompute", "parallel_optimizer_comm_recompute",
                 "recompute_slice_activation")
        for name, value in kwargs.items():
            if name not in known:
                raise ValueError(f"For 'recompute', unknown keyword {name!r}; expected one "
                                 f"of {list(known)}.")
            if not isinstance(value, bool):
                raise TypeError(f"For 'recompute', '{name}' must be bool, but got "
                                f"{type(value).__name__}.")
        self.add_flags_recursive(recompute=True, **kwargs)

    # ---- mixed precision ------------------------------------------------------------------

    def set_mixed_precision_type(self, mixed_type, recurse=True) -> None:
        """Compute in float16 / float32 / bfloat16 (``MixedPrecisionType``), as ``to_float``;
        ``NOTSET`` computes in the parameters' own dtypes again."""
        if not isinstance(mixed_type, MixedPrecisionType):
            raise TypeError(f"For 'set_mixed_precision_type', 'mixed_type' must be a "
                            f"MixedPrecisionType, but got {type(mixed_type).__name__}.")
        cells = self.cells_and_names() if recurse else [("", self)]
        for _, cell in cells:
            cell.__dict__["_cast_dtype"] = _TO_DTYPE.get(mixed_type)

    def get_mixed_precision_type(self) -> MixedPrecisionType:
        """The dtype this cell computes in (``to_float`` / ``set_mixed_precision_type``)."""
        for kind, dtype in _TO_DTYPE.items():
            if self.__dict__.get("_cast_dtype") == dtype:
                return kind
        return MixedPrecisionType.NOTSET

    def cast_inputs(self, inputs, dst_type):
        """``inputs`` (nested tuples of Tensors) cast to ``dst_type``."""
        return tuple(self.cast_inputs(x, dst_type) if isinstance(x, tuple) else
                     x.astype(dst_type) for x in inputs)

    def run_construct(self, cast_inputs, kwargs):
        """``construct(*cast_inputs, **kwargs)``."""
        return self.construct(*cast_inputs, **kwargs)

    # ---- parameters -----------------------------------------------------------------------

    def check_names(self) -> None:
        """Raise ValueError if two different parameters share a name; fills ``exist_names``
        and ``exist_objs``."""
        names, objs = self.exist_names, self.exist_objs
        names.clear()
        objs.clear()
        for param in self.get_parameters():
            if param.name in names:
                raise ValueError(f"The value of {param.name} is {param}, its name "
                                 f"'{param.name}' already exists. Please set a unique name "
                                 "for the parameter.")
            names.add(param.name)
            objs.add(id(param))

    def check_names_and_refresh_name(self) -> None:
        """Rename parameters whose names repeat to their paths in this cell, then
        ``check_names``."""
        seen = {}
        for _, param in self.parameters_and_names():
            seen.setdefault(param.name, []).append(param)
        if any(len(v) > 1 for v in seen.values()):
            for path, param in self.parameters_and_names():
                param.name = path
        self.check_names()

    def parameters_broadcast_dict(self, recurse=True):
        """``{name: Parameter}`` of the parameters not marked ``layerwise_parallel`` (all of
        them here); None when there are none."""
        params = OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse)
                             if not getattr(p, "layerwise_parallel", False))
        return params or None

    def init_parameters_data(self, auto_parallel_mode=False):
        """``{parameter: initialised parameter}``: parameters made lazily (``init=``) get
        their data; the others map to themselves."""
        replaced = {}
        for param in self.get_parameters():
            if getattr(param, "has_init", False):
                param.init_data()
            replaced[param] = param
        return replaced
