"""The table-driven neural-network primitive classes (ops/primitives/nn_table.py): pooling,
convolution, activations, losses, image and box ops, made with their defaults (or the
arguments a model passes) and called on small inputs, against NumPy or the facade's
functions (transposed convolutions by the adjoint identity)."""
import numpy as np
import pytest
from scipy import special

import sporeling.ms as ms
from sporeling.ms import ops

from array_nn_checks import T, value

RNG = np.random.default_rng(5)
IMG = RNG.standard_normal((2, 3, 6, 6))
VOL = RNG.standard_normal((1, 2, 4, 4, 4))
W = RNG.standard_normal((4, 3, 3, 3))
X = RNG.standard_normal((3, 4))
Y = RNG.standard_normal((3, 4))
RGB = RNG.uniform(0, 1, (2, 3, 3))


def sig(a):
    return 1 / (1 + np.exp(-a))


def F(name, *args, **kwargs):
    """The facade function ``ops.<name>``'s value."""
    return value(getattr(ops, name)(*[T(a) if isinstance(a, np.ndarray) else a for a in args],
                                    **kwargs))


def _conv(x, w, groups=1):
    """Valid cross-correlation, any number of spatial axes (NumPy loops)."""
    nd = w.ndim - 2
    k = w.shape[2:]
    out_sp = tuple(n - kk + 1 for n, kk in zip(x.shape[2:], k))
    cin_g, og = x.shape[1] // groups, w.shape[0] // groups
    out = np.zeros((x.shape[0], w.shape[0]) + out_sp)
    for g in range(groups):
        xs = x[:, g * cin_g:(g + 1) * cin_g]
        ws = w[g * og:(g + 1) * og]
        for tap in np.ndindex(*k):
            window = xs[(slice(None), slice(None)) + tuple(
                slice(t, t + o) for t, o in zip(tap, out_sp))]
            out[:, g * og:(g + 1) * og] += np.einsum(
                "nc" + "xyz"[:nd] + ",oc->no" + "xyz"[:nd], window,
                ws[(slice(None), slice(None)) + tap])
    return out


def _trilinear_grid(vol, grid):
    """grid_sample of (N, C, D, H, W) at (x, y, z) in [-1, 1], align_corners=False, zeros."""
    n, c, d, h, w = vol.shape
    out = np.zeros((n, c) + grid.shape[1:4])
    for b in range(n):
        for idx in np.ndindex(*grid.shape[1:4]):
            gx, gy, gz = grid[(b,) + idx]
            px, py, pz = ((gx + 1) * w - 1) / 2, ((gy + 1) * h - 1) / 2, ((gz + 1) * d - 1) / 2
            x0, y0, z0 = int(np.floor(px)), int(np.floor(py)), int(np.floor(pz))
            acc = np.zeros(c)
            for dz in (0, 1):
                for dy in (0, 1):
                    for dx in (0, 1):
                        xi, yi, zi = x0 + dx, y0 + dy, z0 + dz
                        wt = ((1 - abs(px - xi)) * (1 - abs(py - yi)) * (1 - abs(pz - zi)))
                        if 0 <= xi < w and 0 <= yi < h and 0 <= zi < d:
                            acc += wt * vol[b, :, zi, yi, xi]
            out[(b, slice(None)) + idx] = acc
    return out


def _hsv(rgb):
    import colorsys
    return np.array([colorsys.rgb_to_hsv(*p) for p in rgb.reshape(-1, 3)]).reshape(rgb.shape)


RNG_OUT = RNG.standard_normal((2, 4, 2, 2))
IMG_OUT = RNG.standard_normal((2, 4, 6, 6))
W3 = RNG.standard_normal((3, 2, 2, 2, 2))
W3T = RNG.standard_normal((3, 2, 2, 2, 2))
WD = RNG.standard_normal((2, 3, 3, 3))
LOGP = special.log_softmax(RNG.standard_normal((5, 1, 4)), -1)
BOXES = np.array([[0.1, 0.1, 0.5, 0.6], [0.2, 0.3, 0.9, 0.8]])
GRID = RNG.uniform(-1, 1, (2, 3, 4, 2))
GRID3 = RNG.uniform(-1, 1, (1, 2, 3, 4, 3))
SCORED = np.array([[0, 0, 10, 10, 0.9], [1, 1, 10, 10, 0.8], [20, 20, 30, 30, 0.7]], np.float32)


