"""MindSpore's operator-registration builders: ``CpuRegOp``, ``AiCPURegOp``, ``TBERegOp``,
``AkgGpuRegOp``, ``AkgAscendRegOp``, ``CustomRegOp`` and the ``DataType`` table.

They are data builders: each fluent method checks its arguments, records them and returns
the builder; ``get_op_info()`` returns the registration dict MindSpore hands to its kernel
library (keys as 2.10 writes them: ``attr``, ``fusion_type``, ``dtype_format``...). Sporeling
has no kernel library to register into, so ``op_info_register`` only records the dict on the
decorated function (``fn.reg_info``); the dict itself is the same.
"""
from __future__ import annotations

from sporeling.core.errors import ArgumentError

__all__ = ["AiCPURegOp", "AkgAscendRegOp", "AkgGpuRegOp", "CpuRegOp", "CustomRegOp",
           "DataType", "TBERegOp"]

# get_op_info's renames of TBE flags (2.10 keeps these camelCase names for compatibility)
_CAMEL = {"dynamic_shape_support": "dynamicShapeSupport",
          "dynamic_rank_support": "dynamicRankSupport",
          "dynamic_compile_static": "dynamicCompileStatic",
          "need_check_support": "needCheckSupport", "dynamic_format": "dynamicFormat"}


def _check(op_name: str, what: str, value, kind: type):
    # bool is an int to Python; MindSpore's int checks accept it too, its bool checks only bool
    if not isinstance(value, kind):
        raise ArgumentError(f"{op_name}: {what} has the wrong type",
                            expected=kind.__name__, got=f"{type(value).__name__} {value!r}")
    return value


class RegOp:
    """The shared part: inputs, outputs, attributes, fusion type and dtype/format rows."""

    def __init__(self, op_name: str = ""):
        if not isinstance(op_name, str) or not op_name.strip():
            raise ArgumentError(f"{type(self).__name__}: op_name must be a non-empty str",
                                expected="a non-empty str", got=repr(op_name))
        self.op_name = op_name
        self.inputs: list[dict] = []
        self.outputs: list[dict] = []
        self.attr_: list[dict] = []
        self.fusion_type_ = ""
        self.dtype_format_: list[tuple] = []

    def _entry(self, what: str, fields: dict, kwargs: dict) -> dict:
        """The dict of the non-None ``fields`` (key -> (value, type)) plus ``kwargs``."""
        entry = {}
        for key, (value, kind) in fields.items():
            if value is not None:
                entry[key] = _check(self.op_name, f"{what} {key!r}", value, kind)
        entry.update(kwargs)
        return entry

    def _io(self, index, name, param_type, kwargs) -> dict:
        return self._entry("input/output", {"index": (index, int), "name": (name, str),
                                            "paramType": (param_type, str)}, kwargs)

    def fusion_type(self, fusion_type: str):
        self.fusion_type_ = _check(self.op_name, "fusion_type", fusion_type, str)
        return self

    def dtype_format(self, *args):
        """One supported combination: a ``(dtype, format)`` pair (``DataType.F32_Default``)
        for each input then each output."""
        expected = len(self.inputs) + len(self.outputs)
        if len(args) != expected:
            raise ArgumentError(f"{self.op_name}: dtype_format needs one (dtype, format) per "
                                "input and output", expected=f"{expected} pairs",
                                got=f"{len(args)}")
        for arg in args:
            if not (isinstance(arg, tuple) and len(arg) in (2, 3)
                    and all(isinstance(part, str) for part in arg)):
                raise ArgumentError(f"{self.op_name}: a dtype_format entry must be a tuple of "
                                    "2 or 3 str", expected="e.g. DataType.F32_Default",
                                    got=repr(arg))
        self.dtype_format_.append(tuple(args))
        return self

    def get_op_info(self) -> dict:
        """The registration dict: the recorded fields, a trailing ``_`` dropped from keys."""
        info = {}
        for key, value in vars(self).items():
            if key.endswith("_"):
                key = key.rstrip("_")
                key = _CAMEL.get(key, key)
            info[key] = value
        return info


class CpuRegOp(RegOp):
    """Registration of a CPU kernel (``imply_type`` ``"CPU"``)."""

    def __init__(self, op_name: str):
        super().__init__(op_name)
        self.imply_type = "CPU"

    def input(self, index=None, name=None, param_type=None, **kwargs):
        self.inputs.append(self._io(index, name, param_type, kwargs))
        return self

    def output(self, index=None, name=None, param_type=None, **kwargs):
        self.outputs.append(self._io(index, name, param_type, kwargs))
        return self

    def attr(self, name=None, value_type=None, value=None, **kwargs):
        self.attr_.append(self._entry("attr", {"name": (name, str), "type": (value_type, str),
                                               "value": (value, str)}, kwargs))
        return self


