"""The ``ms.nn`` cells added for 2.10 coverage: math cells, tensor tools, losses, combined
layers, derivative/parallel wrappers, sparse cells and the ``*Ext`` layers. Each is built
with 2.10's defaults and checked against NumPy/SciPy (and a gradient per family)."""
import math

import numpy as np
import pytest
import scipy.special as scipy_special
from hypothesis import example, given, settings
from hypothesis import strategies as st

import sporeling.expression as sx
import sporeling.ms as ms
from sporeling.core.errors import ArgumentError, ShapeError
from sporeling.ms import mint, nn, ops

from _reference import check_grad, graph_equals_pynative, np_of, t

RNG = np.random.default_rng(7)


def close(got, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(np_of(got), expected, rtol=rtol, atol=atol)


# --- math cells ---------------------------------------------------------------------------

@pytest.mark.parametrize("axis, keep_dims", [((), False), (1, False), ((0, 2), True),
                                             ([2], False)])
def test_reduce_log_sum_exp(axis, keep_dims):
    x = RNG.normal(size=(2, 3, 4)).astype(np.float32) * 3 + 500     # would overflow exp
    axes = None if axis == () else tuple(np.atleast_1d(axis))
    expected = scipy_special.logsumexp(x.astype(np.float64), axis=axes, keepdims=keep_dims)
    close(nn.ReduceLogSumExp(axis, keep_dims)(t(x)), expected, rtol=1e-6, atol=1e-3)
    check_grad(nn.ReduceLogSumExp(axis, keep_dims), x / 100)
    with pytest.raises(ArgumentError):
        nn.ReduceLogSumExp(1.5)


def test_range():
    out = nn.Range(1, 8, 2)()
    assert np_of(out).dtype == np.int32
    np.testing.assert_array_equal(np_of(out), [1, 3, 5, 7])
    np.testing.assert_array_equal(np_of(nn.Range(4)()), np.arange(4))
    floats = np_of(nn.Range(0.0, 1.0, 0.25)())
    assert floats.dtype == np.float32
    np.testing.assert_allclose(floats, np.arange(0, 1, 0.25))
    with pytest.raises(ArgumentError, match="delta"):
        nn.Range(0, 4, 0)


LGAMMA_POINTS = np.array([0.1, 0.5, 1.0, 2.0, 3.5, 10.0, 40.0, -0.5, -1.3, -2.7, 0.3],
                         np.float64)


def test_lgamma_against_scipy_and_poles():
    close(nn.LGamma()(t(LGAMMA_POINTS, np.float64)), scipy_special.gammaln(LGAMMA_POINTS),
          rtol=1e-10, atol=1e-10)
    poles = np_of(nn.LGamma()(t([0.0, -1.0, -3.0, np.inf, -np.inf])))
    assert np.all(np.isposinf(poles))
    check_grad(nn.LGamma(), LGAMMA_POINTS)        # d lgamma = digamma, both branches


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=-30.0, max_value=60.0, allow_nan=False)
       .filter(lambda v: v > 0 or abs(v - round(v)) > 1e-3))
@example(5e-324)                                  # subnormal: pi*x rounds coarsely
@example(-1e-300)
def test_lgamma_property(value):
    got = np_of(nn.LGamma()(t([value], np.float64)))[0]
    assert math.isclose(got, math.lgamma(value), rel_tol=1e-9, abs_tol=1e-9)


def test_digamma_igamma_lbeta():
    x = np.array([0.3, 1.0, 2.5, 7.0, -0.5], np.float64)
    close(nn.DiGamma()(t(x, np.float64)), scipy_special.digamma(x), rtol=1e-9, atol=1e-9)
    a = np.array([0.5, 1.0, 2.0, 4.0])
    v = np.array([0.2, 1.0, 3.0, 2.0])
    close(nn.IGamma()(t(a), t(v)), scipy_special.gammainc(a, v), rtol=1e-5)
    y = np.array([0.7, 2.0, 3.0, 0.4])
    close(nn.LBeta()(t(a, np.float64), t(y, np.float64)), scipy_special.betaln(a, y),
          rtol=1e-9, atol=1e-9)
    check_grad(lambda u: nn.LBeta()(u, t(y, np.float64)), a)


