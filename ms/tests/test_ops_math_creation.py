"""ms.ops tensor creation, random generation, windows and type conversion: values and
dtypes against NumPy and MindSpore's documented examples; random draws by their statistics,
seeds and Graph mode."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import set_seed
from sporeling.ms import ops
from sporeling.ms.common import EagerOnlyError

from math_refs import T, assert_matches, in_graph

X = np.array([[1.5, -2.0], [0.0, 4.0]], np.float32)

CASES = [
    ("zeros", lambda: ops.zeros((2, 3)), np.zeros((2, 3), np.float32)),
    ("zeros_int_dtype", lambda: ops.zeros(4, np.int32), np.zeros(4, np.int32)),
    ("ones", lambda: ops.ones((2, 2)), np.ones((2, 2), np.float32)),
    ("zeros_like", lambda: ops.zeros_like(T(X)), np.zeros_like(X)),
    ("ones_like", lambda: ops.ones_like(T(X), dtype=np.int64), np.ones((2, 2), np.int64)),
    ("full", lambda: ops.full((2, 3), 7), np.full((2, 3), 7, np.int64)),
    ("full_float", lambda: ops.full((2,), 2.5, dtype=np.float32), np.full(2, 2.5, np.float32)),
    ("full_like", lambda: ops.full_like(T(X), 3), np.full((2, 2), 3, np.float32)),
    ("fill", lambda: ops.fill(np.float32, (2, 2), 5.0), np.full((2, 2), 5, np.float32)),
    ("eye", lambda: ops.eye(2, 3), np.eye(2, 3, dtype=np.float32)),
    ("eye_int", lambda: ops.eye(3, dtype=np.int32), np.eye(3, dtype=np.int32)),
    ("arange", lambda: ops.arange(1, 6), np.arange(1, 6, dtype=np.int64)),
    ("arange_float", lambda: ops.arange(0, 3, 1.2), np.array([0.0, 1.2, 2.4], np.float32)),
    ("arange_negative_step", lambda: ops.arange(7, 1, -2), np.array([7, 5, 3], np.int64)),
    ("arange_one_arg", lambda: ops.arange(4), np.arange(4, dtype=np.int64)),
    ("range", lambda: ops.range(0, 10, 4), np.array([0, 4, 8], np.int64)),
    ("linspace", lambda: ops.linspace(1, 10, 5), np.linspace(1, 10, 5).astype(np.float32)),
    ("logspace", lambda: ops.logspace(0, 2, 3, base=2), np.array([1.0, 2.0, 4.0], np.float32)),
    ("one_hot", lambda: ops.one_hot(T(np.array([0, 1, 2])), 3, T(np.float32(1)), T(np.float32(0))),
     np.eye(3, dtype=np.float32)),
    ("one_hot_axis0", lambda: ops.one_hot(T(np.array([2, 0])), 3, 5.0, -1.0, axis=0),
     np.where(np.eye(3)[[2, 0]].T > 0, 5.0, -1.0).astype(np.float32)),
    ("bartlett_window", lambda: ops.bartlett_window(5, periodic=False), np.bartlett(5).astype(np.float32)),
    ("blackman_window", lambda: ops.blackman_window(6), np.blackman(7)[:-1].astype(np.float32)),
    ("hann_window", lambda: ops.hann_window(8), np.hanning(9)[:-1].astype(np.float32)),
    ("hamming_window", lambda: ops.hamming_window(5, periodic=False), np.hamming(5).astype(np.float32)),
    ("kaiser_window", lambda: ops.kaiser_window(6, periodic=False, beta=8.0), np.kaiser(6, 8.0).astype(np.float32)),
    ("is_tensor", lambda: ops.is_tensor(T(X)), True),
    ("is_tensor_no", lambda: ops.is_tensor(X), False),
    ("is_nonzero", lambda: ops.is_nonzero(T(np.array([[0.5]], np.float32))), True),
    ("scalar_cast", lambda: ops.scalar_cast(255.9, np.int32), 255),
    ("scalar_to_tensor", lambda: ops.scalar_to_tensor(1, np.float32), np.float32(1.0)),
    ("tuple_to_array", lambda: ops.tuple_to_array((1, 2, 3)), np.array([1, 2, 3], np.int64)),
    ("tuple_to_array_float", lambda: ops.tuple_to_array((1.0, 2.5)), np.array([1.0, 2.5], np.float32)),
    ("depend", lambda: ops.depend(T(X), T(np.ones(1))), X),
    ("stop_gradient", lambda: ops.stop_gradient(T(X)), X),
]


@pytest.mark.parametrize("name, call, expected", CASES, ids=[c[0] for c in CASES])
def test_creation_matches_numpy(name, call, expected):
    out = call()
    expected_dtype = getattr(expected, "dtype", None)
    assert_matches(out, expected, rtol=1e-6, atol=1e-6)
    if expected_dtype is not None and isinstance(out, sx.Tensor):
        assert out.dtype == expected_dtype, (out.dtype, expected_dtype)


def test_is_nonzero_needs_one_element():
    with pytest.raises(Exception, match="one element"):
        ops.is_nonzero(T(X))


def test_stop_gradient_blocks_the_gradient():
    g = sx.grad(lambda x: ops.sum(ops.add(ops.mul(x, x), ops.stop_gradient(ops.mul(x, x)))))(T(X))
    assert_matches(g, 2 * X)


# --- random ---------------------------------------------------------------------------

def _stats(t):
    a = t.asnumpy().astype(np.float64)
    return a.mean(), a.var()


DRAWS = [  # name, draw, (mean, var) of the distribution, dtype
    ("uniform", lambda: ops.uniform((20000,), T(np.float32(2.0)), T(np.float32(4.0))), (3.0, 4 / 12),
     np.float32),
    ("standard_normal", lambda: ops.standard_normal((20000,)), (0.0, 1.0), np.float32),
    ("normal", lambda: ops.normal((20000,), T(np.float32(2.0)), T(np.float32(3.0))), (2.0, 9.0),
     np.float32),
    ("standard_laplace", lambda: ops.standard_laplace((20000,)), (0.0, 2.0), np.float32),
    ("laplace", lambda: ops.laplace((20000,), T(np.float32(1.0)), T(np.float32(0.5))), (1.0, 0.5),
     np.float32),
    ("rand", lambda: ops.rand(100, 200), (0.5, 1 / 12), np.float32),
    ("rand_like", lambda: ops.rand_like(T(np.zeros((20000,), np.float64))), (0.5, 1 / 12), np.float64),
    ("randn", lambda: ops.randn((20000,)), (0.0, 1.0), np.float32),
    ("randn_like", lambda: ops.randn_like(T(np.zeros((20000,), np.float32))), (0.0, 1.0), np.float32),
    ("randint", lambda: ops.randint(0, 10, (20000,)), (4.5, 99 / 12), np.int64),
    ("randint_like", lambda: ops.randint_like(T(np.zeros(20000, np.int32)), 0, 10), (4.5, 99 / 12),
     np.int32),
    ("bernoulli", lambda: ops.bernoulli(T(np.zeros(20000, np.float32)), 0.3), (0.3, 0.21), np.float32),
    ("random_gamma", lambda: ops.random_gamma((20000,), T(np.array([2.0], np.float32))), (2.0, 2.0),
     np.float32),
    ("gamma", lambda: ops.gamma((20000,), T(np.float32(3.0)), T(np.float32(2.0))), (1.5, 0.75),
     np.float32),
    ("random_gamma_small_alpha", lambda: ops.random_gamma((20000,), T(np.array([0.3], np.float32))),
     (0.3, 0.3), np.float32),
    ("random_gamma_large_alpha", lambda: ops.random_gamma((20000,), T(np.array([40.0], np.float32))),
     (40.0, 40.0), np.float32),
    ("random_poisson", lambda: ops.random_poisson((20000,), T(np.array([4.0], np.float32))),
     (4.0, 4.0), np.float32),
]


@pytest.mark.parametrize("name, draw, moments, dtype", DRAWS, ids=[d[0] for d in DRAWS])
def test_random_draws_have_the_distribution_moments(name, draw, moments, dtype):
    set_seed(3)
    out = draw()
    assert out.dtype == np.dtype(dtype)
    mean, var = _stats(out)
    assert abs(mean - moments[0]) < 0.05 * max(1.0, abs(moments[0])) + 0.03
    assert abs(var - moments[1]) < 0.08 * moments[1] + 0.01


def test_random_shapes_and_ranges():
    set_seed(0)
    assert tuple(ops.random_gamma((3, 2), T(np.array([1.0, 2.0], np.float32))).shape) == (3, 2, 2)
    assert tuple(ops.random_poisson((4,), T(np.ones((2, 3), np.float32))).shape) == (4, 2, 3)
    ints = ops.uniform((500,), 2, 5, dtype=np.int32).asnumpy()
    assert ints.dtype == np.int32 and ints.min() >= 2 and ints.max() < 5
    assert tuple(ops.normal((2, 1), T(np.zeros(3, np.float32)), 1.0).shape) == (2, 3)
    perm = ops.randperm(10).asnumpy()
    assert sorted(perm.tolist()) == list(range(10)) and perm.dtype == np.int64


def test_seeded_draws_repeat_and_global_seed_reproduces():
    assert_matches(ops.rand(5, seed=11), ops.rand(5, seed=11).asnumpy())
    set_seed(5)
    first = ops.randn(4).asnumpy()
    set_seed(5)
    assert_matches(ops.randn(4), first)


def test_categorical_and_multinomial_follow_the_weights():
    set_seed(1)
    probs = np.array([0.1, 0.2, 0.7], np.float32)
    cat = ops.random_categorical(T(np.log(probs)[None]), 6000).asnumpy()
    assert cat.shape == (1, 6000)
    np.testing.assert_allclose(np.bincount(cat[0], minlength=3) / 6000, probs, atol=0.03)
    draws = ops.multinomial(T(probs * 10), 6000).asnumpy()
    np.testing.assert_allclose(np.bincount(draws, minlength=3) / 6000, probs, atol=0.03)
    rows = ops.multinomial(T(np.array([[1.0, 1, 1, 1], [0, 0, 5, 5]], np.float32)), 2,
                           replacement=False).asnumpy()
    assert all(len(set(r)) == 2 for r in rows) and set(rows[1]) == {2, 3}
    both = ops.multinomial_with_replacement(T(np.array([[0.0, 1.0]], np.float32)), 3, 0, 4, True)
    assert both.asnumpy().tolist() == [[1, 1, 1, 1]]


def test_random_in_graph_mode_draws_anew_each_run():
    f = sx.jit(lambda x: ops.add(x, ops.laplace((3,), 0.0, 1.0)))
    x = T(np.zeros(3, np.float32))
    a, b = f(x).asnumpy(), f(x).asnumpy()
    assert not np.array_equal(a, b)


def test_gamma_follows_its_distribution_and_compiles():
    import scipy.stats as scipy_stats   # declared test dependency
    set_seed(4)
    draws = ops.random_gamma((4000,), T(np.array([0.7, 2.5], np.float32))).asnumpy()
    for j, a in enumerate([0.7, 2.5]):
        assert scipy_stats.kstest(draws[:, j], scipy_stats.gamma(a).cdf).pvalue > 1e-3
    f = sx.jit(lambda a: ops.gamma((3,), a, 2.0))
    first, second = f(T(np.float32(2.0))).asnumpy(), f(T(np.float32(2.0))).asnumpy()
    assert first.shape == (3,) and (first > 0).all() and not np.array_equal(first, second)
    assert_matches(ops.random_gamma((4,), T(np.ones(1, np.float32)), seed=7),
                   ops.random_gamma((4,), T(np.ones(1, np.float32)), seed=7).asnumpy())


def test_numpy_samplers_refuse_graph_mode():
    with pytest.raises(EagerOnlyError, match="ops.random_poisson"):
        in_graph(lambda r: ops.random_poisson((2,), r), T(np.ones(1, np.float32)))


def test_creation_inside_graph_mode():
    def f(x):
        return ops.add(x, ops.ones_like(x)), ops.mul(x, ops.eye(2)), ops.add(ops.arange(2), 1)
    x = T(X)
    for eager, compiled in zip(f(x), in_graph(f, x)):
        assert_matches(compiled, eager.asnumpy())


def test_facade_dtype_objects_are_accepted():
    import sporeling.ms as ms
    assert ops.ones((2,), ms.float16).dtype == np.float16
    assert ops.sum(ops.ones((2,)), dtype=ms.float64).dtype == np.float64
    assert ops.arange(3, dtype=ms.int32).dtype == np.int32
    assert ops.eye(2, dtype=ms.bool_).dtype == np.bool_
    assert ops.rand(2, dtype=ms.float64).dtype == np.float64
    assert ops.fill(ms.int8, (2,), 3).dtype == np.int8
    assert ops.scalar_cast(2.7, ms.int32) == 2
