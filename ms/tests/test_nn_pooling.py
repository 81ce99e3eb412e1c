"""``ms.nn`` pooling and padding cells against NumPy loops."""
import numpy as np
import pytest

from sporeling.ms import nn

import _np_windows as ref
from _reference import check_grad, graph_equals_pynative, np_of, t

RNG = np.random.default_rng(1)
X1 = RNG.normal(size=(2, 3, 9)).astype(np.float32)
X2 = RNG.normal(size=(2, 3, 7, 8)).astype(np.float32)
X3 = RNG.normal(size=(1, 2, 5, 6, 7)).astype(np.float32)

CASES = [
    ("MaxPool1d", lambda: nn.MaxPool1d(3, 2), X1, lambda x: ref.pool(x, (3,), (2,), np.max)),
    ("MaxPool2d", lambda: nn.MaxPool2d(2, 2), X2,
     lambda x: ref.pool(x, (2, 2), (2, 2), np.max)),
    ("MaxPool2d-pad", lambda: nn.MaxPool2d(3, 2, pad_mode="pad", padding=1), X2,
     lambda x: ref.pool(x, (3, 3), (2, 2), np.max, ((1, 1), (1, 1)))),
    ("MaxPool3d", lambda: nn.MaxPool3d(2, (1, 2, 3)), X3,
     lambda x: ref.pool(x, (2, 2, 2), (1, 2, 3), np.max)),
    ("AvgPool1d", lambda: nn.AvgPool1d(4, 3), X1, lambda x: ref.pool(x, (4,), (3,), np.mean)),
    ("AvgPool2d", lambda: nn.AvgPool2d(2, 2), X2,
     lambda x: ref.pool(x, (2, 2), (2, 2), np.mean)),
    ("AvgPool3d", lambda: nn.AvgPool3d(2, 2), X3,
     lambda x: ref.pool(x, (2, 2, 2), (2, 2, 2), np.mean)),
    ("AvgPool3d-pad", lambda: nn.AvgPool3d(3, 2, pad_mode="pad", padding=1), X3,
     lambda x: ref.pool(x, (3, 3, 3), (2, 2, 2), np.sum, ((1, 1),) * 3, 0.0) / 27),
    ("AdaptiveAvgPool1d", lambda: nn.AdaptiveAvgPool1d(4), X1,
     lambda x: ref.adaptive(x, (4,), np.mean)),
    ("AdaptiveAvgPool2d", lambda: nn.AdaptiveAvgPool2d((3, 5)), X2,
     lambda x: ref.adaptive(x, (3, 5), np.mean)),
    ("AdaptiveAvgPool3d", lambda: nn.AdaptiveAvgPool3d((2, 4, 3)), X3,
     lambda x: ref.adaptive(x, (2, 4, 3), np.mean)),
    ("AdaptiveMaxPool1d", lambda: nn.AdaptiveMaxPool1d(4), X1,
     lambda x: ref.adaptive(x, (4,), np.max)),
    ("AdaptiveMaxPool2d", lambda: nn.AdaptiveMaxPool2d((3, 5)), X2,
     lambda x: ref.adaptive(x, (3, 5), np.max)),
    ("AdaptiveMaxPool3d", lambda: nn.AdaptiveMaxPool3d((2, 4, 3)), X3,
     lambda x: ref.adaptive(x, (2, 4, 3), np.max)),
    ("LPPool1d", lambda: nn.LPPool1d(2, 3, 2), np.abs(X1),
     lambda x: ref.pool(x ** 2, (3,), (2,), np.sum) ** 0.5),
    ("LPPool2d", lambda: nn.LPPool2d(3, 2), np.abs(X2),
     lambda x: ref.pool(x ** 3, (2, 2), (2, 2), np.sum) ** (1 / 3)),
]


@pytest.mark.parametrize("name, make, x, reference", CASES, ids=[c[0] for c in CASES])
def test_pooling_matches_reference(name, make, x, reference):
    np.testing.assert_allclose(np_of(make()(t(x))), reference(x), rtol=1e-5, atol=1e-6)