def test_matmul_cell():
    a = RNG.normal(size=(2, 3, 4)).astype(np.float32)
    b = RNG.normal(size=(4, 5)).astype(np.float32)
    close(nn.MatMul()(t(a), t(b)), a @ b, rtol=1e-5)
    close(nn.MatMul(transpose_x1=True)(t(a), t(a)), a.swapaxes(-1, -2) @ a, rtol=1e-5)
    close(nn.MatMul(transpose_x2=True)(t(b.T), t(b.T)), b.T @ b, rtol=1e-5)
    v = RNG.normal(size=4).astype(np.float32)
    close(nn.MatMul()(t(a), t(v)), a @ v, rtol=1e-5)
    assert np_of(nn.MatMul(dtype=ms.float16)(t(b.T), t(v))).dtype == np.float16
    check_grad(lambda u: nn.MatMul(dtype=ms.float64)(u, t(b, np.float64)), a)


def test_moments():
    x = RNG.normal(size=(3, 4, 5)).astype(np.float32)
    mean, var = nn.Moments()(t(x))
    close(mean, x.mean(), rtol=1e-5)
    close(var, x.var(), rtol=1e-5)
    mean, var = nn.Moments(axis=(0, 2), keep_dims=True)(t(x))
    close(mean, x.mean((0, 2), keepdims=True), rtol=1e-5)
    close(var, x.var((0, 2), keepdims=True), rtol=1e-5)
    half_mean, half_var = nn.Moments(axis=1)(t(x, np.float16))
    assert np_of(half_mean).dtype == np.float16 and np_of(half_var).shape == (3, 5)
    check_grad(lambda u: nn.Moments(axis=1)(u)[1], x)


def test_mat_inverse_and_det():
    a = RNG.normal(size=(2, 3, 3)) + 3 * np.eye(3)
    close(nn.MatInverse()(t(a)), np.linalg.inv(a), rtol=1e-4, atol=1e-5)
    close(nn.MatDet()(t(a)), np.linalg.det(a), rtol=1e-4)
    check_grad(nn.MatDet(), a)


def test_math_cells_in_graph_mode():
    x = t(LGAMMA_POINTS)
    graph_equals_pynative(nn.LGamma(), x)
    graph_equals_pynative(nn.ReduceLogSumExp(0), x)


# --- tensor tools -------------------------------------------------------------------------

def test_norm_one_hot_tril_triu():
    x = RNG.normal(size=(3, 4)).astype(np.float32)
    close(nn.Norm()(t(x)), np.sqrt((x ** 2).sum()), rtol=1e-5)
    close(nn.Norm(axis=1, keep_dims=True)(t(x)), np.linalg.norm(x, axis=1, keepdims=True),
          rtol=1e-5)
    idx = np.array([0, 2, 1])
    hot = nn.OneHot(depth=3, on_value=5.0, off_value=-1.0)(ms.Tensor(idx))
    expected = np.where(np.eye(3)[idx] == 1, 5.0, -1.0)
    close(hot, expected)
    assert np_of(hot).dtype == np.float32
    close(nn.OneHot(axis=0, depth=3)(ms.Tensor(idx)), np.eye(3)[idx].T)
    assert np_of(nn.OneHot()(ms.Tensor(idx))).shape == (3, 1)        # depth defaults to 1
    close(nn.Tril()(t(x)), np.tril(x))
    close(nn.Triu()(t(x), 1), np.triu(x, 1))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 3), st.integers(-5, 5))
