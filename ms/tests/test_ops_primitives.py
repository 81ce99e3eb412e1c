"""ms.ops primitive classes: configured once, called on tensors; against NumPy and
MindSpore's documented examples; the Primitive base; Graph mode and gradients."""
import numpy as np
import pytest

import sporeling.expression as sx
import sporeling.ms as ms
from sporeling.core.errors import SporelingError
from sporeling.ms import ops

from array_nn_checks import T, check_grad, check_jit, value

RNG = np.random.default_rng(3)
X = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
Y = np.array([[0.5, 2.0, 1.0], [3.0, -1.0, 2.0]])
IMG = RNG.standard_normal((2, 3, 6, 6))
W = RNG.standard_normal((4, 3, 3, 3))
LOGITS = RNG.standard_normal((4, 5))
LABELS = np.array([1, 0, 4, 2])


def _softmax(a):
    e = np.exp(a - a.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


CASES = [
    ("Abs", lambda: ops.Abs()(T(X)), np.abs(X)),
    ("Neg", lambda: ops.Neg()(T(X)), -X),
    ("Square", lambda: ops.Square()(T(X)), X ** 2),
    ("Floor", lambda: ops.Floor()(T(X / 4)), np.floor(X / 4)),
    ("Exp", lambda: ops.Exp()(T(X)), np.exp(X)),
    ("Log", lambda: ops.Log()(T(np.abs(X))), np.log(np.abs(X))),
    ("Sqrt", lambda: ops.Sqrt()(T(np.abs(X))), np.sqrt(np.abs(X))),
    ("Sin", lambda: ops.Sin()(T(X)), np.sin(X)),
    ("Cos", lambda: ops.Cos()(T(X)), np.cos(X)),
    ("Reciprocal", lambda: ops.Reciprocal()(T(X)), 1 / X),
    ("Add", lambda: ops.Add()(T(X), T(Y)), X + Y),
    ("Add_scalar", lambda: ops.Add()(T(X), 1.5), X + 1.5),
    ("Sub", lambda: ops.Sub()(T(X), T(Y)), X - Y),
    ("Mul", lambda: ops.Mul()(T(X), T(Y)), X * Y),
    ("Div", lambda: ops.Div()(T(X), T(Y)), X / Y),
    ("RealDiv", lambda: ops.RealDiv()(T(X), 2.0), X / 2),
    ("FloorDiv", lambda: ops.FloorDiv()(T(X), T(Y)), np.floor_divide(X, Y)),
    ("Pow", lambda: ops.Pow()(T(np.abs(X)), 0.5), np.abs(X) ** 0.5),
    ("Maximum", lambda: ops.Maximum()(T(X), T(Y)), np.maximum(X, Y)),
    ("Minimum", lambda: ops.Minimum()(T(X), T(Y)), np.minimum(X, Y)),
    ("Equal", lambda: ops.Equal()(T(X), T(np.where(X > 0, X, 0))), X > 0),
    ("NotEqual", lambda: ops.NotEqual()(T(X), 3.0), X != 3),
    ("Greater", lambda: ops.Greater()(T(X), T(Y)), X > Y),
    ("GreaterEqual", lambda: ops.GreaterEqual()(T(X), 3.0), X >= 3),
    ("Less", lambda: ops.Less()(T(X), T(Y)), X < Y),
    ("LessEqual", lambda: ops.LessEqual()(T(X), 4.0), X <= 4),
    ("AddN", lambda: ops.AddN()((T(X), T(Y), T(X))), 2 * X + Y),
    ("ReduceSum", lambda: ops.ReduceSum(keep_dims=True)(T(X), 1), X.sum(1, keepdims=True)),
    ("ReduceSum_all", lambda: ops.ReduceSum()(T(X)), X.sum()),
    ("ReduceMean", lambda: ops.ReduceMean()(T(X), (0, 1)), X.mean()),
    ("ReduceMax", lambda: ops.ReduceMax()(T(X), 0), X.max(0)),
    ("ReduceMin", lambda: ops.ReduceMin(True)(T(X), -1), X.min(-1, keepdims=True)),
    ("ReduceProd", lambda: ops.ReduceProd()(T(X), 1), X.prod(1)),
    ("Argmax", lambda: ops.Argmax()(T(X)), X.argmax(-1)),
    ("Argmin", lambda: ops.Argmin(axis=0)(T(X)), X.argmin(0)),
    ("MatMul", lambda: ops.MatMul(transpose_b=True)(T(X), T(Y)), X @ Y.T),
    ("BatchMatMul", lambda: ops.BatchMatMul(transpose_a=True)(T(IMG[0]), T(IMG[1])),
     np.swapaxes(IMG[0], -1, -2) @ IMG[1]),
    ("Fill", lambda: ops.Fill()(ms.float32, (2, 2), 3.0), np.full((2, 2), 3.0)),
    ("OnesLike", lambda: ops.OnesLike()(T(X)), np.ones_like(X)),
    ("ZerosLike", lambda: ops.ZerosLike()(T(X)), np.zeros_like(X)),
    # MindSpore's documented example
    ("OneHot", lambda: ops.OneHot()(T(np.array([0, 1, 2], np.int32)), 3,
                                    T(np.float32(1.0)), T(np.float32(0.0))), np.eye(3)),
    ("OneHot_axis0", lambda: ops.OneHot(axis=0)(T([0, 2]), 3, T(5.0), T(-1.0)),
     np.where(np.eye(3)[[0, 2]].T > 0, 5.0, -1.0)),
    ("BroadcastTo", lambda: ops.BroadcastTo((2, -1))(T(X[0])), np.broadcast_to(X[0], (2, 3))),
    ("Cast", lambda: ops.Cast()(T(X), ms.int32), X.astype(np.int32)),
    ("Concat", lambda: ops.Concat(1)((T(X), T(Y))), np.concatenate([X, Y], 1)),
    ("Stack", lambda: ops.Stack(-1)((T(X), T(Y))), np.stack([X, Y], -1)),
    ("CumSum", lambda: ops.CumSum(exclusive=True, reverse=True)(T(X), 1),
     np.flip(np.cumsum(np.flip(X, 1), 1), 1) - X),
    ("ExpandDims", lambda: ops.ExpandDims()(T(X), 1), X[:, None]),
    ("Gather", lambda: ops.Gather()(T(X), T([2, 0]), 1), X[:, [2, 0]]),
    ("Reshape", lambda: ops.Reshape()(T(X), (3, 2)), X.reshape(3, 2)),
    ("Select", lambda: ops.Select()(T(X > 0), T(X), T(Y)), np.where(X > 0, X, Y)),
    ("Slice", lambda: ops.Slice()(T(X), (0, 1), (2, 2)), X[:, 1:3]),
    ("Squeeze", lambda: ops.Squeeze(0)(T(X[None])), X),
    ("StridedSlice", lambda: ops.StridedSlice()(T(X), (0, 0), (2, 3), (1, 2)), X[:, ::2]),
    ("Tile", lambda: ops.Tile()(T(X), (1, 2)), np.tile(X, (1, 2))),
    ("Transpose", lambda: ops.Transpose()(T(IMG), (0, 2, 3, 1)), IMG.transpose(0, 2, 3, 1)),
    ("Flatten", lambda: ops.Flatten()(T(IMG)), IMG.reshape(2, -1)),
    ("BiasAdd", lambda: ops.BiasAdd()(T(IMG), T([1.0, 2.0, 3.0])),
     IMG + np.array([1.0, 2.0, 3.0])[None, :, None, None]),
    ("Pad", lambda: ops.Pad(((0, 0), (1, 2)))(T(X)), np.pad(X, [(0, 0), (1, 2)])),
    ("ReLU", lambda: ops.ReLU()(T(X)), np.maximum(X, 0)),
    ("ReLU6", lambda: ops.ReLU6()(T(X * 2)), np.clip(X * 2, 0, 6)),
    ("Sigmoid", lambda: ops.Sigmoid()(T(X)), 1 / (1 + np.exp(-X))),
    ("Tanh", lambda: ops.Tanh()(T(X)), np.tanh(X)),
    ("Elu", lambda: ops.Elu()(T(X)), np.where(X > 0, X, np.expm1(X))),
    ("GeLU", lambda: ops.GeLU()(T(X)), X * 0.5 * (1 + np.vectorize(__import__("math").erf)(
        X / np.sqrt(2)))),
    ("Softmax", lambda: ops.Softmax()(T(X)), _softmax(X)),
    ("LogSoftmax", lambda: ops.LogSoftmax(axis=0)(T(X)), np.log(_softmax(X.T).T)),
    ("SmoothL1Loss", lambda: ops.SmoothL1Loss()(T(X), T(Y)),
     np.where(np.abs(X - Y) < 1, 0.5 * (X - Y) ** 2, np.abs(X - Y) - 0.5)),
    ("BinaryCrossEntropy", lambda: ops.BinaryCrossEntropy(reduction="sum")(
        T(1 / (1 + np.exp(-X))), T((Y > 1).astype(float))),
     -np.sum(np.where(Y > 1, np.log(1 / (1 + np.exp(-X))), np.log(1 - 1 / (1 + np.exp(-X)))))),
    ("BCEWithLogitsLoss", lambda: ops.BCEWithLogitsLoss()(
        T(X), T((Y > 1).astype(float)), T(np.ones(3)), T(np.ones(3))),
     -np.mean(np.where(Y > 1, np.log(1 / (1 + np.exp(-X))), np.log(1 - 1 / (1 + np.exp(-X)))))),
    ("SparseSoftmaxCrossEntropyWithLogits",
     lambda: ops.SparseSoftmaxCrossEntropyWithLogits()(T(LOGITS), T(LABELS)),
     -np.log(_softmax(LOGITS))[np.arange(4), LABELS].mean()),
    ("Conv2D", lambda: ops.Conv2D(4, 3, pad_mode="pad", pad=1, stride=2)(T(IMG), T(W)), None),
    ("AvgPool", lambda: ops.AvgPool(2, 2)(T(IMG)), IMG.reshape(2, 3, 3, 2, 3, 2).mean((3, 5))),
    ("MaxPool", lambda: ops.MaxPool(kernel_size=3, strides=3)(T(IMG)),
     IMG.reshape(2, 3, 2, 3, 2, 3).max((3, 5))),
]


@pytest.mark.parametrize("name, call, expected", CASES, ids=[c[0] for c in CASES])
def test_matches_reference(name, call, expected):
    if expected is None:  # Conv2D: against the functional conv2d it adapts
        expected = value(ops.conv2d(T(IMG), T(W), None, 2, "pad", 1))
        assert expected.shape == (2, 4, 3, 3)
    np.testing.assert_allclose(value(call()), expected, rtol=1e-6, atol=1e-9)


def test_multi_output_classes():
    index, values = ops.ArgMaxWithValue(axis=1, keep_dims=True)(T(X))
    np.testing.assert_array_equal(value(index), [[2], [1]])
    np.testing.assert_array_equal(value(values), [[3.0], [5.0]])
    assert value(index).dtype == np.int64      # MindSpore 2.10's dtype
    # MindSpore's documented TopK example
    values, indices = ops.TopK(sorted=True)(T(np.array([1, 2, 3, 4, 5], np.float32)), 3)
    np.testing.assert_array_equal(value(values), [5, 4, 3])
    np.testing.assert_array_equal(value(indices), [4, 3, 2])
    # MindSpore's documented Sort example
    x = T(np.array([[8, 2, 1], [5, 9, 3], [4, 6, 7]], np.float16))
    values, indices = ops.Sort()(x)
    np.testing.assert_array_equal(value(values), [[1, 2, 8], [3, 5, 9], [4, 6, 7]])
    np.testing.assert_array_equal(value(indices), [[2, 1, 0], [2, 0, 1], [0, 1, 2]])
    parts = ops.Split(axis=1, output_num=3)(T(X))
    assert [value(p).tolist() for p in parts] == [[[1.0], [4.0]], [[-2.0], [5.0]],
                                                 [[3.0], [-6.0]]]
    assert [value(p).tolist() for p in ops.Unstack(axis=1)(T(X))] == X.T.tolist()
    assert ops.Shape()(T(IMG)) == (2, 3, 6, 6)


def test_loss_classes_with_two_outputs():
    loss, dlogits = ops.SoftmaxCrossEntropyWithLogits()(T(LOGITS), T(np.eye(5)[LABELS]))
    np.testing.assert_allclose(value(loss), -np.log(_softmax(LOGITS))[np.arange(4), LABELS])
    np.testing.assert_allclose(value(dlogits), _softmax(LOGITS) - np.eye(5)[LABELS])
    grad = ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=True)(T(LOGITS), T(LABELS))
    np.testing.assert_allclose(value(grad), (_softmax(LOGITS) - np.eye(5)[LABELS]) / 4)
    logp = np.log(_softmax(LOGITS))
    loss, total = ops.NLLLoss(reduction="sum")(T(logp), T(LABELS), T(np.arange(1.0, 6.0)))
    weights = np.arange(1.0, 6.0)[LABELS]
    np.testing.assert_allclose(value(loss), -(logp[np.arange(4), LABELS] * weights).sum())
    np.testing.assert_allclose(value(total), weights.sum())


