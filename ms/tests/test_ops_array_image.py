"""ms.ops image, distance, sampling and debugging functions against NumPy/SciPy references
and MindSpore's documented examples; gradients and Graph mode for a selection."""
import numpy as np
import pytest
from scipy.spatial import distance as spatial

import sporeling.expression as sx
from sporeling.ms import ops

from array_nn_checks import T, check_grad, check_jit, value

RNG = np.random.default_rng(2)
IMG = np.arange(12.0).reshape(1, 1, 3, 4)
PTS = RNG.standard_normal((2, 4, 3))


def _bilinear(x, out_h, out_w):
    """PyTorch's half-pixel bilinear resize (align_corners=False), loops."""
    h, w = x.shape[-2:]
    res = np.zeros(x.shape[:-2] + (out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            sy = max((i + 0.5) * h / out_h - 0.5, 0)
            sx_ = max((j + 0.5) * w / out_w - 0.5, 0)
            y0, x0 = int(sy), int(sx_)
            y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
            fy, fx = sy - y0, sx_ - x0
            res[..., i, j] = ((1 - fy) * ((1 - fx) * x[..., y0, x0] + fx * x[..., y0, x1])
                              + fy * ((1 - fx) * x[..., y1, x0] + fx * x[..., y1, x1]))
    return res


CASES = [
    # flat per-side widths, last axis first
    ("pad", lambda: ops.pad(T(IMG), (1, 2, 0, 1), value=-1.0),
     np.pad(IMG, [(0, 0), (0, 0), (0, 1), (1, 2)], constant_values=-1.0)),
    ("pad_reflect", lambda: ops.pad(T(IMG), (2, 1), mode="reflect"),
     np.pad(IMG, [(0, 0), (0, 0), (0, 0), (2, 1)], mode="reflect")),
    ("pad_replicate", lambda: ops.pad(T(IMG), (1, 1, 2, 0), mode="replicate"),
     np.pad(IMG, [(0, 0), (0, 0), (2, 0), (1, 1)], mode="edge")),
    ("pad_circular", lambda: ops.pad(T(IMG), (1, 2), mode="circular"),
     np.pad(IMG, [(0, 0), (0, 0), (0, 0), (1, 2)], mode="wrap")),
    ("pad_negative", lambda: ops.pad(T(IMG), (-1, 1)),
     np.pad(IMG[..., 1:], [(0, 0)] * 3 + [(0, 1)])),
    ("padding", lambda: ops.padding(T([[8.0], [10.0]]), 4),
     np.array([[8.0, 0, 0, 0], [10.0, 0, 0, 0]])),
    ("interpolate_nearest", lambda: ops.interpolate(T(IMG), scale_factor=2.0),
     IMG.repeat(2, 2).repeat(2, 3)),
    ("interpolate_bilinear", lambda: ops.interpolate(T(IMG), size=(5, 7), mode="bilinear"),
     _bilinear(IMG, 5, 7)),
    ("interpolate_linear_corners",
     lambda: ops.interpolate(T([[[0.0, 3.0]]]), size=4, mode="linear", align_corners=True),
     np.array([[[0.0, 1.0, 2.0, 3.0]]])),
    ("interpolate_area", lambda: ops.interpolate(T(IMG), size=(1, 2), mode="area"),
     IMG.reshape(1, 1, 1, 3, 2, 2).mean((3, 5))),
    ("upsample", lambda: ops.upsample(T(IMG), size=(6, 8)), IMG.repeat(2, 2).repeat(2, 3)),
    # MindSpore's documented example (nn.Upsample, which calls ops.interpolate)
    ("upsample_doc", lambda: ops.upsample(T([[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]]),
                                          size=(5, 5)),
     np.array([[[[1.0, 1, 2, 3, 4]] * 3 + [[5.0, 5, 6, 7, 8]] * 2]])),
    ("pixel_shuffle", lambda: ops.pixel_shuffle(T(np.arange(8.0).reshape(1, 4, 1, 2)), 2),
     np.arange(8.0).reshape(1, 1, 2, 2, 1, 2).transpose(0, 1, 4, 2, 5, 3).reshape(1, 1, 2, 4)),
    ("pixel_unshuffle", lambda: ops.pixel_unshuffle(T(np.arange(16.0).reshape(1, 1, 4, 4)), 2),
     np.arange(16.0).reshape(1, 1, 2, 2, 2, 2).transpose(0, 1, 3, 5, 2, 4).reshape(1, 4, 2, 2)),
    # MindSpore's documented example
    ("affine_grid", lambda: ops.affine_grid(T(np.array([[[0.8, 0.5, 0], [-0.5, 0.8, 0]]],
                                                       np.float32)), (1, 3, 2, 3)),
     np.array([[[[-0.78333336, -0.06666666], [-0.25, -0.4], [0.28333336, -0.73333335]],
                [[-0.28333336, 0.73333335], [0.25, 0.4], [0.78333336, 0.06666666]]]])),
    ("grid_sample_identity", lambda: ops.grid_sample(T(IMG), ops.affine_grid(
        T([[[1.0, 0, 0], [0, 1.0, 0]]]), (1, 1, 3, 4))), IMG),
    ("grid_sample_points", lambda: ops.grid_sample(
        T(IMG), T([[[[-1.0, -1.0], [0.0, 0.0], [1.5, 0.0]]]]), align_corners=True),
     np.array([[[[0.0, 5.5, 0.25 * 7.0]]]])),  # x = 3.75: a quarter of pixel 3, the rest outside
    # MindSpore's documented examples (float16 there)
    ("bounding_box_encode", lambda: ops.bounding_box_encode(
        T(np.array([[2, 2, 2, 3], [2, 2, 2, 3]], np.float32)),
        T(np.array([[1, 2, 1, 4], [1, 2, 1, 4]], np.float32))),
     np.array([[-1.0, 0.25, 0.0, 0.40551758], [-1.0, 0.25, 0.0, 0.40551758]])),
    ("bounding_box_decode", lambda: ops.bounding_box_decode(
        T(np.array([[4, 1, 2, 1], [2, 2, 2, 3]], np.float32)),
        T(np.array([[3, 1, 2, 2], [1, 2, 1, 4]], np.float32)), (768, 1280)),
     np.array([[4.1953125, 0.0, 0.0, 5.1953125], [2.140625, 0.0, 3.859375, 60.59375]])),
    ("iou", lambda: ops.iou(T([[0.0, 0.0, 3.0, 3.0]]), T([[0.0, 0.0, 3.0, 3.0],
                                                          [2.0, 2.0, 5.0, 5.0]])),
     np.array([[1.0], [4.0 / 28.0]])),
    ("iou_iof", lambda: ops.iou(T([[0.0, 0.0, 3.0, 3.0]]), T([[2.0, 2.0, 5.0, 5.0]]), "iof"),
     np.array([[4.0 / 16.0]])),
    ("check_valid", lambda: ops.check_valid(
        T([[20.0, 20.0, 40.0, 40.0], [-1.0, 0.0, 10.0, 10.0], [0.0, 0.0, 80.0, 20.0]]),
        T([64.0, 64.0, 1.0])),
     np.array([True, False, False])),
    ("col2im", lambda: ops.col2im(T(np.ones((1, 1, 4, 9))), T([4, 4]), 2, 1, 0, 1),
     np.array([[1, 2, 2, 1], [2, 4, 4, 2], [2, 4, 4, 2], [1, 2, 2, 1]])[None, None]),
    ("cdist", lambda: ops.cdist(T(PTS), T(PTS[:, :2] + 1.0)),
     np.stack([spatial.cdist(PTS[b], PTS[b, :2] + 1.0) for b in range(2)])),
    ("cdist_p1", lambda: ops.cdist(T(PTS[0]), T(PTS[1]), 1.0),
     spatial.cdist(PTS[0], PTS[1], "minkowski", p=1)),
    ("dist", lambda: ops.dist(T(PTS[0]), T(PTS[1]), 3), np.sum(np.abs(PTS[0] - PTS[1]) ** 3)
     ** (1 / 3)),
    ("pdist", lambda: ops.pdist(T(PTS[0])), spatial.pdist(PTS[0])),
]


@pytest.mark.parametrize("name, call, expected", CASES, ids=[c[0] for c in CASES])
def test_matches_reference(name, call, expected):
    loose = name.startswith("bounding_box")  # documented values are float16
    np.testing.assert_allclose(value(call()), expected, rtol=3e-3 if loose else 1e-6,
                               atol=1e-6)


def test_crop_and_resize_matches_a_bilinear_crop():
    image = np.arange(2 * 4 * 5 * 1, dtype=np.float32).reshape(2, 4, 5, 1)
    out = value(ops.crop_and_resize(T(image), T([[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 0.5, 0.5]]),
                                    T([1, 0]), (4, 5)))
    np.testing.assert_allclose(out[0], image[1])  # the whole image: itself
    ys, xs = np.linspace(0, 1.5, 4), np.linspace(0, 2.0, 5)
    np.testing.assert_allclose(out[1, :, :, 0], ys[:, None] * 5 + xs[None, :])


def test_samplers():
    true = T(np.array([[1], [3]]))
    sampled, true_exp, samp_exp = ops.uniform_candidate_sampler(true, 1, 3, True, 5, seed=1)
    s = value(sampled)
    assert len(set(s.tolist())) == 3 and s.max() < 5
    np.testing.assert_allclose(value(true_exp), 1 - (1 - 0.2) ** 3, rtol=1e-6)
    np.testing.assert_allclose(value(samp_exp), 1 - (1 - 0.2) ** 3, rtol=1e-6)
    sampled, true_exp, _ = ops.log_uniform_candidate_sampler(true, 1, 4, False, 10, seed=1)
    p = np.log((np.array([1, 3]) + 2) / (np.array([1, 3]) + 1)) / np.log(11)
    np.testing.assert_allclose(value(true_exp).ravel(), p * 4, rtol=1e-6)
    assert value(sampled).shape == (4,)
    idx, mask = ops.choice_with_mask(T(np.array([[True, False], [False, True]])), 3)
    assert value(idx).shape == (3, 2) and value(mask).tolist() == [True, True, False]
    assert sorted(map(tuple, value(idx)[:2].tolist())) == [(0, 0), (1, 1)]
    # the draws follow their distributions
    many, _, _ = ops.log_uniform_candidate_sampler(T(np.zeros((1, 1), np.int64)), 1, 20000,
                                                    False, 6)
    freq = np.bincount(value(many), minlength=6) / 20000
    np.testing.assert_allclose(freq, np.log((np.arange(6) + 2) / (np.arange(6) + 1)) / np.log(7),
                               atol=0.015)
    distinct, _, _ = ops.log_uniform_candidate_sampler(true, 1, 5, True, 8)
    assert len(set(value(distinct).tolist())) == 5
    counts = np.zeros(5)
    for _ in range(400):
        counts[value(ops.uniform_candidate_sampler(true, 1, 2, True, 5)[0])] += 1
    np.testing.assert_allclose(counts / 800, 0.2, atol=0.04)
    # and they compile
    compiled = sx.jit(lambda t: ops.uniform_candidate_sampler(t, 1, 3, True, 5)[0])(true)
    assert len(set(value(compiled).tolist())) == 3
    idx, mask = sx.jit(lambda m: ops.choice_with_mask(m, 4))(T(np.eye(3, dtype=bool)))
    assert value(mask).tolist() == [True, True, True, False]
    assert sorted(map(tuple, value(idx)[:3].tolist())) == [(0, 0), (1, 1), (2, 2)]


def test_print_(capsys):
    assert ops.print_("x:", T([1, 2])) is None
    assert capsys.readouterr().out == "x:\n[1 2]\n"


@pytest.mark.parametrize("fn, x", [
    (lambda a: ops.interpolate(a, size=(5, 6), mode="bilinear"), IMG),
    (lambda a: ops.interpolate(a, size=(4, 5), mode="bicubic", align_corners=True), IMG),
    (lambda a: ops.grid_sample(T(IMG), a), np.array([[[[-0.3, 0.2], [0.6, -0.7]]]])),
    (lambda a: ops.cdist(a, a[:, :2] * 2.0), PTS),
    (lambda a: ops.pdist(a, 3.0), PTS[0]),
    (lambda a: ops.pad(a, (1, 1, 1, 0), mode="replicate"), IMG),
    (lambda a: ops.bounding_box_decode(T([[4.0, 1, 8, 6]]), a, (40, 40)), [[0.1, 0.2, 0.3, 0.1]]),
    (lambda a: ops.iou(a, T([[1.0, 1.0, 4.0, 5.0]])), [[0.5, 0.2, 3.1, 3.4]]),
    (lambda a: ops.crop_and_resize(T(np.arange(20.0).reshape(1, 4, 5, 1) ** 1.5), a, T([0]),
                                   (3, 2)), [[0.1, 0.15, 0.8, 0.7]]),
])
def test_gradients(fn, x):
    check_grad(fn, x)


@pytest.mark.parametrize("fn, x", [
    (lambda a: ops.interpolate(a, scale_factor=1.5, mode="bilinear"), IMG),
    (lambda a: ops.pixel_shuffle(ops.pixel_unshuffle(a, 2), 2), IMG[..., :2, :]),
    (lambda a: ops.grid_sample(a, ops.affine_grid(T([[[0.9, 0.1, 0.0], [0.0, 1.0, 0.2]]]),
                                                  (1, 1, 3, 4))), IMG),
    (lambda a: ops.pad(a, (1, 2), mode="circular"), IMG),
    (lambda a: ops.cdist(a, a), PTS),
    (lambda a: ops.crop_and_resize(a, T([[0.2, 0.1, 0.9, 1.2]]), T([0]), (3, 4), "bilinear",
                                   -1.0), IMG.transpose(0, 2, 3, 1)),
    (lambda a: ops.check_valid(a, T([6.0, 8.0, 1.0])),
     [[0.0, 1.0, 7.0, 5.0], [1.0, 1.0, 7.5, 5.0]]),
])
def test_graph_mode(fn, x):
    check_jit(fn, np.asarray(x, np.float32), rtol=1e-5, atol=1e-5)