def test_matrix_diag_cells_and_roll(rows, cols, batch, shift):
    x = RNG.normal(size=(batch + 1, rows, cols)).astype(np.float32)
    k = min(rows, cols)
    d = RNG.normal(size=(batch + 1, k)).astype(np.float32)
    close(nn.MatrixDiagPart()(t(x)), np.diagonal(x, 0, -2, -1))
    close(nn.MatrixDiag()(t(d)), d[..., None] * np.eye(k))
    expected = x.copy()
    expected[..., np.arange(k), np.arange(k)] = d
    close(nn.MatrixSetDiag()(t(x), t(d)), expected)
    close(nn.Roll(shift, 1)(t(x)), np.roll(x, shift, 1))
    close(nn.Roll((shift, 1), (1, 2))(t(x)), np.roll(x, (shift, 1), (1, 2)))


def test_matrix_set_diag_checks_and_grad():
    x = RNG.normal(size=(3, 2))
    with pytest.raises(ShapeError, match="diagonal"):
        nn.MatrixSetDiag()(t(x), t(np.zeros(3)))
    check_grad(lambda d: nn.MatrixSetDiag()(t(x, np.float64), d), np.array([1.0, 2.0]))
    with pytest.raises(ArgumentError):
        nn.Roll((1, 2), 0)


def test_clip_by_norm_and_l1_regularizer():
    x = RNG.normal(size=(3, 4)).astype(np.float32)
    norm = np.sqrt((x ** 2).sum())
    close(nn.ClipByNorm()(t(x), 1.0), x * 1.0 / max(norm, 1.0), rtol=1e-5)
    close(nn.ClipByNorm()(t(x), t(100.0)), x, rtol=1e-5)                 # within: unchanged
    rows = np.sqrt((x ** 2).sum(1, keepdims=True))
    close(nn.ClipByNorm(axis=1)(t(x), 1.0), x / np.maximum(rows, 1.0), rtol=1e-5)
    close(nn.ClipByNorm()(t(np.zeros((2, 2))), 1.0), np.zeros((2, 2)))
    check_grad(lambda u: nn.ClipByNorm(axis=1)(u, 1.0), x)
    close(nn.L1Regularizer(0.5)(t(x)), 0.5 * np.abs(x).sum(), rtol=1e-5)
    for bad in (0, -1.0, math.inf, "1"):
        with pytest.raises(ArgumentError, match="scale"):
            nn.L1Regularizer(bad)


# --- losses -------------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mae_loss(reduction):
    p, y = RNG.normal(size=(3, 4)), RNG.normal(size=(3, 4))
    d = np.abs(p - y)
    expected = {"mean": d.mean(), "sum": d.sum(), "none": d}[reduction]
    close(nn.MAELoss(reduction)(t(p), t(y)), expected, rtol=1e-5)
    check_grad(lambda u: nn.MAELoss(reduction)(u, t(y, np.float64)), p)


def test_mae_loss_default_and_shape_check():
    assert nn.MAELoss().reduction == "mean"
    with pytest.raises(ShapeError):
        nn.MAELoss()(t(np.zeros((2, 3))), t(np.zeros((3, 2))))


def test_triplet_margin_with_distance_loss():
    a, p, n = (RNG.normal(size=(5, 3)) for _ in range(3))

    def dist(u, v):
        return np.sqrt(((u - v + 1e-6) ** 2).sum(-1))
    expected = np.maximum(dist(a, p) - dist(a, n) + 1.0, 0).mean()
    close(nn.TripletMarginWithDistanceLoss()(t(a), t(p), t(n)), expected, rtol=1e-5)
    swapped = np.maximum(dist(a, p) - np.minimum(dist(a, n), dist(p, n)) + 0.5, 0).sum()
    close(nn.TripletMarginWithDistanceLoss(swap=True, margin=0.5, reduction="sum")(
        t(a), t(p), t(n)), swapped, rtol=1e-5)
    l1 = nn.TripletMarginWithDistanceLoss(
        distance_function=lambda u, v: ops.sum(ops.abs(u - v), -1), reduction="none")
    close(l1(t(a), t(p), t(n)),
          np.maximum(np.abs(a - p).sum(-1) - np.abs(a - n).sum(-1) + 1.0, 0), rtol=1e-5)
    check_grad(lambda u: nn.TripletMarginWithDistanceLoss()(u, t(p, np.float64),
                                                              t(n, np.float64)), a)
    with pytest.raises(ArgumentError, match="margin"):
        nn.TripletMarginWithDistanceLoss(margin=-1.0)


