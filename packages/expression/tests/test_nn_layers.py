"""Layers against NumPy references, gradients against finite differences, shape errors."""
import math

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import ShapeError, set_seed
from sporeling.expression import nn

RNG = np.random.default_rng(0)


def randn(*shape):
    return RNG.standard_normal(shape)


def as64(cell):
    """The cell's parameters in float64 (for finite differences)."""
    for p in cell.get_parameters():
        p.set_data(p.asnumpy().astype(np.float64))
    return cell


def check_cell_grads(cell, *inputs, eps=1e-6, rtol=1e-5, diff_inputs=True):
    """The cell's gradients (inputs and trainable parameters) along a random direction
    against central differences of ``sum(out * ct)`` in float64."""
    as64(cell)
    xs = [sx.Tensor(np.asarray(x, np.float64)) if np.asarray(x).dtype.kind == "f"
          else sx.Tensor(x) for x in inputs]
    params = cell.trainable_params()
    first = cell(*xs)
    first = first[0] if isinstance(first, tuple) else first
    ct = RNG.standard_normal(first.shape)

    def loss(*args):
        out = cell(*args)
        out = out[0] if isinstance(out, tuple) else out
        return (out * sx.Tensor(ct)).sum()

    positions = tuple(i for i, x in enumerate(xs) if x.dtype == np.float64) \
        if diff_inputs else None
    if positions:
        in_grads, w_grads = sx.grad(loss, positions, params)(*xs)
    else:
        in_grads, w_grads = (), sx.grad(loss, None, params)(*xs)
    dirs_x = {i: RNG.standard_normal(xs[i].shape) for i in (positions or ())}
    dirs_p = [RNG.standard_normal(p.shape) for p in params]
    analytic = sum(float((g.asnumpy() * dirs_x[i]).sum()) for g, i in zip(in_grads, dirs_x))
    analytic += sum(float((g.asnumpy() * d).sum()) for g, d in zip(w_grads, dirs_p))
    originals = [p.asnumpy().copy() for p in params]

    def shifted(sign):
        for p, o, d in zip(params, originals, dirs_p):
            p.set_data(o + sign * eps * d)
        args = [sx.Tensor(x.asnumpy() + sign * eps * dirs_x[i]) if i in dirs_x else x
                for i, x in enumerate(xs)]
        return float(loss(*args).asnumpy())

    numeric = (shifted(1.0) - shifted(-1.0)) / (2 * eps)
    for p, o in zip(params, originals):
        p.set_data(o)
    assert abs(numeric - analytic) <= 1e-7 + rtol * max(abs(numeric), abs(analytic)), \
        (numeric, analytic)


# ---------------------------------------------------------------- references

def conv2d_ref(x, w, b, stride, pads, dilation=(1, 1), group=1):
    x = np.pad(x, ((0, 0), (0, 0)) + tuple(pads))
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    og = o // group
    for g in range(group):
        for i in range(kh):
            for j in range(kw):
                patch = x[:, g * cg:(g + 1) * cg,
                          i * dilation[0]:i * dilation[0] + stride[0] * (oh - 1) + 1:stride[0],
                          j * dilation[1]:j * dilation[1] + stride[1] * (ow - 1) + 1:stride[1]]
                out[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch,
                                                         w[g * og:(g + 1) * og, :, i, j])
    return out if b is None else out + b.reshape(1, -1, 1, 1)


def conv_transpose2d_ref(x, w, stride, crops):
    n, c, h, wd = x.shape
    _, o, kh, kw = w.shape
    out = np.zeros((n, o, (h - 1) * stride + kh, (wd - 1) * stride + kw))
    for i in range(h):
        for j in range(wd):
            out[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw] += \
                np.einsum("nc,cokl->nokl", x[:, :, i, j], w)
    (t, b), (l, r) = crops
    return out[:, :, t:out.shape[2] - b, l:out.shape[3] - r]


# ---------------------------------------------------------------- dense, errors

def test_dense_forward_activation_and_grads():
    layer = nn.Dense(4, 3, activation="tanh")
    x = randn(5, 4).astype(np.float32)
    w, b = layer.weight.asnumpy(), layer.bias.asnumpy()
    np.testing.assert_allclose(layer(x).asnumpy(), np.tanh(x @ w.T + b), rtol=1e-5, atol=1e-6)
    check_cell_grads(nn.Dense(4, 3, activation="tanh"), randn(2, 5, 4))