def test_max_pool_indices_and_unpool_roundtrip():
    x = np.array([[[1.0, 5.0, 2.0, 8.0, 3.0, 0.0]]], np.float32)
    out, idx = nn.MaxPool1d(2, 2, return_indices=True)(t(x))
    np.testing.assert_array_equal(np_of(out), [[[5, 8, 3]]])
    np.testing.assert_array_equal(np_of(idx), [[[1, 3, 4]]])
    back = nn.MaxUnpool1d(2, 2)(out, idx)
    np.testing.assert_array_equal(np_of(back), [[[0, 5, 0, 8, 3, 0]]])
    out2, idx2 = nn.MaxPool2d(2, 2, return_indices=True)(t(X2))
    flat = X2.reshape(2, 3, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, np_of(idx2).reshape(2, 3, -1), 2),
                                  np_of(out2).reshape(2, 3, -1))
    un = np_of(nn.MaxUnpool2d(2, 2)(out2, idx2, output_size=(2, 3, 7, 8)))
    assert un.shape == (2, 3, 7, 8) and np.count_nonzero(un) == np_of(out2).size
    out3, idx3 = nn.MaxPool3d(2, 2, return_indices=True)(t(X3))
    assert np_of(nn.MaxUnpool3d(2, 2)(out3 * 0, idx3 * 0)).shape == (1, 2, 4, 6, 6)
    un3 = np_of(nn.MaxUnpool3d(2, 2)(out3, idx3, output_size=X3.shape))
    assert un3.shape == X3.shape
    np.testing.assert_array_equal(np.sort(un3[un3 != 0]), np.sort(np_of(out3).ravel()))


def test_adaptive_max_pool_indices():
    out, idx = nn.AdaptiveMaxPool2d((2, 2), return_indices=True)(t(X2))
    flat = X2.reshape(2, 3, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, np_of(idx).reshape(2, 3, -1), 2),
                                  np_of(out).reshape(2, 3, -1))


def test_fractional_max_pool3d_with_fixed_samples():
    samples = np.full((1, 2, 3), 0.5, np.float32)
    cell = nn.FractionalMaxPool3d(2, output_size=(3, 3, 3), return_indices=True,
                                  _random_samples=samples)
    out, idx = cell(t(X3))
    assert np_of(out).shape == (1, 2, 3, 3, 3)
    flat = X3.reshape(1, 2, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, np_of(idx).reshape(1, 2, -1), 2),
                                  np_of(out).reshape(1, 2, -1))
    # every output is the max of a 2x2x2 window of the input
    assert np.all(np_of(out) <= X3.max()) and np_of(out).min() >= X3.min()
    ratio = nn.FractionalMaxPool3d(2, output_ratio=0.5)
    assert np_of(ratio(t(X3))).shape == (1, 2, 2, 3, 3)