class AiCPURegOp(CpuRegOp):
    """Registration of an AiCPU kernel (``imply_type`` ``"AiCPU"``)."""

    def __init__(self, op_name: str):
        super().__init__(op_name)
        self.imply_type = "AiCPU"


class AkgRegOp(RegOp):
    """Registration of an AKG kernel for ``processor``."""

    def __init__(self, op_name: str, processor: str):
        super().__init__(op_name)
        self.imply_type = "AKG"
        self.processor = processor

    def input(self, index=None, name=None, param_type=None, **kwargs):
        self.inputs.append(self._io(index, name, param_type, kwargs))
        return self

    def output(self, index=None, name=None, **kwargs):
        self.outputs.append(self._io(index, name, None, kwargs))
        return self

    def attr(self, name=None, param_type=None, value_type=None, **kwargs):
        self.attr_.append(self._entry("attr", {"name": (name, str),
                                               "paramType": (param_type, str),
                                               "type": (value_type, str)}, kwargs))
        return self


class AkgGpuRegOp(AkgRegOp):
    def __init__(self, op_name: str):
        super().__init__(op_name, "CUDA")


class AkgAscendRegOp(AkgRegOp):
    def __init__(self, op_name: str):
        super().__init__(op_name, "AiCore")


class TBERegOp(RegOp):
    """Registration of an Ascend TBE kernel: its flags have setters of the same name."""

    def __init__(self, op_name: str):
        super().__init__(op_name)
        self.imply_type = "TBE"
        self.async_flag_ = False
        self.binfile_ = ""
        self.compute_cost_ = 10
        self.kernel_ = ""
        self.partial_flag_ = False
        self.reshape_type_ = ""
        self.dynamic_rank_support_ = False
        self.dynamic_shape_support_ = False
        self.dynamic_compile_static_ = False
        self.need_check_support_ = False
        self.dynamic_format_ = False
        self.op_pattern_ = ""
        self.real_input_index_: list = []
        self.input_to_attr_index_: list = []
        self.unknown_shape_formats_: list = []

    def _set(self, field: str, value, kind: type, what: str):
        setattr(self, field, _check(self.op_name, what, value, kind))
        return self

    def async_flag(self, async_flag=False):
        return self._set("async_flag_", async_flag, bool, "async_flag")

    def binfile_name(self, binfile_name):
        return self._set("binfile_", binfile_name, str, "binfile_name")

    def compute_cost(self, compute_cost=10):
        return self._set("compute_cost_", compute_cost, int, "compute_cost")

    def kernel_name(self, kernel_name):
        return self._set("kernel_", kernel_name, str, "kernel_name")

    def partial_flag(self, partial_flag=True):
        return self._set("partial_flag_", partial_flag, bool, "partial_flag")

    def reshape_type(self, reshape_type):
        return self._set("reshape_type_", reshape_type, str, "reshape_type")

    def dynamic_shape(self, dynamic_shape=False):
        return self._set("dynamic_shape_support_", dynamic_shape, bool, "dynamic_shape")

    def dynamic_rank_support(self, dynamic_rank_support):
        return self._set("dynamic_rank_support_", dynamic_rank_support, bool,
                         "dynamic_rank_support")

    def dynamic_compile_static(self, dynamic_compile_static=False):
        return self._set("dynamic_compile_static_", dynamic_compile_static, bool,
                         "dynamic_compile_static")

    def need_check_supported(self, need_check_supported=False):
        return self._set("need_check_support_", need_check_supported, bool,
                         "need_check_supported")

    def is_dynamic_format(self, is_dynamic_format=False):
        return self._set("dynamic_format_", is_dynamic_format, bool, "is_dynamic_format")

    def op_pattern(self, pattern=None):
        return self if pattern is None else self._set("op_pattern_", pattern, str, "pattern")

    def real_input_index(self, real_input_index):
        return self._set("real_input_index_", real_input_index, list, "real_input_index")

    def input_to_attr_index(self, input_to_attr_index):
        return self._set("input_to_attr_index_", input_to_attr_index, list,
                         "input_to_attr_index")

    def unknown_shape_formats(self, unknown_shape_formats):
        self.unknown_shape_formats_.append(
            _check(self.op_name, "unknown_shape_formats", unknown_shape_formats, list))
        return self

    def attr(self, name=None, param_type=None, value_type=None, value=None,
             default_value=None, **kwargs):
        self.attr_.append(self._entry("attr", {
            "name": (name, str), "paramType": (param_type, str), "type": (value_type, str),
            "value": (value, str), "defaultValue": (default_value, str)}, kwargs))
        return self

    def input(self, index=None, name=None, need_compile=None, param_type=None, shape=None,
              value_depend=None, **kwargs):
        entry = self._entry("input", {
            "index": (index, int), "name": (name, str), "needCompile": (need_compile, bool),
            "paramType": (param_type, str), "shape": (shape, str),
            "valueDepend": (value_depend, str)}, kwargs)
        allowed = ("ignored", "optional", "required")
        if value_depend and value_depend.lower() not in allowed:
            raise ArgumentError(f"{self.op_name}: input {index}'s value_depend is unknown",
                                expected=" or ".join(allowed), got=repr(value_depend))
        self.inputs.append(entry)
        return self

    def output(self, index=None, name=None, need_compile=None, param_type=None, shape=None,
               **kwargs):
        self.outputs.append(self._entry("output", {
            "index": (index, int), "name": (name, str), "need_compile": (need_compile, bool),
            "paramType": (param_type, str), "shape": (shape, str)}, kwargs))
        return self


