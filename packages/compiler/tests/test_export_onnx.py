"""ONNX export: each mapped primitive runs in onnxruntime equal (1e-5) to Sporeling's
reference executor; the model passes onnx.checker at opset 17; a dynamic batch axis;
a primitive without a mapping is refused by name."""
import numpy as np
import onnx
import onnxruntime as ort
import pytest

from sporeling.compiler import ops
from sporeling.compiler.export import ONNXExportError, to_onnx
from sporeling.compiler.export.onnx import OPSET, save_onnx
from sporeling.compiler.export.onnx.table import lookup
from sporeling.compiler.ir import evaluate, make_graph

RNG = np.random.default_rng(0)


def _f(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _run(model, args):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {f"input{i}": a for i, a in enumerate(args)})


def _check(fn, *args, atol=1e-5):
    g = make_graph(fn, *args)
    model = to_onnx(g)
    assert model.opset_import[0].version == OPSET >= 17
    onnx.checker.check_model(model, full_check=True)
    got, want = _run(model, args), evaluate(g, *args)
    assert len(got) == len(want)
    for a, b in zip(got, want):
        b = np.asarray(b)
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=atol)
    return g


X = _f(2, 3, 4)
POS = np.abs(_f(2, 3, 4)) + 0.1
IMG = _f(2, 4, 7, 7)
IDS = RNG.integers(0, 5, (2, 3)).astype(np.int64)

SEQ = _f(4, 3, 5)
STATE = _f(4, 3, 3)
LENGTHS = np.array([4, 2, 0], np.int64)


def _rnn_weights(gates, layers, dirs, size, hidden, bias):
    out = []
    for layer in range(layers):
        for _ in range(dirs):
            out += [_f(gates * hidden, size if layer == 0 else dirs * hidden) * 0.5,
                    _f(gates * hidden, hidden) * 0.5]
            out += [_f(gates * hidden) * 0.5 for _ in range(2 * bias)]
    return out


def _lstm(x, h, c, lengths, *w):
    y, (h, c) = ops.lstm(x, w, (h, c), bidirectional=True, seq_length=lengths)
    return y, h, c