A = np.arange(6.).reshape(1, 2, 3)
B = np.arange(12.).reshape(1, 1, 2, 2, 3)
PADS = [  # (name, cell, input, np.pad width, np.pad mode, constant)
    ("Pad", lambda: nn.Pad(((0, 0), (1, 2), (2, 1))), A, ((0, 0), (1, 2), (2, 1)),
     "constant", 0),
    ("Pad-reflect", lambda: nn.Pad(((0, 0), (0, 0), (2, 1)), "REFLECT"), A,
     ((0, 0), (0, 0), (2, 1)), "reflect", None),
    ("Pad-symmetric", lambda: nn.Pad(((0, 0), (1, 1), (2, 1)), "SYMMETRIC"), A,
     ((0, 0), (1, 1), (2, 1)), "symmetric", None),
    ("ConstantPad1d", lambda: nn.ConstantPad1d((1, 2), 3.5), A, ((0, 0), (0, 0), (1, 2)),
     "constant", 3.5),
    ("ConstantPad2d", lambda: nn.ConstantPad2d((1, 0, 2, 1), -1.0), A,
     ((0, 0), (2, 1), (1, 0)), "constant", -1.0),
    ("ConstantPad3d", lambda: nn.ConstantPad3d(1, 0.5), B, ((0, 0), (0, 0), (1, 1), (1, 1),
                                                           (1, 1)), "constant", 0.5),
    ("ZeroPad2d", lambda: nn.ZeroPad2d(1), A, ((0, 0), (1, 1), (1, 1)), "constant", 0),
    ("ReflectionPad1d", lambda: nn.ReflectionPad1d((2, 1)), A, ((0, 0), (0, 0), (2, 1)),
     "reflect", None),
    ("ReflectionPad2d", lambda: nn.ReflectionPad2d(1), A, ((0, 0), (1, 1), (1, 1)),
     "reflect", None),
    ("ReflectionPad3d", lambda: nn.ReflectionPad3d((1, 1, 1, 0, 0, 0)), B,
     ((0, 0), (0, 0), (0, 0), (1, 0), (1, 1)), "reflect", None),
    ("ReplicationPad1d", lambda: nn.ReplicationPad1d((2, 1)), A, ((0, 0), (0, 0), (2, 1)),
     "edge", None),
    ("ReplicationPad2d", lambda: nn.ReplicationPad2d((1, 2, 0, 1)), A,
     ((0, 0), (0, 1), (1, 2)), "edge", None),
    ("ReplicationPad3d", lambda: nn.ReplicationPad3d(1), B,
     ((0, 0), (0, 0), (1, 1), (1, 1), (1, 1)), "edge", None),
]


@pytest.mark.parametrize("name, make, x, width, mode, value", PADS, ids=[c[0] for c in PADS])
def test_padding_matches_numpy(name, make, x, width, mode, value):
    kwargs = {"constant_values": value} if mode == "constant" else {}
    np.testing.assert_array_equal(np_of(make()(t(x))), np.pad(x, width, mode=mode, **kwargs))


def test_reflection_pad_too_wide_is_an_error():
    with pytest.raises(ValueError, match="smaller than the axis"):
        nn.ReflectionPad1d(3)(t(np.zeros((1, 1, 3))))


def test_pooling_gradients_and_graph_mode():
    x = RNG.normal(size=(1, 2, 6, 5))
    check_grad(nn.AvgPool3d(2, 1), RNG.normal(size=(1, 1, 3, 3, 3)))
    check_grad(nn.MaxPool1d(2, 2), np.array([[[1.0, 3.0, 2.0, 0.5]]]))
    check_grad(nn.ReplicationPad2d(1), x)
    graph_equals_pynative(lambda x: nn.AdaptiveMaxPool2d(2)(nn.ReflectionPad2d(1)(x)), t(x))
    graph_equals_pynative(lambda x: nn.LPPool2d(2, 2)(x), t(np.abs(x)))


def test_ceil_mode_and_padding_counts():
    x = np.array([[[1.0, 5.0, 2.0, 8.0, 3.0]]], np.float32)
    np.testing.assert_array_equal(np_of(nn.MaxPool1d(2, 2, ceil_mode=True)(t(x))),
                                  [[[5, 8, 3]]])
    np.testing.assert_allclose(np_of(nn.AvgPool1d(2, 2, ceil_mode=True)(t(x))),
                               [[[3.0, 5.0, 3.0]]])
    # count_include_pad=False: the padding does not count in the divisor
    avg = nn.AvgPool1d(3, 2, pad_mode="pad", padding=1, count_include_pad=False)
    np.testing.assert_allclose(np_of(avg(t(x))), [[[3.0, 5.0, 5.5]]], rtol=1e-6)
    avg_in = nn.AvgPool1d(3, 2, pad_mode="pad", padding=1)
    np.testing.assert_allclose(np_of(avg_in(t(x))), [[[2.0, 5.0, 11 / 3]]], rtol=1e-6)
    # None keeps an axis in the adaptive pools; (C, L) input without a batch axis
    out = np_of(nn.AdaptiveAvgPool3d((None, 2, 1))(t(X3)))
    np.testing.assert_allclose(out, ref.adaptive(X3, (5, 2, 1), np.mean), rtol=1e-5)
    np.testing.assert_array_equal(np_of(nn.MaxPool1d(2, 2)(t(x[0]))), [[5, 8]])
