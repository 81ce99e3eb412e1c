"""MindSpore 2.10's remaining primitive classes: collectives (one process), debugging and
summaries, gradient hooks, control flow, recurrent cells, Python-function and graph-plumbing
primitives, and the ``PrimitiveWithInfer``/``PrimitiveWithCheck`` bases."""
from __future__ import annotations

import functools

import numpy as np

from sporeling.core.errors import SporelingError
from sporeling.expression.autograd import call_with_bprop
from sporeling.ms.common import eager_only

from ..functional_array._common import tensor
from ._args import ops
from ._table import F, op, same, table
from .base import Primitive

# ------------------------------------------------------------------------- collectives


def _one_process(name):
    """Collectives of a world of one process (``ms.communication`` without a cluster): the
    result is the process's own data. A group of several processes needs sporeling.parallel's
    collectives, which these classes do not drive."""
    def check(self):
        from sporeling.ms import communication as comm
        if comm.GlobalComm.INITED and comm.get_group_size(getattr(self, "group", None)) > 1:
            raise SporelingError("a collective over several processes", op=f"ops.{name}",
                                 expected="a group of one process (rank 0 of 1)",
                                 got=f"{comm.get_group_size(self.group)} processes",
                                 hint="use sporeling.parallel's collectives")
    return check


def _collective(name, params, result):
    check = _one_process(name)

    def call(self, *inputs):
        check(self)
        return result(self, *inputs)
    return op(name, params, call, f"``ops.{name}({params})``: in a world of one process, "
                                  "the process's own data.")


_WORLD = "group=None"


def _copy(x):
    return tensor(x) + 0 if not isinstance(x, (tuple, list)) else type(x)(tensor(t) + 0 for t in x)


# ------------------------------------------------------------------ debugging, summaries

_SUMMARIES: dict = {}


def summaries() -> dict:
    """The values the summary primitives recorded, by (kind, name): the latest of each."""
    return dict(_SUMMARIES)


def _summary(kind):
    def call(self, name, value):
        if not isinstance(name, str) or not name:
            raise SporelingError("a summary needs a name", op=f"ops.{kind}Summary",
                                 expected="a non-empty str", got=repr(name))
        _SUMMARIES[(kind, name)] = value
    return call


def _assert(self, condition, input_data):
    if not bool(np.all(tensor(condition).asnumpy())):
        shown = [tensor(t).asnumpy().reshape(-1)[:self.summarize].tolist() for t in input_data]
        raise SporelingError("assertion failed", op="ops.Assert", expected="condition True",
                             got=f"False; data {shown}")


def _tensor_dump(self, file, input_x):
    path = file if str(file).endswith(".npy") else f"{file}_{self.input_output}.npy"
    np.save(path, tensor(input_x).asnumpy())


def _dump_gradient(self, path, x, input_output):
    """``x``, whose gradient the backward pass saves to ``path`` (a .npy file)."""
    def bprop(value, out, dout):
        np.save(path, tensor(dout).asnumpy())
        return (dout,)
    return call_with_bprop(lambda v: v + 0, bprop, tensor(x))


def _insert_gradient_of(self, x):
    """``x``; the backward pass replaces its gradient ``g`` by ``f(g)``."""
    def bprop(value, out, dout):
        return (self.f(dout),)
    return call_with_bprop(lambda v: v + 0, bprop, tensor(x))


def _float_status(x):
    bad = ops.logical_not(F.all(ops.isfinite(tensor(x))))
    return F.reshape(ops.cast(bad, np.float32), (1,))


# --------------------------------------------------------------------------- control flow

def _fori_loop(self, lower, upper, loop_func, init_val):
    value = init_val
    for i in range(int(lower), int(upper)):
        value = loop_func(i, value)
    return value


def _while_loop(self, cond_func, loop_func, init_val):
    value = init_val
    while bool(np.all(np.asarray(tensor(cond_func(value)).asnumpy()))):
        value = loop_func(value)
    return value


