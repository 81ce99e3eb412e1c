"""Convolution and pooling against direct-loop NumPy references, plus their errors."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.core import ShapeError, SporelingError

rng = np.random.default_rng(0)


def ref_conv2d(x, w, stride, padding, dilation, groups):
    (sh, sw), ((pt, pb), (pl, pr)), (dh, dw) = stride, padding, dilation
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    n, _, h, wd = xp.shape
    o, cg, kh, kw = w.shape
    oh, ow = (h - dh * (kh - 1) - 1) // sh + 1, (wd - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, oh, ow))
    for b in range(n):
        for oc in range(o):
            g = oc // (o // groups)
            for i in range(oh):
                for j in range(ow):
                    patch = xp[b, g * cg:(g + 1) * cg, i * sh:i * sh + dh * (kh - 1) + 1:dh,
                               j * sw:j * sw + dw * (kw - 1) + 1:dw]
                    out[b, oc, i, j] = np.sum(patch * w[oc])
    return out


def ref_conv_transpose2d(y, w, stride, padding, output_padding, dilation, groups):
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    n, o, oh, ow = y.shape
    _, cg, kh, kw = w.shape
    h = (oh - 1) * sh - 2 * ph + dh * (kh - 1) + 1 + output_padding[0]
    wd = (ow - 1) * sw - 2 * pw + dw * (kw - 1) + 1 + output_padding[1]
    canvas = np.zeros((n, cg * groups, h + 2 * ph, wd + 2 * pw))
    for b in range(n):
        for oc in range(o):
            g = oc // (o // groups)
            for i in range(oh):
                for j in range(ow):
                    for ki in range(kh):
                        for kj in range(kw):
                            canvas[b, g * cg:(g + 1) * cg, i * sh + ki * dh, j * sw + kj * dw] \
                                += y[b, oc, i, j] * w[oc, :, ki, kj]
    return canvas[:, :, ph:ph + h, pw:pw + wd]


def ref_pool(x, kernel, stride, padding, reduce, pad_value, count_include_pad=True):
    (kh, kw), (sh, sw), (ph, pw) = kernel, stride, padding
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=pad_value)
    ones = np.pad(np.ones_like(x), ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    oh, ow = (xp.shape[2] - kh) // sh + 1, (xp.shape[3] - kw) // sw + 1
    out = np.zeros(x.shape[:2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * sh:i * sh + kh, j * sw:j * sw + kw]
            if reduce == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            else:
                count = kh * kw if count_include_pad else \
                    ones[:, :, i * sh:i * sh + kh, j * sw:j * sw + kw].sum(axis=(2, 3))
                out[:, :, i, j] = win.sum(axis=(2, 3)) / count
    return out


CONV_CASES = [  # x shape, w shape, stride, padding, dilation, groups
    ((2, 3, 7, 6), (4, 3, 3, 2), 1, 0, 1, 1),
    ((1, 4, 8, 7), (6, 2, 3, 3), (2, 3), (1, 2), 1, 2),
    ((2, 2, 9, 9), (2, 1, 2, 3), 2, 2, (2, 1), 2),
    ((1, 3, 6, 5), (2, 3, 4, 3), 1, "same", (1, 2), 1),
    ((64, 1, 28, 28), (6, 1, 5, 5), 1, 0, 1, 1),
]


def _resolved_padding(padding, w_shape, dilation):
    if padding == "same":
        d = (dilation, dilation) if isinstance(dilation, int) else dilation
        return tuple((t // 2, t - t // 2) for t in (d[0] * (w_shape[2] - 1), d[1] * (w_shape[3] - 1)))
    p = (padding, padding) if isinstance(padding, int) else padding
    return (p[0], p[0]), (p[1], p[1])


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


@pytest.mark.parametrize("xs, ws, stride, padding, dilation, groups, dtype",
                         [c + (dt,) for c in CONV_CASES[:-1] for dt in (np.float32, np.float64)]
                         + [CONV_CASES[-1] + (np.float32,)])
def test_conv2d_matches_direct_loops(xs, ws, stride, padding, dilation, groups, dtype):
    x, w, b = rng.standard_normal(xs), rng.standard_normal(ws), rng.standard_normal(ws[0])
    got = ops.conv2d(x.astype(dtype), w.astype(dtype), b.astype(dtype), stride, padding,
                     dilation, groups)
    # the loops check the first two samples (the LeNet-sized batch would be slow)
    want = ref_conv2d(x[:2], w, _pair(stride), _resolved_padding(padding, ws, dilation),
                      _pair(dilation), groups) + b[:, None, None]
    assert got.dtype == dtype
    np.testing.assert_allclose(got[:2], want, rtol=1e-4, atol=1e-4)


def test_conv1d_matches_conv2d_on_a_row():
    x, w = rng.standard_normal((2, 4, 9)), rng.standard_normal((6, 2, 3))
    got = ops.conv1d(x, w, stride=2, padding=1, dilation=2, groups=2)
    want = ref_conv2d(x[:, :, None], w[:, :, None], (1, 2), ((0, 0), (1, 1)), (1, 2), 2)
    np.testing.assert_allclose(got, want[:, :, 0], rtol=1e-10)
    same = ops.conv1d(x, w[:, :, :2], padding="same", groups=2)
    assert same.shape == (2, 6, 9)


@pytest.mark.parametrize("ys, ws, stride, padding, output_padding, dilation, groups", [
    ((2, 3, 4, 3), (3, 2, 3, 2), 1, 0, 0, 1, 1),
    ((1, 4, 3, 4), (4, 1, 3, 3), (2, 3), (1, 0), (1, 2), 1, 2),
    ((1, 2, 3, 3), (2, 3, 2, 2), 2, 1, 0, 2, 1),
])
def test_conv_transpose2d_matches_direct_loops(ys, ws, stride, padding, output_padding,
                                               dilation, groups):
    y, w = rng.standard_normal(ys), rng.standard_normal(ws)
    got = ops.conv_transpose2d(y, w, None, stride, padding, output_padding, groups, dilation)
    want = ref_conv_transpose2d(y, w, _pair(stride), _pair(padding), _pair(output_padding),
                                _pair(dilation), groups)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kernel, stride, padding", [(2, None, 0), ((3, 2), (2, 1), 1),
                                                     (3, 1, (1, 0))])
def test_pools_match_direct_loops(kernel, stride, padding):
    x = rng.standard_normal((2, 3, 7, 6))
    k, p = _pair(kernel), _pair(padding)
    s = k if stride is None else _pair(stride)
    np.testing.assert_allclose(ops.max_pool2d(x, kernel, stride, padding),
                               ref_pool(x, k, s, p, "max", -np.inf))
    np.testing.assert_allclose(ops.avg_pool2d(x, kernel, stride, padding),
                               ref_pool(x, k, s, p, "mean", 0.0))
    np.testing.assert_allclose(ops.avg_pool2d(x, kernel, stride, padding,
                                              count_include_pad=False),
                               ref_pool(x, k, s, p, "mean", 0.0, count_include_pad=False))


def test_max_pool_gradient_goes_to_the_first_maximum():
    from sporeling.compiler.autodiff import grad
    x = np.array([[[[1.0, 3.0], [3.0, 0.0]]]])
    g = grad(lambda v: ops.sum(ops.max_pool2d(v, 2)))(x)
    np.testing.assert_array_equal(g, [[[[0.0, 1.0], [0.0, 0.0]]]])


@pytest.mark.parametrize("size, out", [((5, 7), (2, 3)), ((4, 6), (2, 3)), ((3, 3), (1, 1)),
                                       ((4, 5), (None, 2))])
def test_adaptive_avg_pool2d_uses_pytorch_windows(size, out):
    x = rng.standard_normal((2, 3) + size)
    oh, ow = size[0] if out[0] is None else out[0], out[1]
    want = np.zeros((2, 3, oh, ow))
    for i in range(oh):
        for j in range(ow):
            h0, h1 = i * size[0] // oh, -(-(i + 1) * size[0] // oh)
            w0, w1 = j * size[1] // ow, -(-(j + 1) * size[1] // ow)
            want[:, :, i, j] = x[:, :, h0:h1, w0:w1].mean(axis=(2, 3))
    np.testing.assert_allclose(ops.adaptive_avg_pool2d(x, out), want, rtol=1e-12)


@pytest.mark.parametrize("call, words", [
    (lambda: ops.conv2d(np.ones((1, 3, 5, 5)), np.ones((2, 2, 3, 3))), "input channels"),
    (lambda: ops.conv2d(np.ones((1, 3, 5, 5)), np.ones((2, 1, 3, 3)), groups=2), "groups"),
    (lambda: ops.conv2d(np.ones((1, 4, 5, 5)), np.ones((3, 2, 3, 3)), groups=2), "groups"),
    (lambda: ops.conv2d(np.ones((1, 1, 3, 3)), np.ones((1, 1, 4, 2))), "kernel larger"),
    (lambda: ops.conv2d(np.ones((1, 1, 4, 4)), np.ones((1, 1, 3, 3)), dilation=2),
     "kernel larger"),
    (lambda: ops.conv2d(np.ones((1, 3, 5)), np.ones((2, 3, 3, 3))), "4-d"),
    (lambda: ops.conv1d(np.ones((1, 2, 5)), np.ones((2, 3, 3))), "input channels"),
    (lambda: ops.conv1d(np.ones((1, 2, 2)), np.ones((2, 2, 3))), "kernel larger"),
    (lambda: ops.conv_transpose2d(np.ones((1, 3, 4, 4)), np.ones((2, 1, 3, 3))),
     "input channels"),
    (lambda: ops.max_pool2d(np.ones((1, 1, 2, 2)), 3), "kernel larger"),
    (lambda: ops.avg_pool2d(np.ones((2, 2)), 2), "4-d"),
])
def test_shape_errors_name_op_and_shapes(call, words):
    with pytest.raises(ShapeError, match=words) as info:
        call()
    assert info.value.op in ("conv2d", "conv1d", "conv_transpose2d", "max_pool2d",
                             "avg_pool2d")
    assert "(" in str(info.value.got)


@pytest.mark.parametrize("call, words", [
    (lambda: ops.conv2d(np.ones((1, 1, 5, 5)), np.ones((1, 1, 3, 3)), stride=2,
                        padding="same"), "stride 1"),
    (lambda: ops.conv2d(np.ones((1, 1, 5, 5)), np.ones((1, 1, 3, 3)), padding="full"),
     "bad padding"),
    (lambda: ops.conv2d(np.ones((1, 1, 5, 5)), np.ones((1, 1, 3, 3)), stride=0), "stride"),
    (lambda: ops.conv_transpose2d(np.ones((1, 1, 3, 3)), np.ones((1, 1, 3, 3)),
                                  output_padding=1), "output_padding"),
    (lambda: ops.max_pool2d(np.ones((1, 1, 4, 4)), 2, padding=2), "half the kernel"),
])
def test_parameter_errors(call, words):
    with pytest.raises(SporelingError, match=words):
        call()