def _bilinear(x, size, source):
    """Separable linear interpolation at ``source(out, n)`` coordinates (clamped)."""
    for axis, out in zip((2, 3), size):
        n = x.shape[axis]
        src = np.clip(source(out, n), 0, n - 1)
        x = np.apply_along_axis(lambda v: np.interp(src, np.arange(n), v), axis, x)
    return x


def _argmax2(x, k):
    """Flat (H, W) positions of the maxima of k x k windows (stride k)."""
    n, c, h, w = x.shape
    out = np.zeros((n, c, h // k, w // k), np.int64)
    for i in range(h // k):
        for j in range(w // k):
            win = x[:, :, i * k:(i + 1) * k, j * k:(j + 1) * k].reshape(n, c, -1).argmax(-1)
            out[:, :, i, j] = (i * k + win // k) * w + j * k + win % k
    return out


def _unpooled(x, nd):
    """Max unpooling of 2 x 2 (x 2) max pooling: the maxima at their places, zeros elsewhere."""
    windows = x.reshape(x.shape[:2] + sum(((s // 2, 2) for s in x.shape[2:]), ()))
    axes = tuple(range(3, 3 + 2 * nd, 2))
    top = windows.max(axes, keepdims=True)
    return np.where(windows == top, windows, 0).reshape(x.shape)


def _multi_margin(x, t):
    return np.mean([sum(max(0, 1 - r[y] + r[i]) for i in range(len(r)) if i != y) / len(r)
                    for r, y in zip(x, t)])


def _dilation(x, w):
    c, kh, kw = w.shape
    out = np.full((x.shape[0], c, x.shape[2] - kh + 1, x.shape[3] - kw + 1), -np.inf)
    for i in range(kh):
        for j in range(kw):
            out = np.maximum(out,
                x[:, :, i:i + out.shape[2], j:j + out.shape[3]] + w[:, i, j][:, None, None])
    return out


def _patch_grid(x):
    n, c = x.shape[:2]
    out = np.zeros((n, c, 4, 4))
    for h in range(2):
        for w in range(2):
            out[:, :, h * 2:h * 2 + 2, w * 2:w * 2 + 2] = x[:, :, h:h + 2, w:w + 2]
    return out


def _roi_reference():
    """One sample per bin, at its centre: box (0, 0)-(3, 3) with roi_end_mode=1 is 4 x 4,
    its 2 x 2 bins are centred on pixels 1 and 3."""
    return IMG[:1][:, :, [1, 3]][:, :, :, [1, 3]]


CASES = [
    ("AdaptiveAvgPool2D", lambda: ops.AdaptiveAvgPool2D(3)(T(IMG)),
        IMG.reshape(2, 3, 3, 2, 3, 2).mean((3, 5))),
    ("AdaptiveAvgPool3D", lambda: ops.AdaptiveAvgPool3D(2)(T(VOL)),
        VOL.reshape(1, 2, 2, 2, 2, 2, 2, 2).mean((3, 5, 7))),
    ("AdaptiveMaxPool2D", lambda: ops.AdaptiveMaxPool2D(3)(T(IMG)),
     (IMG.reshape(2, 3, 3, 2, 3, 2).max((3, 5)), _argmax2(IMG, 2))),
    ("AdaptiveMaxPool3D", lambda: ops.AdaptiveMaxPool3D()(T(VOL), T(np.array([2, 2, 2]))),
     F("max_pool3d", VOL, 2, 2, return_indices=True)),
    ("AvgPool3D", lambda: ops.AvgPool3D(2, 2)(T(VOL)),
        VOL.reshape(1, 2, 2, 2, 2, 2, 2, 2).mean((3, 5, 7))),
    ("AvgPool3D_pad", lambda: ops.AvgPool3D(3, 1, "pad", 1, count_include_pad=False)(T(VOL)),
     F("avg_pool3d", VOL, 3, 1, 1, count_include_pad=False)),
    ("MaxPool3D", lambda: ops.MaxPool3D(2, 2)(T(VOL)),
        VOL.reshape(1, 2, 2, 2, 2, 2, 2, 2).max((3, 5, 7))),
    ("MaxPool3DWithArgmax", lambda: ops.MaxPool3DWithArgmax(2, 2, 0)(T(VOL)),
     F("max_pool3d", VOL, 2, 2, return_indices=True)),
    ("MaxPoolWithArgmax", lambda: ops.MaxPoolWithArgmax(2, 2)(T(IMG)),
     (IMG.reshape(2, 3, 3, 2, 3, 2).max((3, 5)), _argmax2(IMG, 2))),
    ("MaxPoolWithArgmax_same", lambda: ops.MaxPoolWithArgmax(3, 2, "same")(T(IMG))[0],
     F("max_pool2d", np.pad(IMG, [(0, 0), (0, 0), (0, 1), (0, 1)], constant_values=-np.inf),
       3, 2)),
    ("MaxPoolWithArgmaxV2", lambda: ops.MaxPoolWithArgmaxV2(3, 1, 1)(T(IMG)),
     F("max_pool2d", IMG, 3, 1, 1, return_indices=True)),
    ("MaxUnpool2D", lambda: ops.MaxUnpool2D(2, 2)(*ops.MaxPoolWithArgmaxV2(2, 2)(T(IMG))),
     _unpooled(IMG, 2)),
    ("MaxUnpool3D", lambda: ops.MaxUnpool3D(2, 2)(*ops.MaxPool3DWithArgmax(2, 2, 0)(T(VOL))),
     _unpooled(VOL, 3)),
    ("LRN", lambda: ops.LRN(2)(T(IMG)), value(ops.lrn(T(IMG), 2))),
    ("Conv3D", lambda: ops.Conv3D(3, 2)(T(VOL), T(W3)), _conv(VOL, W3)),
    ("DepthwiseConv2dNative", lambda: ops.DepthwiseConv2dNative(2, 3)(T(IMG), T(WD)),
     _conv(IMG, WD.transpose(1, 0, 2, 3).reshape(6, 1, 3, 3), groups=3)),
    ("Dilation2D", lambda: ops.Dilation2D(1, 1, "VALID")(T(IMG), T(W[0])), _dilation(IMG, W[0])),
    ("DeformableOffsets_zero", lambda: ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2),
                                                             modulated=False)(
        T(IMG[:, :, :3, :3]), T(np.zeros((2, 12, 2, 2)))), _patch_grid(IMG[:, :, :3, :3])),
    ("Dense", lambda: ops.Dense()(T(X), T(Y), T(X[0, :3])), X @ Y.T + X[0, :3]),
    ("CeLU", lambda: ops.CeLU()(T(X)), np.where(X > 0, X, np.expm1(X))),
    ("Gelu", lambda: ops.Gelu()(T(X)), X * (1 + special.erf(X / np.sqrt(2))) / 2),
    ("FastGeLU", lambda: ops.FastGeLU()(T(X)), value(ops.fast_gelu(T(X)))),
    ("FastGelu", lambda: ops.FastGelu()(T(X)), value(ops.fast_gelu(T(X)))),
    ("GLU", lambda: ops.GLU()(T(X)), X[:, :2] * sig(X[:, 2:])),
    ("HShrink", lambda: ops.HShrink()(T(X)), np.where(np.abs(X) > 0.5, X, 0)),
    ("HSigmoid", lambda: ops.HSigmoid()(T(X)), np.clip(X / 6 + 0.5, 0, 1)),
    ("HSwish", lambda: ops.HSwish()(T(X)), X * np.clip(X / 6 + 0.5, 0, 1)),
    ("Mish", lambda: ops.Mish()(T(X)), X * np.tanh(np.log1p(np.exp(X)))),
    ("PReLU", lambda: ops.PReLU()(T(IMG), T(np.array([0.1, 0.2, 0.3]))),
     np.where(IMG > 0, IMG, IMG * np.array([0.1, 0.2, 0.3])[:, None, None])),
    ("SeLU", lambda: ops.SeLU()(T(X)),
     1.0507009873554805 * np.where(X > 0, X, 1.6732632423543772 * np.expm1(X))),
    ("SoftShrink", lambda: ops.SoftShrink()(T(X)), np.sign(X) * np.maximum(np.abs(X) - 0.5, 0)),
    ("Softplus", lambda: ops.Softplus()(T(X)), np.log1p(np.exp(X))),
    ("Softsign", lambda: ops.Softsign()(T(X)), X / (1 + np.abs(X))),
    ("LogSoftmaxExt", lambda: ops.LogSoftmaxExt()(T(X), 0), X - special.logsumexp(X, 0)),
    ("L2Normalize", lambda: ops.L2Normalize(1)(T(X)),
     X / np.sqrt(np.maximum((X ** 2).sum(1, keepdims=True), 1e-4))),
    ("RmsNorm", lambda: ops.RmsNorm()(T(X), T(Y[0]))[0],
     X / np.sqrt((X ** 2).mean(-1, keepdims=True) + 1e-6) * Y[0]),
    ("ChannelShuffle", lambda: ops.ChannelShuffle(3)(T(np.tile(IMG, (1, 2, 1, 1)))),
     np.tile(IMG, (1, 2, 1, 1)).reshape(2, 3, 2, 6, 6).transpose(0, 2, 1, 3, 4)
     .reshape(2, 6, 6, 6)),
    ("L2Loss", lambda: ops.L2Loss()(T(X)), (X ** 2).sum() / 2),
    ("KLDivLoss", lambda: ops.KLDivLoss("sum")(T(X), T(np.abs(Y))),
     np.sum(np.abs(Y) * (np.log(np.abs(Y)) - X))),
    ("MultiMarginLoss", lambda: ops.MultiMarginLoss()(T(X), T(np.array([0, 3, 1]))),
     _multi_margin(X, np.array([0, 3, 1]))),
    ("MultilabelMarginLoss",
        lambda: ops.MultilabelMarginLoss()(T(X), T(np.array([[0, 2, -1, 0]] * 3)))[0],
     np.mean([sum(max(0, 1 - (r[j] - r[i])) for j in (0, 2) for i in (1, 3)) / 4 for r in X])),
    ("SoftMarginLoss", lambda: ops.SoftMarginLoss()(T(X), T(np.sign(Y))),
     np.mean(np.log1p(np.exp(-np.sign(Y) * X)))),
    ("SigmoidCrossEntropyWithLogits", lambda: ops.SigmoidCrossEntropyWithLogits()(T(X),
        T(np.abs(Y) / 3)),
     -(np.abs(Y) / 3 * np.log(sig(X)) + (1 - np.abs(Y) / 3) * np.log(1 - sig(X)))),
    ("TripletMarginLoss", lambda: ops.TripletMarginLoss()(T(X), T(Y), T(X * 2), T(np.array(1.0))),
     np.mean(np.maximum(np.linalg.norm(X - Y + 1e-6, axis=1)
                        - np.linalg.norm(X - 2 * X + 1e-6, axis=1) + 1, 0))),
    ("CTCLossV2", lambda: ops.CTCLossV2()(T(LOGP), T(np.array([[1, 2]])), T(np.array([5])),
                                          T(np.array([2])))[0],
     F("ctc_loss", LOGP, np.array([[1, 2]]), np.array([5]), np.array([2]), reduction="none")[0]),
    ("CTCLoss", lambda: ops.CTCLoss()(T(LOGP), T(np.array([[0, 0], [0, 1]])), T(np.array([0, 1],
        np.int32)),
                                      T(np.array([5], np.int32)))[0],
     F("ctc_loss", LOGP - special.logsumexp(LOGP, -1, keepdims=True), np.array([[0, 1]]),
       np.array([5]), np.array([2]), 3, "none")[0]),
    ("CTCGreedyDecoder", lambda: ops.CTCGreedyDecoder()(T(LOGP), T(np.array([5], np.int32)))[1],
     value(ops.ctc_greedy_decoder(T(LOGP), T(np.array([5], np.int32))))[1]),
    ("ResizeBilinearV2", lambda: ops.ResizeBilinearV2()(T(IMG), (4, 5)),
     _bilinear(IMG, (4, 5), lambda o, n: np.arange(o) * n / o)),
    ("ResizeBilinearV2_half_pixel", lambda: ops.ResizeBilinearV2(False, True)(T(IMG), (4, 5)),
     _bilinear(IMG, (4, 5), lambda o, n: (np.arange(o) + 0.5) * n / o - 0.5)),
    ("ResizeBilinearV2_align", lambda: ops.ResizeBilinearV2(True)(T(IMG), (4, 5)),
     _bilinear(IMG, (4, 5), lambda o, n: np.arange(o) * (n - 1) / (o - 1))),
    ("ResizeBicubic_identity", lambda: ops.ResizeBicubic()(T(IMG), (6, 6)), IMG),
    ("ResizeBicubic_half_pixel_linear", lambda: ops.ResizeBicubic(False, True)(
        T(np.broadcast_to(np.arange(6.0), (1, 1, 6, 6)).copy()), (6, 12))[0, 0, 0, 3:9],
     (np.arange(3, 9) + 0.5) / 2 - 0.5),
    ("ResizeArea", lambda: ops.ResizeArea()(T(IMG), (3, 3)),
        IMG.reshape(2, 3, 3, 2, 3, 2).mean((3, 5))),
    ("ResizeNearestNeighborV2", lambda: ops.ResizeNearestNeighborV2()(T(IMG), (3, 4)),
     IMG[:, :, [0, 2, 4]][:, :, :, [0, 1, 3, 4]]),
    ("ResizeNearestNeighbor", lambda: ops.ResizeNearestNeighbor((12, 3))(T(IMG)),
     IMG[:, :, np.arange(12) // 2][:, :, :, [0, 2, 4]]),
    ("ResizeLinear1D", lambda: ops.ResizeLinear1D()(T(X[None]), (7,)),
     np.stack([[np.interp(np.linspace(0, 3, 7), np.arange(4), r) for r in X]])),
    ("UpsampleNearest3D", lambda: ops.UpsampleNearest3D()(T(VOL), (8, 8, 8)),
     VOL.repeat(2, 2).repeat(2, 3).repeat(2, 4)),
    ("UpsampleTrilinear3D", lambda: ops.UpsampleTrilinear3D()(T(VOL), (6, 5, 7)),
     F("interpolate", VOL, (6, 5, 7), None, "trilinear", False)),
    ("CropAndResize", lambda: ops.CropAndResize()(T(IMG.transpose(0, 2, 3, 1)), T(BOXES),
                                                  T(np.array([0, 1], np.int32)), (3, 3)),
     value(ops.crop_and_resize(T(IMG.transpose(0, 2, 3, 1)), T(BOXES), T(np.array([0, 1],
         np.int32)),
                               (3, 3)))),
    ("GridSampler2D", lambda: ops.GridSampler2D()(T(IMG), T(GRID)),
     _trilinear_grid(IMG[:, :, None], np.concatenate(
         [GRID[:, None], np.zeros(GRID.shape[:3] + (1,))[:, None]], -1))[:, :, 0]),
    ("GridSampler3D", lambda: ops.GridSampler3D()(T(VOL), T(GRID3)),
     _trilinear_grid(VOL, GRID3)),
    ("RGBToHSV", lambda: ops.RGBToHSV()(T(RGB)), _hsv(RGB)),
    ("HSVToRGB", lambda: ops.HSVToRGB()(ops.RGBToHSV()(T(RGB))), RGB),
    ("AdjustHue", lambda: ops.AdjustHue()(T(RGB), 0.0), RGB),
    ("AdjustSaturation", lambda: ops.AdjustSaturation()(T(RGB), 1.0), RGB),
    ("BoundingBoxDecode_roundtrip", lambda: ops.BoundingBoxDecode((100, 100))(
        T(BOXES * 10), ops.BoundingBoxEncode()(T(BOXES * 10), T(BOXES * 12))), BOXES * 12),
    ("CheckValid", lambda: ops.CheckValid()(T(BOXES * 10), T(np.array([5.0, 5.0, 1.0]))),
     value(ops.check_valid(T(BOXES * 10), T(np.array([5.0, 5.0, 1.0]))))),
    ("IOU", lambda: ops.IOU()(T(BOXES), T(BOXES)), value(ops.iou(T(BOXES), T(BOXES)))),
    ("NMSWithMask", lambda: ops.NMSWithMask(0.5)(T(SCORED))[2], [True, False, True]),
    ("NonMaxSuppressionV3", lambda: ops.NonMaxSuppressionV3()(T(SCORED[:, :4]), T(SCORED[:, 4]), 3,
        0.5, 0.0),
     [0, 2]),
    ("NonMaxSuppressionWithOverlaps", lambda: ops.NonMaxSuppressionWithOverlaps()(
        T(np.array([[1, 0.7, 0.2], [0.7, 1, 0.1], [0.2, 0.1, 1]])), T(np.array([0.9, 0.8, 0.7])),
            3, 0.5, 0.0),
     [0, 2]),
    ("CombinedNonMaxSuppression", lambda: ops.CombinedNonMaxSuppression()(
        T(SCORED[None, :, None, :4]), T(SCORED[None, :, 4:]), 2, 2, 0.5, 0.0)[3], [2]),
    ("ROIAlign", lambda: ops.ROIAlign(2, 2, 1.0, 1)(T(IMG), T(np.array([[0, 0.0, 0.0, 3.0, 3.0]]))),
     _roi_reference()),
    ("ExtractGlimpse", lambda: ops.ExtractGlimpse(False, False, False, "zero")(
        T(IMG.transpose(0, 2, 3, 1)), T(np.array([2, 2])), T(np.array([[2.0, 2.0], [3.0, 3.0]]))),
     np.stack([IMG.transpose(0, 2, 3, 1)[0, 1:3, 1:3], IMG.transpose(0, 2, 3, 1)[1, 2:4, 2:4]])),
    ("ScaleAndTranslate_identity", lambda: ops.ScaleAndTranslate()(
        T(IMG.transpose(0, 2, 3, 1)), T(np.array([6, 6])), T(np.array([1.0, 1.0])),
            T(np.array([0.0, 0.0]))),
     IMG.transpose(0, 2, 3, 1)),
]
def _compare(got, expected):
    got = value(got)
    if isinstance(expected, (tuple, list)) and isinstance(got, (tuple, list)):
        for g, e in zip(got, expected):
            _compare(g, e)
        return
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(expected, np.float64),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name,call,expected", CASES, ids=[c[0] for c in CASES])
def test_matches_reference(name, call, expected):
    _compare(call(), expected)


@pytest.mark.parametrize("make,x_shape,w_shape,dout_shape", [
    (lambda: ops.Conv2DBackpropInput(4, 3, stride=2), (2, 3, 6, 6), (4, 3, 3, 3), (2, 4, 2, 2)),
    (lambda: ops.Conv2DTranspose(4, 3, "same"), (2, 3, 6, 6), (4, 3, 3, 3), (2, 4, 6, 6)),
    (lambda: ops.Conv2DBackpropInput(4, 3, "pad", (1, 0, 2, 1), dilation=2),
     (1, 3, 7, 7), (4, 3, 3, 3), (1, 4, 4, 6)),
])
def test_conv_backprop_input_is_the_adjoint_of_conv(make, x_shape, w_shape, dout_shape):
    """<conv(x, w), dout> = <x, backprop_input(dout, w)> for every x: the input gradient."""
    x, w, dout = (RNG.standard_normal(s) for s in (x_shape, w_shape, dout_shape))
    prim = make()
    y = value(ops.conv2d(T(x), T(w), None, prim.stride, prim.pad_mode, prim.pad, prim.dilation,
                         prim.group))
    assert y.shape == dout_shape
    back = value(prim(T(dout), T(w), x_shape))
    assert back.shape == x_shape
    np.testing.assert_allclose(np.sum(y * dout), np.sum(x * back), rtol=1e-10)


def test_conv3d_transpose_is_the_adjoint_of_conv3d():
    w = RNG.standard_normal((3, 2, 2, 2, 2))          # (in_channel of the transpose, out, k)
    dout = RNG.standard_normal((1, 3, 2, 2, 2))
    out = value(ops.Conv3DTranspose(3, 2, 2, stride=2)(T(dout), T(w)))
    assert out.shape == (1, 2, 4, 4, 4)
    x = RNG.standard_normal(out.shape)
    y = value(ops.conv3d(T(x), T(w), None, 2))
    np.testing.assert_allclose(np.sum(y * dout), np.sum(x * out), rtol=1e-10)


def test_gradients_flow_through_classes():
    for fn in (lambda a: ops.Conv3D(3, 2)(a, T(W3)),
               lambda a: ops.AvgPool3D(2, 2)(a),
               lambda a: ops.GridSampler3D()(a, T(GRID3)),
               lambda a: ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(
                   a[:, :, 0], T(np.ones((1, 12, 3, 3)) * 0.3))):
        _, grad = ms.value_and_grad(lambda a: ops.ReduceSum()(fn(a) ** 2))(T(VOL))
        assert np.all(np.isfinite(value(grad))) and np.any(value(grad) != 0)