def test_layer_norm_batch_norm_dropout():
    y, mean, var = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1)(
        T(X), T(np.ones(3)), T(np.zeros(3)))
    np.testing.assert_allclose(value(y), (X - X.mean(1, keepdims=True))
                               / np.sqrt(X.var(1, keepdims=True) + 1e-7))
    np.testing.assert_allclose(value(mean), X.mean(1, keepdims=True))
    np.testing.assert_allclose(value(var), X.var(1, keepdims=True))
    running_mean = sx.Parameter(np.zeros(3), name="mean")
    running_var = sx.Parameter(np.ones(3), name="var")
    out = ops.BatchNorm(is_training=True, momentum=0.5)(T(IMG), T(np.ones(3)), T(np.zeros(3)),
                                                        running_mean, running_var)
    np.testing.assert_allclose(value(out[0]).mean((0, 2, 3)), 0, atol=1e-9)
    np.testing.assert_allclose(value(out[1]), IMG.mean((0, 2, 3)))
    np.testing.assert_allclose(value(running_mean), 0.5 * IMG.mean((0, 2, 3)))
    y = ops.BatchNorm()(T(IMG), T(np.ones(3)), T(np.zeros(3)), T(np.zeros(3)), T(np.ones(3)))[0]
    np.testing.assert_allclose(value(y), IMG / np.sqrt(1 + 1e-5))
    out, mask = ops.Dropout(keep_prob=0.8)(T(np.ones((100, 50))))
    kept = value(mask).astype(bool)
    assert 0.75 < kept.mean() < 0.85
    np.testing.assert_allclose(value(out)[kept], 1 / 0.8)
    assert (value(out)[~kept] == 0).all()