# --- combined layers ----------------------------------------------------------------------

def test_conv2d_bn_act():
    cell = nn.Conv2dBnAct(3, 4, 1, has_bias=True, bias_init="normal", has_bn=True,
                          activation="relu")
    names = {p.name for p in cell.get_parameters()}
    assert {"conv.weight", "conv.bias", "batchnorm.gamma", "batchnorm.beta"} <= names
    assert cell.batchnorm.momentum == pytest.approx(0.997)            # 2.10 default
    cell.set_train(False)
    x = RNG.normal(size=(2, 3, 5, 5)).astype(np.float32)
    w, b = np_of(cell.conv.weight)[:, :, 0, 0], np_of(cell.conv.bias)
    conv = np.einsum("oc,nchw->nohw", w, x) + b[None, :, None, None]
    close(cell(t(x)), np.maximum(conv / np.sqrt(1 + 1e-5), 0), rtol=1e-4, atol=1e-5)
    plain = nn.Conv2dBnAct(3, 4, 3)
    assert not hasattr(plain, "batchnorm") and plain.activation is None
    assert np_of(plain(t(x))).shape == (2, 4, 5, 5)                     # pad_mode 'same'


def test_dense_bn_act():
    cell = nn.DenseBnAct(3, 4, activation="leakyrelu", alpha=0.1)
    x = RNG.normal(size=(5, 3)).astype(np.float32)
    y = x @ np_of(cell.dense.weight).T + np_of(cell.dense.bias)
    close(cell(t(x)), np.where(y > 0, y, 0.1 * y), rtol=1e-5, atol=1e-6)
    assert np.allclose(np_of(cell.dense.bias), 0)                      # bias_init 'zeros'
    assert np.std(np_of(cell.dense.weight)) < 0.05                      # 'normal': sigma 0.01
    bn = nn.DenseBnAct(3, 4, has_bn=True).set_train(False)
    assert np_of(bn(t(x))).shape == (5, 4)
    grads = sx.grad(lambda u: ops.sum(cell(u)))(t(x, np.float32))
    assert np_of(grads).shape == (5, 3)
    with pytest.raises(ArgumentError, match="has_bn"):
        nn.DenseBnAct(3, 4, has_bn=1)
    with pytest.raises(ArgumentError, match="activation"):
        nn.DenseBnAct(3, 4, activation=3)


# --- derivative and parallel wrappers ------------------------------------------------------

def test_jvp_and_vjp_cells():
    x = RNG.normal(size=(2, 3)).astype(np.float32)
    y = RNG.normal(size=(2, 3)).astype(np.float32)
    v = RNG.normal(size=(2, 3)).astype(np.float32)

    def fn(a, b):
        return a ** 3 + a * b

    out, tangent = nn.Jvp(fn)(t(x), t(y), (t(v), t(v)))
    close(out, x ** 3 + x * y, rtol=1e-5)
    close(tangent, (3 * x ** 2 + y) * v + x * v, rtol=1e-4, atol=1e-5)
    out, grads = nn.Vjp(fn)(t(x), t(y), t(v))
    close(out, x ** 3 + x * y, rtol=1e-5)
    assert isinstance(grads, tuple) and len(grads) == 2
    close(grads[0], (3 * x ** 2 + y) * v, rtol=1e-4, atol=1e-5)
    close(grads[1], x * v, rtol=1e-5)
    out, tangent = nn.Jvp(ops.sin)(t(x), t(v))
    close(tangent, np.cos(x) * v, rtol=1e-5, atol=1e-6)