def _scan(self, loop_func, init, xs, length=None, unroll=1):
    carry, ys = init, []
    count = length if xs is None else len(xs) if isinstance(xs, (list, tuple)) \
        else tensor(xs).shape[0]
    for i in range(int(count)):
        carry, y = loop_func(carry, None if xs is None else xs[i])
        ys.append(y)
    stacked = F.stack([tensor(y) for y in ys], 0) if ys and all(
        y is not None and not isinstance(y, (tuple, list)) for y in ys) else ys
    return carry, stacked


# ---------------------------------------------------------------------------- recurrent

def _basic_lstm_cell(self, x, h, c, w, b):
    """TensorFlow's BasicLSTMCell: gates [i, j, f, o] from concat(x, h) @ w + b."""
    gates = F.matmul(F.concat([tensor(x), tensor(h)], 1), tensor(w)) + tensor(b)
    i, j, f, o = F.split(gates, gates.shape[1] // 4, 1)
    act = getattr(ops, self.activation)
    it, jt, ft, ot = ops.sigmoid(i), act(j), ops.sigmoid(f + self.forget_bias), ops.sigmoid(o)
    ct = ft * tensor(c) + it * jt
    if self.keep_prob < 1.0:
        ct = F.dropout(ct, 1 - self.keep_prob)
    tanhct = act(ct)
    return ct, tanhct * ot, it, jt, ft, ot, tanhct


def _lstm(self, x, h, c, w):
    """A multi-layer LSTM over (seq, batch, input); ``w`` holds, per layer and direction,
    w_ih (4H, in), w_hh (4H, H) and, with ``has_bias``, b_ih and b_hh (4H), flattened in
    that order (GPU's layout), or their sum b_ih + b_hh (CPU's layout: nn.LSTM on CPU,
    MindIR exported there), told apart by ``w``'s size; gates i, f, g, o."""
    x, h, c, w = (tensor(v) for v in (x, h, c, w))
    hidden, dirs = self.hidden_size, 2 if self.bidirectional else 1
    biases = 2 if self.has_bias else 0
    if self.has_bias:
        ins = [x.shape[-1]] + [hidden * dirs] * (self.num_layers - 1)
        one_bias = sum(dirs * 4 * hidden * (n + hidden + 1) for n in ins)
        biases = 1 if int(np.prod(w.shape)) == one_bias else 2
    offset, layer_in = 0, x
    h_out, c_out = [], []

    def take(shape):
        nonlocal offset
        size = int(np.prod(shape))
        piece = F.reshape(F.narrow(F.reshape(w, (-1,)), 0, offset, size), shape)
        offset += size
        return piece

    for layer in range(self.num_layers):
        outputs = []
        in_size = layer_in.shape[-1]
        for d in range(dirs):
            w_ih, w_hh = take((4 * hidden, in_size)), take((4 * hidden, hidden))
            bias = sum(take((4 * hidden,)) for _ in range(biases)) if biases else 0.0
            ht, ct = h[layer * dirs + d], c[layer * dirs + d]
            steps = range(layer_in.shape[0])
            seq = [None] * layer_in.shape[0]
            for t in (reversed(steps) if d else steps):
                gates = F.matmul(layer_in[t], F.swapaxes(w_ih, 0, 1)) + \
                    F.matmul(ht, F.swapaxes(w_hh, 0, 1)) + bias
                i, f, g, o = F.split(gates, hidden, 1)
                ct = ops.sigmoid(f) * ct + ops.sigmoid(i) * ops.tanh(g)
                ht = ops.sigmoid(o) * ops.tanh(ct)
                seq[t] = ht
            outputs.append(F.stack(seq, 0))
            h_out.append(ht)
            c_out.append(ct)
        layer_in = F.concat(outputs, -1) if dirs == 2 else outputs[0]
        if self.dropout and layer < self.num_layers - 1:
            layer_in = F.dropout(layer_in, self.dropout)
    empty = F.zeros((1,), x.dtype)
    return layer_in, F.stack(h_out, 0), F.stack(c_out, 0), empty, empty


def _rotary(self, query, key, cos, sin, position_ids=None):
    """(q * cos + rotate_half(q) * sin, the same for k): GPT-NeoX's rotate-half."""
    def rotate(x):
        x1, x2 = F.split(x, x.shape[-1] // 2, -1)
        return F.concat([ops.neg(x2), x1], -1)
    q, k, cos, sin = (tensor(v) for v in (query, key, cos, sin))
    return q * cos + rotate(q) * sin, k * cos + rotate(k) * sin


def _reshape_and_cache(self, key, value=None, key_cache=None, value_cache=None,
                       slot_mapping=None):
    """Write each token's key (and value) into the cache slot ``slot_mapping`` names
    (caches (blocks, block_size, heads, dim); -1 skips a token)."""
    slots = tensor(slot_mapping).asnumpy().reshape(-1)
    for source, cache in ((key, key_cache), (value, value_cache)):
        if source is None or cache is None:
            continue
        flat_shape = (-1,) + tuple(cache.shape[2:])
        rows = F.reshape(tensor(source), flat_shape)
        keep = np.nonzero(slots >= 0)[0]
        full = F.reshape(tensor(cache), flat_shape)
        idx = tensor(slots[keep].reshape(-1, 1).astype(np.int64))
        new = F.tensor_scatter_elements(full, F.broadcast_to(F.reshape(
            idx, (-1,) + (1,) * (full.ndim - 1)), (len(keep),) + tuple(full.shape[1:])),
            F.gather(rows, tensor(keep.astype(np.int64)), 0), 0)
        F.assign(cache, F.reshape(new, cache.shape))
    return key_cache


# ------------------------------------------------------------ Python functions, plumbing

@eager_only("ops.PyFunc")
def _run_py_func(fn, inputs):
    out = fn(*(tensor(t).asnumpy() for t in inputs))
    return tuple(tensor(np.asarray(o)) for o in out) if isinstance(out, (tuple, list)) \
        else (tensor(np.asarray(out)),)


def _dtype_to_enum(op_name, arg_name, dtype):
    """MindSpore's TypeId number of ``dtype`` (mindspore/core/ir/dtype/type_id.h)."""
    from sporeling.ms.common.dtype import to_numpy
    ids = {"bool": 30, "int8": 32, "int16": 33, "int32": 34, "int64": 35, "uint8": 37,
           "float16": 42, "float32": 43, "float64": 44, "bfloat16": 46}
    name = np.dtype(to_numpy(dtype)).name if "bfloat16" not in str(dtype) else "bfloat16"
    return ids[name]


class PrimitiveWithInfer(Primitive):
    """MindSpore's base for Python-defined primitives with shape/dtype inference:
    ``infer_shape``/``infer_dtype``/``infer_value`` (override them); calling one computes
    ``infer_value`` on the inputs (a subclass may also define ``__call__``)."""

    def __init__(self, name):
        super().__init__(name)
        self.input_names, self.output_names = (), ()

    def init_prim_io_names(self, inputs, outputs):
        self.input_names, self.output_names = tuple(inputs), tuple(outputs)
        self.attrs.update(input_names=self.input_names, output_names=self.output_names)

    def infer_shape(self, *args):
        return args[0] if args else None

    def infer_dtype(self, *args):
        return args[0] if args else None

    def infer_value(self, *args):
        return None

    def __call__(self, *args):
        value = self.infer_value(*args)
        if value is None:
            raise SporelingError("this primitive computes nothing", op=self.name,
                                 expected="a subclass defining infer_value or __call__",
                                 got=type(self).__name__)
        return value


class PrimitiveWithCheck(PrimitiveWithInfer):
    """MindSpore's base for Python-defined primitives that validate inputs: ``check_shape``/
    ``check_dtype`` (override them) run before ``infer_value``."""

    def check_shape(self, *args):
        return None

    def check_dtype(self, *args):
        return None

    def __call__(self, *args):
        self.check_shape(*(getattr(a, "shape", None) for a in args))
        self.check_dtype(*(getattr(a, "dtype", None) for a in args))
        return super().__call__(*args)


def _partial(self, func, *args):
    return functools.partial(func, *args)


__all__ = ["PrimitiveWithInfer", "PrimitiveWithCheck", *table(globals(), [
    _collective("AllReduce", f"op='sum', {_WORLD}", lambda self, x: _copy(x)),
    _collective("AllGather", _WORLD, lambda self, x: _copy(x)),
    _collective("AllGatherV", _WORLD, lambda self, x, output_split_sizes=None:
                F.reshape(_copy(x), (-1,))),
    _collective("ReduceScatter", f"op='sum', {_WORLD}", lambda self, x: _copy(x)),
    _collective("ReduceScatterV", f"op='sum', {_WORLD}", lambda self, x, sizes=None: _copy(x)),
    _collective("Reduce", f"dest_rank, op='sum', {_WORLD}", lambda self, x: _copy(x)),
    _collective("Broadcast", f"root_rank, {_WORLD}", lambda self, x: _copy(tuple(x))),
    _collective("AlltoAll", f"split_count, split_dim, concat_dim, {_WORLD}",
                lambda self, x: _copy(x)),
    _collective("AlltoAllV", f"{_WORLD}, block_size=1", lambda self, x, send=None, recv=None:
                F.reshape(_copy(x), (-1,))),
    _collective("AlltoAllVC", f"{_WORLD}, block_size=1, transpose=False",
                lambda self, x, send_count_matrix=None: F.reshape(_copy(x), (-1,))),
    _collective("CollectiveGather", f"dest_rank, {_WORLD}", lambda self, x: _copy(x)),
    _collective("CollectiveScatter", f"src_rank, {_WORLD}", lambda self, x: _copy(x)),
    _collective("Barrier", _WORLD, lambda self: None),
    op("Assert", "summarize=3", _assert),
    op("TensorDump", "input_output='out'", _tensor_dump),
    op("DumpGradient", "", _dump_gradient),
    op("InsertGradientOf", "f", _insert_gradient_of),
    same("FloatStatus", _float_status),
    op("HistogramSummary", "", _summary("Histogram")),
    op("ImageSummary", "", _summary("Image")),
    op("ScalarSummary", "", _summary("Scalar")),
    op("TensorSummary", "", _summary("Tensor")),
    op("ForiLoop", "", _fori_loop), op("WhileLoop", "", _while_loop), op("Scan", "", _scan),
    op("BasicLSTMCell", "keep_prob=1.0, forget_bias=1.0, state_is_tuple=True, "
       "activation='tanh'", _basic_lstm_cell),
    op("LSTM", "input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, "
       "proj_size=0", _lstm),
    op("ApplyRotaryPosEmb", "cos_format=0", _rotary),
    op("ReshapeAndCache", "", _reshape_and_cache),
    op("PyFunc", "fn, in_types, in_shapes, out_types, out_shapes, stateful=True",
       lambda self, *inputs: _run_py_func(self.fn, inputs), eager=True),
    op("Morph", "fn, infer_shape, infer_dtype", lambda self, *args: self.fn(*args)),
    op("Partial", "", _partial),
    op("MoveTo", "", lambda self, x, to="CPU", blocking=True: _copy(x)),
    op("Reshard", "layout", lambda self, x: _copy(x)),
    same("UpdateState", lambda state, *args: state),
    same("DtypeToEnum", _dtype_to_enum),
    same("TransposeView", F.transpose),
    same("TransposeExtView", lambda x, dim0, dim1: F.swapaxes(x, dim0, dim1)),
    same("SelectView", lambda x, index, dim: F.gather(x, tensor(np.int64(int(index))), dim)),
])]