def test_pooling_same_mode():
    x = np.arange(9.0).reshape(1, 1, 3, 3)
    np.testing.assert_array_equal(value(ops.MaxPool(2, 1, "same")(T(x)))[0, 0],
                                  [[4, 5, 5], [7, 8, 8], [7, 8, 8]])
    avg = value(ops.AvgPool(2, 2, "SAME")(T(x)))[0, 0]  # padding does not count
    np.testing.assert_allclose(avg, [[2.0, 3.5], [6.5, 8.0]])


def test_parameter_and_graph_control_classes(capsys):
    p = sx.Parameter(np.zeros(3), name="p")
    assert ops.Assign()(p, T([1.0, 2.0, 3.0])) is p
    ops.AssignAdd()(p, T(np.ones(3)))
    np.testing.assert_array_equal(value(p), [2.0, 3.0, 4.0])
    assert value(ops.Depend()(T(X), ops.Assign()(p, T(np.zeros(3))))).tolist() == X.tolist()
    np.testing.assert_array_equal(value(p), 0)
    ops.Print()("value:", T([1, 2]))
    assert capsys.readouterr().out == "value:\n[1 2]\n"


def test_primitive_base_records_inert_settings():
    prim = ops.MatMul(transpose_b=True)
    assert isinstance(prim, ops.Primitive)
    assert prim.shard(((2, 1), (1, 1))) is prim
    assert prim.in_strategy == ((2, 1), (1, 1))
    assert prim.add_prim_attr("primitive_target", "CPU") is prim
    assert prim.attrs["primitive_target"] == "CPU" and prim.transpose_b is True
    assert repr(ops.ReduceSum(keep_dims=True)) == "Prim[ReduceSum]<keep_dims=True>"
    np.testing.assert_allclose(value(prim(T(X), T(Y))), X @ Y.T)  # sharding changes nothing
    with pytest.raises(SporelingError, match="no computation"):
        ops.Primitive("Custom")(T(X))


