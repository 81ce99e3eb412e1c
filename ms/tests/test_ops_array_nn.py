"""ms.ops neural-network layer functions and pooling against loop-based NumPy references
(array_nn_refs) and MindSpore's documented examples; gradients and Graph mode."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.ms import ops
from sporeling.ms.common import EagerOnlyError

from array_nn_checks import T, check_grad, check_jit, value
from array_nn_refs import conv, pool

RNG = np.random.default_rng(1)
X4 = RNG.standard_normal((2, 4, 7, 6))
X3 = RNG.standard_normal((2, 4, 9))
X5 = RNG.standard_normal((1, 2, 5, 6, 7))
W2 = RNG.standard_normal((6, 2, 3, 2))
W1 = RNG.standard_normal((3, 4, 3))
W3 = RNG.standard_normal((6, 2, 2, 3, 2))
W33 = RNG.standard_normal((3, 2, 3, 3))


def _adaptive_avg(x, out):
    h, w = x.shape[-2:]
    res = np.zeros(x.shape[:-2] + out)
    for i in range(out[0]):
        for j in range(out[1]):
            a, b = (i * h) // out[0], -((-(i + 1) * h) // out[0])
            c, d = (j * w) // out[1], -((-(j + 1) * w) // out[1])
            res[..., i, j] = x[..., a:b, c:d].mean((-1, -2))
    return res


CASES = [
    ("dense", lambda: ops.dense(T(X3[:, :, :3]), T(W1[:, 0, :]), T([1.0, 2.0, 3.0])),
     X3[:, :, :3] @ W1[:, 0, :].T + [1.0, 2.0, 3.0]),
    ("bidense", lambda: ops.bidense(T(X3[0, :, :3]), T(X3[1, :, :2]), T(W2[:4, 0])),
     np.einsum("ni,oij,nj->no", X3[0, :, :3], W2[:4, 0], X3[1, :, :2])),
    ("bias_add", lambda: ops.bias_add(T(X4), T([1.0, 2.0, 3.0, 4.0])),
     X4 + np.array([1.0, 2.0, 3.0, 4.0])[None, :, None, None]),
    ("conv2d", lambda: ops.conv2d(T(X4), T(W2), None, (2, 1), "pad", 1, (1, 2), 2),
     conv(X4, W2, (2, 1), 1, (1, 2), 2)),
    ("conv2d_same", lambda: ops.conv2d(T(X4[:, :2]), T(W33), pad_mode="same"),
     conv(np.pad(X4[:, :2], [(0, 0), (0, 0), (1, 1), (1, 1)]), W33)),
    ("conv1d", lambda: ops.conv1d(T(X3), T(W1), T([0.5, 0.0, -0.5]), stride=2),
     conv(X3, W1, 2) + np.array([0.5, 0.0, -0.5])[None, :, None]),
    ("conv3d", lambda: ops.conv3d(T(np.concatenate([X5, X5], 1)), T(W3), None, (2, 1, 2), "pad",
                                  1, (2, 1, 1), 2),
     conv(np.concatenate([X5, X5], 1), W3, (2, 1, 2), 1, (2, 1, 1), 2)),
    ("flatten", lambda: ops.flatten(T(X4)), X4.reshape(2, -1)),
    ("layer_norm", lambda: ops.layer_norm(T(X3), (9,)),
     (X3 - X3.mean(-1, keepdims=True)) / np.sqrt(X3.var(-1, keepdims=True) + 1e-5)),
    ("group_norm", lambda: ops.group_norm(T(X4), 2),
     ((X4.reshape(2, 2, -1) - X4.reshape(2, 2, -1).mean(-1, keepdims=True))
      / np.sqrt(X4.reshape(2, 2, -1).var(-1, keepdims=True) + 1e-5)).reshape(X4.shape)),
    ("batch_norm", lambda: ops.batch_norm(T(X4), T(np.ones(4)), T(np.full(4, 4.0)), T(np.ones(4)),
                                          T(np.zeros(4))),
     (X4 - 1) / np.sqrt(4 + 1e-5)),
    ("embedding", lambda: ops.embedding(T([[0, 2], [1, 1]]), T(W1[:, :, 0])),
     W1[:, :, 0][[[0, 2], [1, 1]]]),
    ("lrn", lambda: ops.lrn(T(X4), depth_radius=1, bias=2.0, alpha=0.5, beta=0.75),
     X4 / (2.0 + 0.5 * sum(np.pad(X4 ** 2, [(0, 0), (1, 1), (0, 0), (0, 0)])[:, k:k + 4]
                           for k in range(3))) ** 0.75),
    ("unfold", lambda: ops.unfold(T(X4), (2, 3), padding=1, stride=2),
     np.stack([np.pad(X4, [(0, 0), (0, 0), (1, 1), (1, 1)])[:, :, i:i + 7:2, j:j + 5:2]
               for i in range(2) for j in range(3)], 2).reshape(2, 24, -1)),
    ("fold", lambda: ops.fold(T(np.ones((1, 4, 9))), T([4, 4]), 2),
     np.array([[1, 2, 2, 1], [2, 4, 4, 2], [2, 4, 4, 2], [1, 2, 2, 1]])[None, None]),
    ("avg_pool1d", lambda: ops.avg_pool1d(T(X3), 3, 2, 1, ceil_mode=True),
     pool(X3, (3,), (2,), 1, ceil_mode=True, kind="avg")),
    ("avg_pool2d", lambda: ops.avg_pool2d(T(X4), 3, 2, 1, ceil_mode=True,
                                          count_include_pad=False),
     pool(X4, (3, 3), (2, 2), 1, ceil_mode=True, kind="avg", count_include_pad=False)),
    ("avg_pool3d", lambda: ops.avg_pool3d(T(X5), 3, 2, 1), pool(X5, (3, 3, 3), (2, 2, 2), 1,
                                                                 kind="avg")),
    ("max_pool2d", lambda: ops.max_pool2d(T(X4), 3, 2, 1, return_indices=True, ceil_mode=True),
     pool(X4, (3, 3), (2, 2), 1, ceil_mode=True)),
    ("max_pool3d", lambda: ops.max_pool3d(T(X5), 2, 2, 1, dilation=2, return_indices=True),
     pool(X5, (2, 2, 2), (2, 2, 2), 1, dilation=2)),
    ("lp_pool1d", lambda: ops.lp_pool1d(T(X3), 2, 3), np.sqrt(
        pool(X3 ** 2, (3,), (3,), kind="avg") * 3)),
    ("lp_pool2d", lambda: ops.lp_pool2d(T(np.abs(X4)), 3, 2, 2), np.cbrt(
        pool(np.abs(X4) ** 3, (2, 2), (2, 2), kind="avg") * 4)),
    ("adaptive_avg_pool1d", lambda: ops.adaptive_avg_pool1d(T(X3), 4),
     _adaptive_avg(X3[:, :, None, :], (1, 4))[:, :, 0]),
    ("adaptive_avg_pool2d", lambda: ops.adaptive_avg_pool2d(T(X4), (3, 4)),
     _adaptive_avg(X4, (3, 4))),
    ("adaptive_avg_pool3d", lambda: ops.adaptive_avg_pool3d(T(X5), (1, 3, 4)),
     _adaptive_avg(X5.mean(2, keepdims=True), (3, 4))),
    ("adaptive_max_pool1d", lambda: ops.adaptive_max_pool1d(T(X3), 3),
     X3.reshape(2, 4, 3, 3).max(-1)),
    ("adaptive_max_pool2d", lambda: ops.adaptive_max_pool2d(T(X4[:, :, :6]), (2, 3), True),
     pool(X4[:, :, :6], (3, 2), (3, 2))),
]


@pytest.mark.parametrize("name, call, expected", CASES, ids=[c[0] for c in CASES])
def test_matches_reference(name, call, expected):
    got = value(call())
    if isinstance(expected, tuple):
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-9)
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-9)


def test_max_unpool_inverts_max_pool():
    for pool_fn, unpool, x, k in ((ops.max_pool2d, ops.max_unpool2d, X4[:, :, :6], 2),
                                  (ops.max_pool3d, ops.max_unpool3d, X5[:, :, :4, :6, :6], 2)):
        values, indices = pool_fn(T(x), k, k, return_indices=True)
        restored = value(unpool(values, indices, k, k))
        kept = restored != 0
        np.testing.assert_allclose(restored[kept], x[kept])
        np.testing.assert_allclose(np.sort(restored[kept]), np.sort(value(values).ravel()))
    x1 = T(np.array([[[1.0, 4.0, 2.0, 3.0]]]))
    v, i = ops.max_pool2d(ops.expand_dims(x1, 2), (1, 2), (1, 2), return_indices=True)
    np.testing.assert_allclose(value(ops.max_unpool1d(ops.squeeze(v, 2), ops.squeeze(i, 2), 2)),
                               [[[0.0, 4.0, 0.0, 3.0]]])


def test_fractional_max_pool3d_windows_and_indices():
    u = np.array([0.3, 0.6, 0.1])
    out, idx = ops.fractional_max_pool3d(T(X5), (1, 2, 2), output_size=(3, 3, 4),
                                         return_indices=True, _random_samples=T(u))
    assert out.shape == idx.shape == (1, 2, 3, 3, 4)
    starts = []
    for n, o, k, s in zip(X5.shape[2:], (3, 3, 4), (1, 2, 2), u):  # PyTorch's sequence
        alpha = (n - k) / (o - 1)
        starts.append([int((i + s) * alpha) - int(s * alpha) for i in range(o - 1)] + [n - k])
    expected = np.zeros((1, 2, 3, 3, 4))
    for i, j, m in np.ndindex(3, 3, 4):
        d, h, w = starts[0][i], starts[1][j], starts[2][m]
        expected[..., i, j, m] = X5[..., d:d + 1, h:h + 2, w:w + 2].max((-1, -2, -3))
    np.testing.assert_array_equal(value(out), expected)
    flat = X5.reshape(1, 2, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, value(idx).reshape(1, 2, -1), 2),
                                  expected.reshape(1, 2, -1))
    check_jit(lambda a: ops.fractional_max_pool3d(a, 2, output_ratio=0.5,
                                                  _random_samples=T(u)), X5)


def test_batch_norm_training_updates_the_running_statistics():
    mean, var = sx.Parameter(np.zeros(4), name="m"), sx.Parameter(np.ones(4), name="v")
    y = ops.batch_norm(T(X4), mean, var, T(np.ones(4)), T(np.zeros(4)), training=True,
                       momentum=0.1)
    np.testing.assert_allclose(value(y).mean((0, 2, 3)), 0, atol=1e-9)
    np.testing.assert_allclose(value(mean), 0.1 * X4.mean((0, 2, 3)))
    n = X4.size / 4
    np.testing.assert_allclose(value(var), 0.9 + 0.1 * X4.var((0, 2, 3)) * n / (n - 1))


def test_dropout_variants():
    x = np.ones((200, 8, 3, 3), np.float32)
    y = value(ops.dropout(T(x), p=0.25))
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.75)}
    np.testing.assert_array_equal(value(ops.dropout(T(x), training=False)), x)
    for fn, shape in ((ops.dropout1d, (200, 8, 9)), (ops.dropout2d, (200, 8, 3, 3)),
                      (ops.dropout3d, (200, 8, 1, 3, 3))):
        out = value(fn(T(np.ones(shape, np.float32)), p=0.5))
        per_channel = out.reshape(200, 8, -1)
        assert (per_channel.min(-1) == per_channel.max(-1)).all()  # whole channels
        assert 0.35 < (per_channel[..., 0] == 0).mean() < 0.65


def test_ctc_greedy_decoder_documented_example():
    inputs = T(np.array([[[0.6, 0.4, 0.2], [0.8, 0.6, 0.3]],
                         [[0.0, 0.6, 0.0], [0.5, 0.4, 0.5]]], np.float32))
    indices, values, shape, log_p = ops.ctc_greedy_decoder(inputs, T(np.array([2, 2])))
    np.testing.assert_array_equal(value(indices), [[0, 0], [0, 1], [1, 0]])
    np.testing.assert_array_equal(value(values), [0, 1, 0])
    np.testing.assert_array_equal(value(shape), [2, 2])
    np.testing.assert_allclose(value(log_p), [[-1.2], [-1.3]], rtol=1e-6)
    with pytest.raises(EagerOnlyError, match="ops.ctc_greedy_decoder"):
        sx.jit(lambda a: ops.ctc_greedy_decoder(a, T(np.array([2, 2])))[1])(inputs)


@pytest.mark.parametrize("fn, args", [
    (lambda x, w: ops.conv2d(x, w, pad_mode="pad", padding=(1, 0, 1, 1), stride=2),
     (X4[:1, :2, :5, :5], W2[:2])),
    (lambda x, w: ops.conv3d(x, w, stride=(1, 2, 1)), (X5[..., :4, :4, :4], W3[:2])),
    (lambda x: ops.avg_pool2d(x, 2, 2, 1, ceil_mode=True), (X4[:1, :1],)),
    (lambda x: ops.max_pool3d(x, 2, 1), (X5[:, :1, :3, :3, :3],)),
    (lambda x: ops.adaptive_avg_pool2d(x, (2, 4)), (X4[:1, :1],)),
    (lambda x: ops.lp_pool2d(x, 2, 2), (np.abs(X4[:1, :1]) + 0.5,)),
    (lambda x: ops.fold(ops.unfold(x, 2, stride=1), (7, 6), 2), (X4[:1, :1],)),
    (lambda x: ops.lrn(x, 1), (X4[:1],)),
])
def test_gradients(fn, args):
    check_grad(fn, *args)
    if len(args) > 1:
        check_grad(fn, *args, argnum=1)


@pytest.mark.parametrize("fn, args", [
    (lambda x, w: ops.conv2d(x, w, pad_mode="same", stride=2), (X4[:, :2], W2)),
    (lambda x: ops.max_pool2d(x, 3, 2, 1, return_indices=True, ceil_mode=True), (X4,)),
    (lambda x: ops.avg_pool1d(x, 2, 1), (X3,)),
    (lambda x: ops.dense(x, x[0]), (X3[0],)),
    (lambda x: ops.unfold(x, 3), (X4,)),
])
def test_graph_mode(fn, args):
    check_jit(fn, *[np.asarray(a, np.float32) for a in args], rtol=1e-5, atol=1e-5)


def _deform_reference(x, w, off, stride, pad, dil, dg):
    """Loop-based modulated deformable convolution (torchvision's definition)."""
    n, cin, h, wd = x.shape
    cout, _, kh, kw = w.shape
    ho, wo = off.shape[2:]
    parts = off.reshape(n, 3, dg, kh * kw, ho, wo)
    out = np.zeros((n, cout, ho, wo))

    def read(b, c, y, xx):
        if y <= -1 or y >= h or xx <= -1 or xx >= wd:
            return 0.0
        y0, x0 = int(np.floor(y)), int(np.floor(xx))
        total = 0.0
        for yy, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
            for xc, wx in ((x0, 1 - (xx - x0)), (x0 + 1, xx - x0)):
                if 0 <= yy < h and 0 <= xc < wd:
                    total += wy * wx * x[b, c, yy, xc]
        return total
    for b in range(n):
        for oy in range(ho):
            for ox in range(wo):
                for c in range(cin):
                    g = c // (cin // dg)
                    for t in range(kh * kw):
                        i, j = divmod(t, kw)
                        y = oy * stride - pad + i * dil + parts[b, 1, g, t, oy, ox]
                        xx = ox * stride - pad + j * dil + parts[b, 0, g, t, oy, ox]
                        v = read(b, c, y, xx) * parts[b, 2, g, t, oy, ox]
                        out[b, :, oy, ox] += w[:, c, i, j] * v
    return out


def test_deformable_conv2d():
    x = RNG.standard_normal((1, 4, 5, 5))
    w = RNG.standard_normal((3, 4, 2, 2))
    zero = np.concatenate([np.zeros((1, 2 * 2 * 4, 3, 3)), np.ones((1, 2 * 4, 3, 3))], 1)
    plain = ops.deformable_conv2d(T(x), T(w), T(zero), 2, (1, 1, 2, 2), (1, 1, 1, 1),
                                  deformable_groups=2)
    np.testing.assert_allclose(value(plain), conv(x, w, 2, 1), rtol=1e-10)
    off = RNG.standard_normal((1, 3 * 2 * 4, 3, 3)) * 0.7
    got = ops.deformable_conv2d(T(x), T(w), T(off), (2, 2), (1, 1, 2, 2), (1, 1, 1, 1),
                                T([0.5, 0.0, -1.0]), deformable_groups=2)
    expected = _deform_reference(x, w, off, 2, 1, 1, 2) + np.array([0.5, 0.0, -1.0])[:, None,
                                                                                     None]
    np.testing.assert_allclose(value(got), expected, rtol=1e-10)
    check_grad(lambda o: ops.deformable_conv2d(T(x[:, :2, :3, :3]), T(w[:2, :2]), o, 2,
                                               (1, 1, 1, 1), (0, 0, 0, 0)),
               off[:, :12, :2, :2] * 0.3 + 0.05)
    check_jit(lambda a, o: ops.deformable_conv2d(a, T(w.astype(np.float32)), o, 2, (1, 1, 2, 2),
                                                 (1, 1, 1, 1), deformable_groups=2),
              x.astype(np.float32), off.astype(np.float32), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("k, s, p", [(3, 2, 1), (2, 1, 1), (3, 3, 0)])
def test_2d_pooling_fast_paths_match_the_reference(k, s, p):
    x = X4 - 3.0  # negative values: padding must never win a maximum
    np.testing.assert_allclose(value(ops.max_pool2d(T(x), k, s, p)),
                               pool(x, (k, k), (s, s), p)[0])
    np.testing.assert_allclose(value(ops.max_pool2d(T(x), k, s, p, dilation=2)),
                               pool(x, (k, k), (s, s), p, dilation=2)[0])
    for include in (True, False):
        np.testing.assert_allclose(value(ops.avg_pool2d(T(x), k, s, p,
                                                        count_include_pad=include)),
                                   pool(x, (k, k), (s, s), p, kind="avg",
                                        count_include_pad=include))