class _SquaredLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([0.5, -1.0, 2.0], np.float32)), name="w")

    def construct(self, x, y):
        return ops.sum((ops.matmul(x, self.w) - y) ** 2)


@pytest.mark.parametrize("wrap", [lambda n: nn.PipelineCell(n, 3),
                                  lambda n: nn.GradAccumulationCell(n, 3),
                                  lambda n: nn.MicroBatchInterleaved(n, 3)])
def test_micro_batch_cells_sum_micro_batch_outputs(wrap):
    x = RNG.normal(size=(6, 3)).astype(np.float32)
    y = RNG.normal(size=6).astype(np.float32)
    net = _SquaredLoss()
    cell = wrap(net)
    w = np_of(net.w)
    losses = [((x[i:i + 2] @ w - y[i:i + 2]) ** 2).sum() for i in (0, 2, 4)]
    close(cell(t(x), t(y)), sum(losses), rtol=1e-5)
    grads = sx.grad(cell, None, cell.trainable_params())(t(x), t(y))
    close(grads[0], 2 * x.T @ (x @ w - y), rtol=1e-4, atol=1e-5)
    with pytest.raises(ShapeError, match="micro-batches"):
        cell(t(x[:5]), t(y[:5]))


def test_micro_batch_cells_defaults_and_checks():
    assert nn.MicroBatchInterleaved(_SquaredLoss()).interleave_num == 2
    with pytest.raises(ArgumentError, match="micro_size"):
        nn.PipelineCell(_SquaredLoss(), 0)


def test_virtual_dataset_cell_triple_and_reducers():
    x = RNG.normal(size=(2, 3)).astype(np.float32)
    triple = nn.VirtualDatasetCellTriple(lambda a, b, c: a * b + c)
    close(triple(t(x), t(x), t(x)), x * x + x, rtol=1e-6)
    params = _SquaredLoss().trainable_params()
    w = RNG.normal(size=params[0].shape).astype(np.float32)  # a gradient of the parameter's shape
    g = (t(w),)
    close(nn.DistributedGradReducer(params)(g)[0], w)                  # one rank, no mean
    close(nn.DistributedGradReducer(params, mean=True, degree=4)(g)[0], w / 4, rtol=1e-6)
    reducer = nn.PipelineGradReducer(params, scale_sense=8.0)
    close(reducer(g)[0], w / 8, rtol=1e-6)
    close(nn.PipelineGradReducer(params)(g)[0], w)


def test_distributed_grad_reducer_after_communication_init():
    from sporeling.ms import communication
    p = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="p")
    g = (t(np.arange(3.0)),)
    communication.init()
    try:
        reducer = nn.DistributedGradReducer([p], mean=True, degree=2)
        assert reducer._reducer is not None                   # sporeling.parallel's reducer
        close(reducer(g)[0], np.arange(3.0) / 2)               # one rank's sum, / degree
        close(nn.DistributedGradReducer([p], mean=True)(g)[0], np.arange(3.0))
    finally:
        communication.release()


# --- sparse cells --------------------------------------------------------------------------

def test_sparse_cells():
    indices = np.array([[0, 1], [2, 0], [1, 2]])
    values = np.array([1.5, -2.0, 3.0], np.float32)
    dense = np.zeros((3, 3), np.float32)
    dense[indices[:, 0], indices[:, 1]] = values
    close(nn.SparseToDense()(ms.COOTensor(indices, values, (3, 3))), dense)
    with pytest.raises(ArgumentError, match="COOTensor"):
        nn.SparseToDense()(t(dense))
    b = RNG.normal(size=(3, 2)).astype(np.float32)
    mm = nn.SparseTensorDenseMatmul()
    close(mm(ms.Tensor(indices), t(values), (3, 3), t(b)), dense @ b, rtol=1e-5)
    both = nn.SparseTensorDenseMatmul(adjoint_st=True, adjoint_dt=True)
    close(both(ms.Tensor(indices), t(values), (3, 3), t(b.T)), dense.T @ b, rtol=1e-5)
    grad = sx.grad(lambda v: ops.sum(mm(ms.Tensor(indices), v, (3, 3), t(b))))(t(values))
    close(grad, b.sum(1)[indices[:, 1]], rtol=1e-5)