class CustomRegOp(RegOp):
    """Registration info for the ``func`` of :class:`ops.Custom` (``target`` says which
    device it is for; ``"UnKnown"`` until set)."""

    def __init__(self, op_name: str = "Custom"):
        super().__init__(op_name)
        self.target_ = "UnKnown"

    def input(self, index=None, name=None, param_type="required", **kwargs):
        self.inputs.append(self._io(index, name, param_type, kwargs))
        return self

    def output(self, index=None, name=None, param_type="required", **kwargs):
        self.outputs.append(self._io(index, name, param_type, kwargs))
        return self

    def attr(self, name=None, param_type=None, value_type=None, default_value=None, **kwargs):
        self.attr_.append(self._entry("attr", {
            "name": (name, str), "paramType": (param_type, str), "type": (value_type, str),
            "defaultValue": (default_value, str)}, kwargs))
        return self

    def target(self, target=None):
        self.target_ = None if target is None else _check(self.op_name, "target", target, str)
        return self

    def get_op_info(self) -> dict:
        # 2.10's CustomRegOp only drops the trailing "_" (no camelCase renames)
        return {key.rstrip("_") if key.endswith("_") else key: value
                for key, value in vars(self).items()}


# --- DataType: (dtype, format) pairs, 2.10's table built from its regular parts ----------

_COMMON_FORMATS = {"None": "", "Default": "DefaultFormat", "5HD": "NC1HWC0",
                   "FracZ": "FRACTAL_Z", "FracNZ": "FRACTAL_NZ", "C1HWNCoC0": "C1HWNCoC0",
                   "NCHW": "NCHW", "NHWC": "NHWC", "HWCN": "HWCN", "NDHWC": "NDHWC",
                   "ChannelLast": "ChannelLast"}
_FLOAT_EXTRA = {"NCDHW": "NCDHW", "DHWCN": "DHWCN", "NDC1HWC0": "NDC1HWC0",
                "FRACTAL_Z_3D": "FRACTAL_Z_3D", "FracZNLSTM": "FRACTAL_ZN_LSTM",
                "FracZNRNN": "FRACTAL_ZN_RNN", "ND_RNNBIAS": "ND_RNN_BIAS"}
_BYTE_EXTRA = {"NCDHW": "NCDHW", "NDC1HWC0": "NDC1HWC0", "NC1HWC0": "NC1HWC0"}
_DTYPES = {  # prefix: (dtype name, formats beyond the common ones)
    "BOOL": ("bool", {}), "I8": ("int8", _BYTE_EXTRA), "U8": ("uint8", _BYTE_EXTRA),
    "I16": ("int16", {}), "U16": ("uint16", {}),
    "I32": ("int32", {"NDC1HWC0": "NDC1HWC0", "NCDHW": "NCDHW"}), "U32": ("uint32", {}),
    "I64": ("int64", {}), "U64": ("uint64", {}),
    "F16": ("float16", _FLOAT_EXTRA), "F32": ("float32", _FLOAT_EXTRA), "F64": ("float64", {}),
}


def _data_type_table() -> dict:
    table = {"None_None": ("", ""), "None_Default": ("", "DefaultFormat"),
             "C64_Default": ("complex64", "DefaultFormat"),
             "C128_Default": ("complex128", "DefaultFormat"),
             "C64_Default_Tuple": ("complex64", "DefaultFormat", "tuple"),
             "C128_Default_Tuple": ("complex128", "DefaultFormat", "tuple")}
    for prefix, (name, extra) in _DTYPES.items():
        for suffix, fmt in {**_COMMON_FORMATS, **extra}.items():
            table[f"{prefix}_{suffix}"] = (name, fmt)
        table[f"{prefix}_Default_Tuple"] = (name, "DefaultFormat", "tuple")
        table[f"{prefix}_Default_List"] = (name, "DefaultFormat", "list")
    return table


DataType = type("DataType", (), {
    "__doc__": "MindSpore's ``(dtype, format)`` pairs for ``dtype_format`` "
               "(``DataType.F32_Default == ('float32', 'DefaultFormat')``).",
    "__module__": __name__, **_data_type_table()})