def test_dense_shape_error_names_layer_and_shapes():
    with pytest.raises(ShapeError) as info:
        nn.Dense(64, 10)(np.zeros((32, 50), np.float32))
    text = str(info.value)
    assert "Dense" in text and "64" in text and "(32, 50)" in text


def test_flatten():
    x = randn(2, 3, 4, 5)
    assert nn.Flatten()(x).shape == (2, 60)
    assert nn.Flatten(1, 2)(x).shape == (2, 12, 5)
    with pytest.raises(ShapeError, match="Flatten"):
        nn.Flatten(3, 1)(x)


# ---------------------------------------------------------------- convolutions

@pytest.mark.parametrize("kwargs, size", [
    (dict(kernel_size=3, stride=2), 7),                            # same, odd pads
    (dict(kernel_size=2), 5),                                       # same, even kernel
    (dict(kernel_size=3, pad_mode="valid", dilation=2), 8),
    (dict(kernel_size=3, pad_mode="pad", padding=(1, 0, 2, 1), has_bias=True), 5),
    (dict(kernel_size=3, group=2, has_bias=True), 6),
])
def test_conv2d_matches_reference(kwargs, size):
    conv = nn.Conv2d(4, 6, **kwargs)
    x = randn(2, 4, size, size).astype(np.float32)
    k, s = conv.kernel_size[0], conv.stride[0]
    d = conv.dilation[0]
    if conv.pad_mode == "same":
        out = -(-size // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        pads = ((total // 2, total - total // 2),) * 2
    elif conv.pad_mode == "valid":
        pads = ((0, 0), (0, 0))
    else:
        pads = ((1, 0), (2, 1))
    b = conv.bias.asnumpy() if conv.bias is not None else None
    ref = conv2d_ref(x, conv.weight.asnumpy(), b, conv.stride, pads, conv.dilation, conv.group)
    np.testing.assert_allclose(conv(x).asnumpy(), ref, rtol=1e-4, atol=1e-5)
    if conv.pad_mode == "same":
        assert ref.shape[2] == -(-size // s)


def test_conv_grads_and_errors():
    check_cell_grads(nn.Conv2d(2, 3, 2, stride=2, has_bias=True), randn(1, 2, 5, 5))
    check_cell_grads(nn.Conv1d(2, 3, 3, has_bias=True), randn(2, 2, 6))
    with pytest.raises(ShapeError, match="Conv2d"):
        nn.Conv2d(3, 4, 3)(np.zeros((1, 2, 5, 5), np.float32))


def test_conv1d_matches_reference():
    conv = nn.Conv1d(3, 2, 4, pad_mode="same", has_bias=True)
    x = randn(2, 3, 9).astype(np.float32)
    ref = conv2d_ref(x[:, :, None], conv.weight.asnumpy()[:, :, None], conv.bias.asnumpy(),
                     (1, 1), ((0, 0), (1, 2)))[:, :, 0]
    np.testing.assert_allclose(conv(x).asnumpy(), ref, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("mode, kernel, stride", [("same", 3, 2), ("same", 4, 2),
                                                  ("valid", 3, 2), ("pad", 3, 2),
                                                  ("same", 1, 3)])
def test_conv2d_transpose_matches_reference(mode, kernel, stride):
    conv = nn.Conv2dTranspose(3, 2, kernel, stride=stride, pad_mode=mode,
                              padding=1 if mode == "pad" else 0, has_bias=True)
    x = randn(1, 3, 4, 4).astype(np.float32)
    full = conv_transpose2d_ref(x, conv.weight.asnumpy(), stride, ((0, 0), (0, 0)))
    if mode == "same":
        total = kernel - stride
        crops = (total // 2, total - total // 2)
        if total < 0:
            full = np.pad(full, ((0, 0), (0, 0), (0, -total), (0, -total)))
            crops = (0, 0)
        ref = full[:, :, crops[0]:full.shape[2] - crops[1], crops[0]:full.shape[3] - crops[1]]
        assert ref.shape[2] == 4 * stride
    elif mode == "valid":
        ref = full
    else:
        ref = full[:, :, 1:-1, 1:-1]
    ref = ref + conv.bias.asnumpy().reshape(1, -1, 1, 1)
    np.testing.assert_allclose(conv(x).asnumpy(), ref, rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------- pooling

def test_max_pool_modes():
    x = sx.Tensor(randn(2, 3, 5, 5).astype(np.float32))
    out = nn.MaxPool2d(2, 2)(x).asnumpy()
    x = x.asnumpy()
    np.testing.assert_allclose(out, x[:, :, :4, :4].reshape(2, 3, 2, 2, 2, 2).max(axis=(3, 5)))
    same = nn.MaxPool2d(2, 2, pad_mode="same")(sx.Tensor(x)).asnumpy()  # pads one row/col at the end
    padded = np.pad(x, ((0, 0), (0, 0), (0, 1), (0, 1)), constant_values=-np.inf)
    np.testing.assert_allclose(same, padded.reshape(2, 3, 3, 2, 3, 2).max(axis=(3, 5)))
    ceil = nn.MaxPool2d(2, 2, ceil_mode=True)(sx.Tensor(x)).asnumpy()
    np.testing.assert_allclose(ceil, same)


def test_avg_pool_modes():
    x = randn(1, 2, 5, 5).astype(np.float32)
    same = np.asarray(nn.AvgPool2d(2, 2, pad_mode="same")(x))
    padded = np.pad(x, ((0, 0), (0, 0), (0, 1), (0, 1)))
    counts = np.pad(np.ones((5, 5)), ((0, 1), (0, 1))).reshape(3, 2, 3, 2).sum(axis=(1, 3))
    ref = padded.reshape(1, 2, 3, 2, 3, 2).sum(axis=(3, 5)) / counts
    np.testing.assert_allclose(same, ref, rtol=1e-6)
    pad = np.asarray(nn.AvgPool2d(3, 2, pad_mode="pad", padding=1)(x))
    p = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    ref = np.array([[p[:, :, i:i + 3, j:j + 3].mean(axis=(2, 3)) for j in range(0, 5, 2)]
                    for i in range(0, 5, 2)]).transpose(2, 3, 0, 1)
    np.testing.assert_allclose(pad, ref, rtol=1e-6)
    check_cell_grads(nn.AvgPool2d(2, 2, pad_mode="same"), randn(1, 1, 3, 3))


def test_adaptive_avg_pool():
    x = randn(2, 3, 4, 6)
    out = np.asarray(nn.AdaptiveAvgPool2d((2, 3))(x))
    np.testing.assert_allclose(out, x.reshape(2, 3, 2, 2, 3, 2).mean(axis=(3, 5)))
    assert nn.AdaptiveAvgPool2d(1)(x).shape == (2, 3, 1, 1)


# ---------------------------------------------------------------- normalisation

def test_batch_norm_running_stats_train_and_eval():
    bn = nn.BatchNorm2d(3, momentum=0.9)
    x = (randn(4, 3, 2, 2) * 2 + 1).astype(np.float32)
    bn.set_train()
    y = bn(x).asnumpy()
    mean, var = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    ref = (x - mean.reshape(1, 3, 1, 1)) / np.sqrt(var.reshape(1, 3, 1, 1) + 1e-5)
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.1 * mean, rtol=1e-5)
    unbiased = x.var(axis=(0, 2, 3), ddof=1)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), 0.9 + 0.1 * unbiased, rtol=1e-5)
    bn.set_train(False)
    before = bn.moving_mean.asnumpy().copy()
    y = bn(x).asnumpy()
    ref = (x - before.reshape(1, 3, 1, 1)) / np.sqrt(
        bn.moving_variance.asnumpy().reshape(1, 3, 1, 1) + 1e-5)
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), before)
    with pytest.raises(ShapeError, match="BatchNorm2d"):
        bn(np.zeros((2, 4, 2, 2), np.float32))