# --- the *Ext layers (mint.nn's classes) ---------------------------------------------------

EXT = {"AvgPool1dExt": "AvgPool1d", "AvgPool2dExt": "AvgPool2d", "AvgPool3dExt": "AvgPool3d",
       "MaxPool2dExt": "MaxPool2d", "DropoutExt": "Dropout", "Dropout2dExt": "Dropout2d",
       "EmbeddingExt": "Embedding", "L1LossExt": "L1Loss", "LayerNormExt": "LayerNorm",
       "LogSoftmaxExt": "LogSoftmax", "PReLUExt": "PReLU", "Linear": "Linear"}


def test_ext_names_are_mint_classes_and_listed():
    for name, mint_name in EXT.items():
        assert getattr(nn, name) is getattr(mint.nn, mint_name)
        assert name in nn.__all__
    with pytest.raises(AttributeError):
        nn.NoSuchCellExt  # noqa: B018


def test_ext_pooling():
    x = RNG.normal(size=(1, 2, 4, 4)).astype(np.float32)
    blocks = x.reshape(1, 2, 2, 2, 2, 2)
    close(nn.AvgPool2dExt(2)(t(x)), blocks.mean((3, 5)), rtol=1e-5)
    close(nn.MaxPool2dExt(2)(t(x)), blocks.max((3, 5)))
    x1 = x.reshape(1, 2, 16)
    close(nn.AvgPool1dExt(4)(t(x1)), x1.reshape(1, 2, 4, 4).mean(-1), rtol=1e-5)
    x3 = RNG.normal(size=(1, 1, 2, 2, 2)).astype(np.float32)
    close(nn.AvgPool3dExt(2)(t(x3)), x3.mean((2, 3, 4), keepdims=True), rtol=1e-5)
    check_grad(nn.AvgPool2dExt(2, stride=1), x)


def test_ext_layers():
    x = RNG.normal(size=(3, 4)).astype(np.float32)
    close(nn.DropoutExt()(t(x)), x)                                # inference: identity
    x4 = x.reshape(1, 3, 2, 2)
    close(nn.Dropout2dExt()(t(x4)), x4)
    close(nn.LogSoftmaxExt(1)(t(x)), x - scipy_special.logsumexp(x, 1, keepdims=True),
          rtol=1e-5)
    y = RNG.normal(size=(3, 4)).astype(np.float32)
    close(nn.L1LossExt()(t(x), t(y)), np.abs(x - y).mean(), rtol=1e-5)
    ln = nn.LayerNormExt(4)
    normed = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5)
    close(ln(t(x)), normed, rtol=1e-4, atol=1e-5)
    prelu = nn.PReLUExt()
    close(prelu(t(x)), np.where(x > 0, x, 0.25 * x), rtol=1e-6)
    linear = nn.Linear(4, 2)
    close(linear(t(x)), x @ np_of(linear.weight).T + np_of(linear.bias), rtol=1e-5,
          atol=1e-6)
    emb = nn.EmbeddingExt(5, 3, padding_idx=0)
    idx = np.array([[0, 4], [2, 2]])
    close(emb(ms.Tensor(idx)), np_of(emb.weight)[idx])
    assert np.all(np_of(emb.weight)[0] == 0)
    check_grad(lambda u: nn.LayerNormExt(4)(u), x)


# --- optimizers ----------------------------------------------------------------------------

