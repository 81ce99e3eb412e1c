"""MindIR operations -> the facade's MindSpore primitives (``sporeling.ms.ops``), so a
loaded graph computes what MindSpore computes.

An entry is ``fn(args, attrs) -> value``: ``args`` the node's inputs (Tensors, Python
scalars and tuples from Constant nodes, tuples from MakeTuple), ``attrs`` the attributes
of its PRIMITIVE (empty for a PRIMITIVE_FUNCTION, whose arguments are all inputs). The
side-effect plumbing MindSpore adds around parameters (Load, UpdateState, Depend and the
monads) is data flow here: Load and Depend pass their first input on.
"""
from __future__ import annotations

from .. import ops
from .values import MONAD, dtype_of_type_id

__all__ = ["OPS", "SUPPORTED"]

OPS: dict = {}

_FORMATS = {0: "NCHW", 1: "NHWC"}                  # MindSpore's Format enum
_PAD_MODES = {0: "pad", 1: "same", 2: "valid"}     # MindSpore's PadMode enum


def op(*names):
    def register(fn):
        for name in names:
            OPS[name] = fn
        return fn
    return register


def _stateless(name):
    """A facade primitive built without arguments, applied to every input."""
    def run(args, attrs):
        return getattr(ops, name)()(*args)
    return run


for _name in ("Add Sub Mul Div RealDiv Maximum Minimum Pow Atan2 FloorDiv FloorMod Equal "
              "NotEqual Greater GreaterEqual Less LessEqual LogicalAnd LogicalOr LogicalNot "
              "Neg Abs Exp Log Sqrt Rsqrt Square Reciprocal Sign Floor Ceil Sin Cos Erf "
              "Expm1 Log1p ReLU ReLU6 Sigmoid Tanh Softplus IsNan IsInf IsFinite Select "
              "Flatten ZerosLike OnesLike AddN").split():
    OPS[_name] = _stateless(_name)
OPS.update({"Muls": OPS["Mul"], "Divs": OPS["Div"], "Adds": OPS["Add"], "Subs": OPS["Sub"]})


# ---- MindSpore's data-flow plumbing ------------------------------------------------------

@op("Load", "Depend")
def _first(args, attrs):
    return args[0]


@op("UpdateState")
def _update_state(args, attrs):
    return MONAD


@op("MakeTuple")
def _make_tuple(args, attrs):
    return tuple(args)


@op("TupleGetItem")
def _tuple_get_item(args, attrs):
    return args[0][int(args[1])]


# ---- operations with arguments -----------------------------------------------------------

@op("GeLU")
def _gelu(args, attrs):
    """MindSpore's GeLU primitive is the tanh approximation."""
    return ops.gelu(args[0], approximate="tanh")


@op("SiLU")
def _silu(args, attrs):
    return ops.mul(args[0], ops.Sigmoid()(args[0]))


@op("Round")
def _round(args, attrs):
    if len(args) > 1 and args[1] not in (None, 0):
        return ops.round(args[0], decimals=int(args[1]))
    return ops.Round()(args[0])


@op("Cast")
def _cast(args, attrs):
    dtype = args[1]
    if isinstance(dtype, int):
        dtype = dtype_of_type_id(dtype, "Cast")
    return ops.Cast()(args[0], dtype)


def _matmul(name):
    def run(args, attrs):
        ta, tb = (args[2], args[3]) if len(args) >= 4 else (
            attrs.get("transpose_a", False), attrs.get("transpose_b", False))
        return getattr(ops, name)(bool(ta), bool(tb))(args[0], args[1])
    return run


OPS["MatMul"], OPS["BatchMatMul"] = _matmul("MatMul"), _matmul("BatchMatMul")


@op("Dense")
def _dense(args, attrs):
    y = ops.MatMul(False, True)(args[0], args[1])
    return y if len(args) < 3 or args[2] is None else ops.add(y, args[2])


@op("BiasAdd")
def _bias_add(args, attrs):
    fmt = args[2] if len(args) > 2 else attrs.get("format", "NCHW")
    return ops.BiasAdd(_FORMATS.get(fmt, fmt))(args[0], args[1])


@op("Reshape")
def _reshape(args, attrs):
    return ops.Reshape()(args[0], tuple(args[1]))


@op("Transpose")
def _transpose(args, attrs):
    return ops.Transpose()(args[0], tuple(args[1]))


@op("BroadcastTo")
def _broadcast_to(args, attrs):
    shape = args[1] if len(args) > 1 else attrs["shape"]
    return ops.BroadcastTo(tuple(shape))(args[0])


@op("ExpandDims")
def _expand_dims(args, attrs):
    return ops.ExpandDims()(args[0], int(args[1]))