def test_batch_norm_1d_grads_in_training():
    check_cell_grads(nn.BatchNorm1d(3, gamma_init="normal", beta_init="normal").set_train(),
                     randn(5, 3))


def test_layer_norm_and_group_norm():
    x = randn(2, 3, 4).astype(np.float32)
    ln = nn.LayerNorm((4,), gamma_init="normal", beta_init="normal")
    g, b = ln.gamma.asnumpy(), ln.beta.asnumpy()
    ref = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-7) * g + b
    np.testing.assert_allclose(ln(x).asnumpy(), ref, rtol=1e-4, atol=1e-5)
    ln2 = nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1)
    flat = x.reshape(2, -1)
    ref = ((flat - flat.mean(-1, keepdims=True)) /
           np.sqrt(flat.var(-1, keepdims=True) + 1e-7)).reshape(x.shape)
    np.testing.assert_allclose(ln2(x).asnumpy(), ref, rtol=1e-4, atol=1e-5)
    check_cell_grads(nn.LayerNorm((4,), gamma_init="normal"), randn(3, 4))

    gn = nn.GroupNorm(2, 4)
    x = randn(2, 4, 3).astype(np.float32)
    grouped = x.reshape(2, 2, -1)
    ref = ((grouped - grouped.mean(-1, keepdims=True)) /
           np.sqrt(grouped.var(-1, keepdims=True) + 1e-5)).reshape(x.shape)
    np.testing.assert_allclose(gn(x).asnumpy(), ref, rtol=1e-4, atol=1e-5)
    with pytest.raises(ShapeError, match="GroupNorm"):
        gn(np.zeros((2, 3, 3), np.float32))