def _adafactor_reference(w, grads, beta1=0.9, eps=(1e-30, 1e-3), decay_rate=0.8,
                         clip=1.0, weight_decay=0.0, lr=None):
    """MindSpore's AdaFactor kernel in NumPy (float64), one parameter, relative step."""
    w = w.astype(np.float64).copy()
    factored = w.ndim >= 2
    row, col = np.zeros(w.shape[:-1]), np.zeros(w.shape[:-2] + w.shape[-1:])
    sq, avg = np.zeros_like(w), np.zeros_like(w)
    for step, g in enumerate(grads, 1):
        rho = min(1e-2, 1 / np.sqrt(step)) if lr is None else lr
        alpha = rho * max(eps[1], np.sqrt((w ** 2).mean())) if lr is None else rho
        beta2t = 1 - step ** -decay_rate
        g2 = g ** 2 + eps[0]
        if factored:
            row = beta2t * row + (1 - beta2t) * g2.mean(-1)
            col = beta2t * col + (1 - beta2t) * g2.mean(-2)
            v = (row / row.mean(-1, keepdims=True))[..., None] * col[..., None, :]
        else:
            sq = beta2t * sq + (1 - beta2t) * g2
            v = sq
        u = g / np.sqrt(v)
        u = u / max(np.sqrt((u ** 2).mean()) / clip, 1.0) * alpha
        if beta1:
            avg = beta1 * avg + (1 - beta1) * u
            u = avg
        w = w - weight_decay * alpha * w - u
    return w


@pytest.mark.parametrize("shape", [(3, 4), (5,), (2, 3, 2)])
def test_adafactor_matches_the_reference(shape):
    rng = np.random.default_rng(11)
    w0 = rng.normal(size=shape)
    grads = [rng.normal(size=shape) for _ in range(4)]
    w = ms.Parameter(ms.Tensor(w0), name="w")
    opt = nn.AdaFactor([w], weight_decay=0.05)
    for g in grads:
        opt((ms.Tensor(g),))
    np.testing.assert_allclose(w.asnumpy(), _adafactor_reference(w0, grads, weight_decay=0.05),
                               rtol=1e-10, atol=1e-12)
    fixed = ms.Parameter(ms.Tensor(w0), name="fixed")
    manual = nn.AdaFactor([fixed], learning_rate=0.1, beta1=None, relative_step=False,
                          scale_parameter=False)
    for g in grads:
        manual((ms.Tensor(g),))
    np.testing.assert_allclose(fixed.asnumpy(),
                               _adafactor_reference(w0, grads, beta1=0.0, lr=0.1),
                               rtol=1e-10, atol=1e-12)