@op("Squeeze")
def _squeeze(args, attrs):
    axis = args[1] if len(args) > 1 else attrs.get("axis", ())
    return ops.Squeeze(tuple(axis) if isinstance(axis, (tuple, list)) else (int(axis),))(
        args[0])


@op("Concat")
def _concat(args, attrs):
    axis = args[1] if len(args) > 1 else attrs.get("axis", 0)
    return ops.Concat(int(axis))(tuple(args[0]))


@op("StridedSlice")
def _strided_slice(args, attrs):
    masks = args[4:9] if len(args) >= 9 else [attrs.get(k, 0) for k in (
        "begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")]
    return ops.StridedSlice(*map(int, masks))(args[0], tuple(args[1]), tuple(args[2]),
                                              tuple(args[3]))


def _reduce(name):
    def run(args, attrs):
        keep = args[2] if len(args) > 2 else attrs.get("keep_dims", False)
        axes = args[1] if len(args) > 1 else ()
        if len(args) > 3 and args[3] and not axes:  # ReduceSum's skip_mode: no axes, no-op
            return args[0]
        axes = tuple(axes) if isinstance(axes, (tuple, list)) else (
            () if axes is None else int(axes))
        return getattr(ops, name)(bool(keep))(args[0], axes)
    return run


for _name in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd"):
    OPS[_name] = _reduce(_name)


@op("Softmax")
def _softmax(args, attrs):
    axis = args[1] if len(args) > 1 else attrs.get("axis", -1)
    return ops.Softmax(axis)(args[0])


@op("LogSoftmax")
def _log_softmax(args, attrs):
    axis = args[1] if len(args) > 1 else attrs.get("axis", -1)
    return ops.LogSoftmax(int(axis[0] if isinstance(axis, (tuple, list)) else axis))(args[0])


@op("Conv2D")
def _conv2d(args, attrs):
    return ops.Conv2D(int(attrs["out_channel"]), tuple(attrs["kernel_size"]),
                      int(attrs.get("mode", 1)), str(attrs.get("pad_mode", "valid")).lower(),
                      tuple(attrs.get("pad", (0, 0, 0, 0))), tuple(attrs.get("stride", 1)),
                      tuple(attrs.get("dilation", 1)), int(attrs.get("group", 1)),
                      str(attrs.get("format", "NCHW")))(args[0], args[1])


def _pool(name):
    def run(args, attrs):
        if len(args) > 1:  # PRIMITIVE_FUNCTION: (x, kernel, strides, pad_mode, format)
            kernel, strides, mode, fmt = args[1:5]
            mode, fmt = _PAD_MODES[int(mode)], _FORMATS[int(fmt)]
        else:
            kernel, strides = attrs["kernel_size"], attrs["strides"]
            mode, fmt = attrs.get("pad_mode", "valid"), attrs.get("format", "NCHW")
        return getattr(ops, name)(tuple(kernel), tuple(strides), str(mode).lower(), fmt)(
            args[0])
    return run


OPS["MaxPool"], OPS["AvgPool"] = _pool("MaxPool"), _pool("AvgPool")


@op("Pad")
def _pad(args, attrs):
    return ops.Pad(tuple(tuple(int(n) for n in pair) for pair in attrs["paddings"]))(args[0])


@op("PadV3")
def _pad_v3(args, attrs):
    value = args[2] if len(args) > 2 else None
    value = None if value is None else float(value.asnumpy()) if hasattr(value, "asnumpy") \
        else float(value)
    return ops.pad(args[0], tuple(int(n) for n in args[1]), str(attrs.get("mode", "constant")),
                   value)


@op("BatchNorm")
def _batch_norm(args, attrs):
    """Inference BatchNorm: (x, scale, bias, mean, variance, is_training, epsilon,
    momentum, data_format) -> (y, mean, variance, reserve1, reserve2)."""
    extra = args[5:9] if len(args) >= 9 else [attrs.get("is_training", False),
                                              attrs.get("epsilon", 1e-5),
                                              attrs.get("momentum", 0.1),
                                              attrs.get("format", "NCHW")]
    training, eps, momentum, fmt = extra
    return ops.BatchNorm(bool(training), float(eps), float(momentum),
                         _FORMATS.get(fmt, fmt))(*args[:5])


@op("LSTM")
def _lstm(args, attrs):
    """MindSpore's LSTM (nn.LSTM runs one per layer): (x, h, c, flat weights) ->
    (y, h_n, c_n, reserve, state); the weights in CPU's or GPU's layout."""
    return ops.LSTM(int(attrs["input_size"]), int(attrs["hidden_size"]),
                    int(attrs["num_layers"]), bool(attrs["has_bias"]),
                    bool(attrs["bidirectional"]), float(attrs.get("dropout", 0.0)),
                    int(attrs.get("proj_size", 0)))(*args[:4])


SUPPORTED = frozenset(OPS)