def test_bad_configuration_is_named():
    with pytest.raises(SporelingError, match="ops.ReduceSum"):
        ops.ReduceSum(True, False)
    with pytest.raises(SporelingError, match="keep_prob"):
        ops.Dropout(keep_prob=0.0)
    with pytest.raises(SporelingError, match="output_num"):
        ops.Split(0, 4)(T(X))


@pytest.mark.parametrize("fn, args", [
    (lambda a, b: ops.MatMul(transpose_a=True)(a, b), (Y.T, X.T)),
    (lambda a: ops.ReduceMean(keep_dims=True)(ops.Square()(a), 1), (X,)),
    (lambda a: ops.Softmax()(a), (X,)),
    (lambda a, w: ops.Conv2D(4, 3, pad_mode="same")(a, w), (IMG[:1, :, :4, :4], W)),
    (lambda a: ops.MaxPool(2, 2)(a), (IMG[:1],)),
    (lambda a: ops.LayerNorm()(a, T(np.ones(3)), T(np.zeros(3)))[0], (X,)),
    (lambda a: ops.TopK()(a, 2)[0], (X,)),
])
def test_gradients(fn, args):
    check_grad(fn, *args)


@pytest.mark.parametrize("fn, args", [
    (lambda a, b: ops.Add()(ops.MatMul(transpose_b=True)(a, b), 1.0), (X, Y)),
    (lambda a: ops.ReduceSum()(ops.ReLU()(a), (0,)), (X,)),
    (lambda a: ops.Sort(descending=True)(a), (X,)),
    (lambda a: ops.AvgPool(2, 1, "same")(a), (IMG,)),
    (lambda a: ops.Concat(0)((a, ops.Neg()(a))), (X,)),
])
def test_graph_mode(fn, args):
    check_jit(fn, *[np.asarray(a, np.float32) for a in args], rtol=1e-5, atol=1e-5)
