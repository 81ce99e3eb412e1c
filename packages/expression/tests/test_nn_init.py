"""Initialisers: statistics, fans, names, reproducibility, layer defaults."""
import math

import numpy as np
import pytest

from sporeling.core import SporelingError, set_seed
from sporeling.expression import nn
from sporeling.expression.nn import init


def draw(initialiser, shape):
    return init.initializer(initialiser, shape).asnumpy().astype(np.float64)


def test_fans_like_pytorch():
    assert init.compute_fans((10, 20)) == (20, 10)
    assert init.compute_fans((8, 4, 3, 3)) == (36, 72)
    with pytest.raises(SporelingError, match="2 dimensions"):
        init.compute_fans((5,))


@pytest.mark.parametrize("initialiser, shape, bound", [
    (init.Uniform(0.3), (200, 300), 0.3),
    (init.XavierUniform(2.0), (200, 300), 2.0 * math.sqrt(6 / 500)),
    (init.HeUniform(math.sqrt(5)), (100, 400), 1 / math.sqrt(400)),
    (init.HeUniform(mode="fan_out", nonlinearity="relu"), (100, 50, 2, 2),
     math.sqrt(2) * math.sqrt(3 / 400)),
])
def test_uniform_bounds_and_spread(initialiser, shape, bound):
    v = draw(initialiser, shape)
    assert v.min() >= -bound and v.max() <= bound
    assert abs(v.std() - bound / math.sqrt(3)) < 0.02 * bound


@pytest.mark.parametrize("initialiser, shape, std", [
    (init.Normal(0.5, 1.0), (300, 300), 0.5),
    (init.XavierNormal(), (200, 300), math.sqrt(2 / 500)),
    (init.HeNormal(nonlinearity="relu"), (100, 400), math.sqrt(2 / 400)),
])
def test_normal_spread(initialiser, shape, std):
    v = draw(initialiser, shape)
    assert abs(v.std() - std) < 0.02 * std
    mean = getattr(initialiser, "mean", 0.0)
    assert abs(v.mean() - mean) < 0.02 * max(std, 0.1)


def test_truncated_normal_stays_in_bounds():
    v = draw(init.TruncatedNormal(1.0, a=-0.5, b=0.5), (1000,))
    assert v.min() >= -0.5 and v.max() <= 0.5


def test_names_numbers_arrays_and_dtypes():
    assert (draw("zeros", (2, 3)) == 0).all() and (draw("ONES", 4) == 1).all()
    assert (draw(2.5, (2,)) == 2.5).all()
    assert init.initializer("zeros", (2,), "int32").dtype == np.int32
    np.testing.assert_array_equal(draw(np.arange(3.0), (3,)), np.arange(3.0))
    with pytest.raises(SporelingError, match="shape"):
        init.initializer(np.zeros(2), (3,))
    with pytest.raises(SporelingError, match="unknown initializer"):
        init.initializer("glorot", (3,))


def test_seeded_draws_repeat():
    set_seed(3)
    a = draw("he_uniform", (4, 5))
    set_seed(3)
    b = draw(init.HeUniform(), (4, 5))
    assert (a == b).all()
    assert not (draw("he_uniform", (4, 5)) == a).all()


def test_initializer_fills_arrays_in_place_and_custom_subclasses():
    class Twos(init.Initializer):
        def _initialize(self, arr):
            arr.fill(2.0)

    arr = np.empty((2, 2))
    assert init.Constant(7)(arr) is arr and (arr == 7).all()
    assert (draw(Twos(), (3,)) == 2).all()


def test_dense_and_conv_defaults_follow_mindspore():
    set_seed(0)
    dense = nn.Dense(400, 300)
    w, b = dense.weight.asnumpy(), dense.bias.asnumpy()
    assert np.abs(w).max() <= 1 / 20 and np.abs(w).max() > 0.9 / 20
    assert np.abs(b).max() <= 1 / 20
    conv = nn.Conv2d(16, 8, 3)
    assert conv.bias is None  # MindSpore's has_bias=False
    assert np.abs(conv.weight.asnumpy()).max() <= 1 / math.sqrt(16 * 9)