# ---------------------------------------------------------------- dropout, embedding

def test_dropout_train_and_eval():
    set_seed(0)
    drop = nn.Dropout(p=0.25)
    x = np.ones((100, 100), np.float32)
    assert drop(x) is x  # inference mode (the default for a new Cell)
    drop.set_train()
    y = np.asarray(drop(x))
    assert set(np.unique(y).tolist()) <= {0.0, np.float32(1 / 0.75)}
    assert abs((y == 0).mean() - 0.25) < 0.03
    assert nn.Dropout(keep_prob=0.8).p == pytest.approx(0.2)


def test_embedding_rows_padding_and_one_hot():
    emb = nn.Embedding(6, 3, padding_idx=1)
    table = emb.embedding_table.asnumpy()
    ids = np.array([[0, 1], [5, 1]], np.int32)
    np.testing.assert_allclose(emb(ids).asnumpy(), table[ids])
    assert (table[1] == 0).all()
    grads = sx.grad(lambda: emb(ids).sum(), None, emb.trainable_params())()
    g = grads[0].asnumpy()
    assert (g[1] == 0).all() and (g[0] == 1).all() and (g[5] == 1).all()
    hot = nn.Embedding(6, 3, use_one_hot=True)
    np.testing.assert_allclose(hot(ids).asnumpy(), hot.embedding_table.asnumpy()[ids],
                               rtol=1e-6)
    with pytest.raises(TypeError):
        emb(np.zeros(2, np.float32))


# ---------------------------------------------------------------- activations

def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


@pytest.mark.parametrize("cell, ref", [
    (nn.ReLU(), lambda x: np.maximum(x, 0)),
    (nn.ReLU6(), lambda x: np.clip(x, 0, 6)),
    (nn.LeakyReLU(), lambda x: np.where(x > 0, x, 0.2 * x)),
    (nn.GELU(), lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                                 (x + 0.044715 * x ** 3)))),
    (nn.GELU(False), lambda x: x * 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))),
    (nn.SiLU(), lambda x: x * _sigmoid(x)),
    (nn.Sigmoid(), _sigmoid),
    (nn.Tanh(), np.tanh),
    (nn.Softmax(), lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
    (nn.LogSoftmax(0), lambda x: x - np.log(np.exp(x).sum(0, keepdims=True))),
    (nn.Softplus(), lambda x: np.log1p(np.exp(x))),
    (nn.ELU(), lambda x: np.where(x > 0, x, np.expm1(x))),
    (nn.Mish(), lambda x: x * np.tanh(np.log1p(np.exp(x)))),
    (nn.HSigmoid(), lambda x: np.clip(x + 3, 0, 6) / 6),
    (nn.HSwish(), lambda x: x * np.clip(x + 3, 0, 6) / 6),
    (nn.Softsign(), lambda x: x / (1 + np.abs(x))),
    (nn.PReLU(), lambda x: np.where(x > 0, x, 0.25 * x)),
])
def test_activations_match_numpy(cell, ref):
    x = np.array([[-3.5, -1.2, -0.3], [0.4, 1.7, 7.0]])
    out = cell(sx.Tensor(x.astype(np.float32)))
    np.testing.assert_allclose(np.asarray(out.asnumpy()), ref(x), rtol=1e-4, atol=1e-5)


def test_activation_by_name_and_prelu_grads():
    assert isinstance(nn.get_activation("relu"), nn.ReLU)
    with pytest.raises(Exception, match="unknown activation"):
        nn.get_activation("nope")
    check_cell_grads(nn.PReLU(3, 0.1), randn(2, 3, 4) + 0.05)