CASES = {
    "arithmetic": (lambda x, y: (ops.add(x, y), ops.sub(x, 1.5), ops.mul(x, y), ops.div(x, y),
                                 ops.maximum(x, y), ops.minimum(x, y), ops.pow(y, x)), X, POS),
    "unary": (lambda x: (ops.neg(x), ops.exp(x), ops.abs(x), ops.tanh(x), ops.sigmoid(x),
                         ops.relu(x), ops.erf(x), ops.sin(x), ops.cos(x), ops.floor(x),
                         ops.ceil(x), ops.sign(x), ops.round(x), ops.square(x),
                         ops.softplus(x), ops.silu(x), ops.leaky_relu(x, 0.1),
                         ops.expm1(x)), X),
    "positive": (lambda y: (ops.log(y), ops.sqrt(y), ops.rsqrt(y), ops.log1p(y),
                            ops.reciprocal(y), ops.pow(y, 2.5)), POS),
    "gelu": (lambda x: (ops.gelu(x), ops.gelu(x, approximate="tanh")), X),
    "compare": (lambda x, y: (ops.equal(x, x), ops.less(x, y), ops.greater_equal(x, y),
                              ops.not_equal(x, y), ops.where(ops.greater(x, 0.0), x, y),
                              ops.logical_and(ops.less(x, 0.0), ops.less(y, 1.0)),
                              ops.isfinite(x)), X, POS),
    "clip_cast": (lambda x: (ops.clip(x, -0.5, 0.5), ops.clip(x, None, 0.2),
                             ops.cast(x, np.int32), ops.cast(x, np.float64)), X),
    "clip_tensor": (lambda x, y: ops.clip(x, ops.neg(y), y), X, POS),
    "slice": (lambda x: (ops.strided_slice(x, [0, 1], [None, 3]),
                         ops.strided_slice(x, [1, 2, 3], [None, None, 0], [1, 1, -2])), X),
    "batch_norm": (lambda x, m, v: ops.batch_norm(x, m, v, training=False),
                   IMG, _f(4), np.abs(_f(4)) + 0.5),
    "reductions": (lambda x: (ops.sum(x), ops.sum(x, axis=1), ops.mean(x, axis=(0, 2)),
                              ops.max(x, axis=-1, keepdims=True), ops.min(x, axis=0),
                              ops.prod(x, axis=2), ops.logsumexp(x, axis=1),
                              ops.argmax(x, axis=1), ops.argmin(x), ops.var(x, axis=2),
                              ops.std(x, axis=(1, 2), ddof=1)), X),
    "softmax": (lambda x: (ops.softmax(x, axis=-1), ops.log_softmax(x, axis=1)), X),
    "shape": (lambda x: (ops.reshape(x, (6, 4)), ops.transpose(x, (2, 0, 1)),
                         ops.broadcast_to(ops.getitem(x, (slice(None), slice(0, 1))),
                                          (2, 5, 4)),
                         ops.concat([x, x], axis=1), *ops.split(x, [1, 3], axis=2),
                         ops.tile(x, (2, 1, 1)), ops.flip(x, 1), ops.cumsum(x, axis=2),
                         ops.pad(x, ((0, 0), (1, 2), (0, 1))),
                         ops.pad(x, ((0, 0), (1, 1), (2, 0)), mode="reflect")), X),
    "getitem": (lambda x: (ops.getitem(x, 1), ops.getitem(x, (slice(None), -1)),
                           ops.getitem(x, (Ellipsis, slice(None, None, -2))),
                           ops.getitem(x, (None, 0, slice(1, 3), None)),
                           ops.getitem(x, (slice(None), np.array([2, 0, 2])))), X),
    "triangle": (lambda m: (ops.tril(m), ops.triu(m, 1)), _f(4, 5)),
    "gather": (lambda x, i: (ops.gather(x, i, axis=1),
                             ops.take_along_axis(x, ops.broadcast_to(
                                 ops.reshape(ops.getitem(i, 0), (1, 3, 1)), (2, 3, 4)), 1),
                             ops.one_hot(i, 5)), X, np.minimum(IDS, 2)),
    "embedding": (lambda i, t: ops.embedding(i, t), IDS, _f(5, 6)),
    "matmul": (lambda a, b: (ops.matmul(a, b), ops.einsum("bij,bjk->bik", a, b)),
               _f(2, 3, 4), _f(2, 4, 5)),
    "conv_pool": (lambda x, w, wg: (ops.conv2d(x, w, stride=2, padding=1),
                                    ops.conv2d(x, wg, padding="same", dilation=2, groups=2),
                                    ops.max_pool2d(x, 3, 2, padding=1),
                                    ops.avg_pool2d(x, 2, 2)),
                  IMG, _f(6, 4, 3, 3), _f(4, 2, 3, 3)),
    "conv_transpose": (lambda x, w: ops.conv_transpose2d(x, w, stride=2, padding=1),
                       IMG, _f(4, 3, 3, 3)),
    "layer_norm": (lambda x, g, b: ops.layer_norm(x, (4,), g, b), X, _f(4), _f(4)),
    "lstm": (_lstm, SEQ, STATE, STATE * 0.5, LENGTHS, *_rnn_weights(4, 2, 2, 5, 3, True)),
    "gru": (lambda x, h, lengths, *w: ops.gru(x, w, h, bidirectional=True, seq_length=lengths),
            SEQ, STATE, LENGTHS, *_rnn_weights(3, 2, 2, 5, 3, True)),
    "gru_plain": (lambda x, *w: ops.gru(x, w, has_bias=False), SEQ,
                  *_rnn_weights(3, 2, 1, 5, 3, False)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_primitives_match_onnxruntime(case):
    fn, *args = CASES[case]
    _check(fn, *args)


def test_every_table_entry_is_exercised():
    """Primitives whose mapping the cases above run (so a new entry needs a case)."""
    seen = set()
    for fn, *args in CASES.values():
        seen.update(eq.prim.name for eq in make_graph(fn, *args).equations)
    from sporeling.compiler.export.onnx.table import ONNX_TABLE
    lookup("add")
    untested = set(ONNX_TABLE) - seen - {"rng_seed", "normal", "uniform", "logical_or",
                                         "logical_xor", "logical_not", "isnan", "isinf",
                                         "less_equal", "greater", "clip_scalar",
                                         "quantize", "dequantize"}  # test_quant_onnx.py
    assert not untested, sorted(untested)


def test_unmapped_primitive_is_named():
    g = make_graph(lambda x: ops.argsort(x, axis=-1), X)
    with pytest.raises(ONNXExportError, match="primitive 'argsort' has no ONNX mapping"):
        to_onnx(g)


def test_dynamic_batch_axis(tmp_path):
    def f(x, w):
        h = ops.reshape(ops.matmul(x, w), (x.shape[0], 2, -1))
        ones = ops.broadcast_to(np.ones((1, 2, 3), np.float32), (x.shape[0], 2, 3))
        return ops.add(h, ones), ops.sum(h, axis=0)
    w = _f(4, 6)
    g2, g3 = make_graph(f, _f(2, 4), w), make_graph(f, _f(3, 4), w)
    path = save_onnx(g2, tmp_path / "m.onnx", batch_graph=g3, batch=2)
    model = onnx.load(str(path))
    assert model.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    for n in (1, 7):
        x = _f(n, 4)
        for got, want in zip(_run(model, [x, w]), f(x, w)):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_batch_dependence_that_is_not_a_multiple_is_refused():
    g2 = make_graph(lambda x: ops.reshape(x, (x.shape[0] + 1, -1)), _f(2, 12))
    g3 = make_graph(lambda x: ops.reshape(x, (x.shape[0] + 1, -1)), _f(3, 12))
    # (3, 8) at batch 2, (4, 9) at batch 3: the first dimension is batch + 1
    with pytest.raises(ONNXExportError, match="not a multiple"):
        to_onnx(g2, batch_graph=g3, batch=2)