def test_adafactor_argument_checks_and_graph_mode():
    w = ms.Parameter(ms.Tensor(np.ones((2, 2))), name="w")
    for kwargs in ({"learning_rate": 0.1}, {"relative_step": False},
                   {"warmup_init": True, "relative_step": False, "learning_rate": 0.1},
                   {"decay_rate": 1.5}, {"eps": (1e-30,)}):
        with pytest.raises(ArgumentError):
            nn.AdaFactor([w], **kwargs)

    def train(mode):
        ms.set_context(mode=mode)
        try:
            net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros", dtype=ms.float64)
            step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                       nn.AdaFactor(net.trainable_params()))
            rng = np.random.default_rng(2)
            for _ in range(3):
                step(ms.Tensor(rng.normal(size=(4, 3))), ms.Tensor(rng.normal(size=(4, 2))))
            return [p.asnumpy() for p in net.trainable_params()]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    for a, b in zip(train(ms.GRAPH_MODE), train(ms.PYNATIVE_MODE)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_adam_offload_is_adam():
    rng = np.random.default_rng(12)
    w0, grads = rng.normal(size=(3, 2)), [rng.normal(size=(3, 2)) for _ in range(3)]
    a, b = ms.Parameter(ms.Tensor(w0), name="a"), ms.Parameter(ms.Tensor(w0), name="b")
    offload = nn.AdamOffload([a], learning_rate=0.01, weight_decay=0.1)
    adam = nn.Adam([b], learning_rate=0.01, weight_decay=0.1)
    for g in grads:
        offload((ms.Tensor(g),))
        adam((ms.Tensor(g),))
    np.testing.assert_allclose(a.asnumpy(), b.asnumpy())
    m = v = 0
    w = w0.copy()
    for k, g in enumerate(grads, 1):     # MindSpore's Adam: L2 decay into g, bias-corrected lr
        g = g + 0.1 * w
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        w = w - 0.01 * np.sqrt(1 - 0.999 ** k) / (1 - 0.9 ** k) * m / (np.sqrt(v) + 1e-8)
    np.testing.assert_allclose(a.asnumpy(), w, rtol=1e-10)


# --- fractional max pooling ----------------------------------------------------------------

def _fractional_reference(x, samples, kernel, out):
    """Plain loops: PyTorch's/MindSpore's window starts, then a max per window."""
    def starts(u, size, n_out, k):
        if n_out == 1:
            return [size - k]
        alpha = np.float32(size - k) / np.float32(n_out - 1)
        return [int((np.float32(i) + u) * alpha) - int(u * alpha) for i in range(n_out - 1)] \
            + [size - k]
    n, c, h, w = x.shape
    result = np.zeros((n, c) + out, x.dtype)
    index = np.zeros((n, c) + out, np.int64)
    for b, ch in np.ndindex(n, c):
        rows = starts(samples[b, ch, 1], h, out[0], kernel[0])
        cols = starts(samples[b, ch, 0], w, out[1], kernel[1])
        for i, r in enumerate(rows):
            for j, q in enumerate(cols):
                window = x[b, ch, r:r + kernel[0], q:q + kernel[1]]
                k = int(np.argmax(window))
                result[b, ch, i, j] = window.flat[k]
                index[b, ch, i, j] = (r + k // kernel[1]) * w + q + k % kernel[1]
    return result, index


@settings(max_examples=20, deadline=None)
@given(st.integers(5, 12), st.integers(5, 12), st.integers(1, 3), st.integers(1, 3),
       st.integers(0, 2**31 - 1))
def test_fractional_max_pool2d_matches_loops(h, w, kh, kw, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(2, 3, h, w)).astype(np.float32)
    samples = rng.random((2, 3, 2), dtype=np.float32)
    out = (h - kh + 1 - rng.integers(0, h - kh + 1), w - kw + 1 - rng.integers(0, w - kw + 1))
    cell = nn.FractionalMaxPool2d((kh, kw), output_size=out, return_indices=True,
                                  _random_samples=ms.Tensor(samples))
    got, idx = cell(t(x))
    expected, expected_idx = _fractional_reference(x, samples, (kh, kw), out)
    np.testing.assert_array_equal(np_of(got), expected)
    np.testing.assert_array_equal(np_of(idx), expected_idx)


def test_fractional_max_pool2d_ratio_3d_input_grad_and_checks():
    x = RNG.normal(size=(2, 10, 8))
    ms.set_seed(3)
    cell = nn.FractionalMaxPool2d(2, output_ratio=0.5)
    assert np_of(cell(t(x))).shape == (2, 5, 4)                       # (C, H, W) input
    samples = ms.Tensor(np.full((1, 2, 2), 0.3, np.float32))
    fixed = nn.FractionalMaxPool2d(2, output_size=(4, 3), _random_samples=samples)
    check_grad(lambda u: fixed(u), x)
    graph_equals_pynative(fixed, t(x))
    with pytest.raises(ArgumentError, match="exactly one"):
        nn.FractionalMaxPool2d(2)
    with pytest.raises(ShapeError, match="exceeds"):
        nn.FractionalMaxPool2d(3, output_size=9)(t(x))
