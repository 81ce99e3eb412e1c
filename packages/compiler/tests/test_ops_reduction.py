"""Reductions against NumPy references, their dtypes, gradients and errors."""
import doctest
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad, vjp
from sporeling.compiler.ops import reduction
from sporeling.compiler.testing import check_grads
from sporeling.core import ShapeError, SporelingError

rng = np.random.default_rng(0)
AXES = [None, 0, -1, (0, 2), ()]

# name: (op, NumPy reference, dtype the result has for an int32 input)
REDUCTIONS = {
    "sum": (ops.sum, np.sum, np.int64), "mean": (ops.mean, np.mean, np.float32),
    "prod": (ops.prod, np.prod, np.int64), "max": (ops.max, np.max, np.int32),
    "min": (ops.min, np.min, np.int32),
    "logsumexp": (ops.logsumexp,
                  lambda x, axis, keepdims: np.log(np.sum(np.exp(x), axis, keepdims=keepdims)),
                  np.float32),
    "var": (ops.var, np.var, np.float32), "std": (ops.std, np.std, np.float32),
    "norm": (ops.norm, lambda x, axis, keepdims: np.sqrt(np.sum(x * x, axis,
                                                               keepdims=keepdims)), np.float32),
    "norm1": (lambda x, axis, keepdims: ops.norm(x, 1, axis, keepdims),
              lambda x, axis, keepdims: np.sum(np.abs(x), axis, keepdims=keepdims), np.float32),
    "norm_inf": (lambda x, axis, keepdims: ops.norm(x, math.inf, axis, keepdims),
                 lambda x, axis, keepdims: np.max(np.abs(x), axis, keepdims=keepdims),
                 np.float32),
    "all": (ops.all, np.all, np.bool_), "any": (ops.any, np.any, np.bool_),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_reductions_match_numpy(name, axis, keepdims, dtype):
    op, ref, int_result = REDUCTIONS[name]
    x = rng.integers(-2, 3, (2, 3, 4)).astype(dtype) if dtype == np.int32 else \
        rng.uniform(-2, 2, (2, 3, 4)).astype(dtype)
    out = op(x, axis=axis, keepdims=keepdims)
    want = ref(x.astype(np.float64), axis=axis, keepdims=keepdims)
    expected_dtype = int_result if dtype == np.int32 or int_result == np.bool_ else dtype
    assert out.dtype == np.dtype(expected_dtype) and out.shape == want.shape
    np.testing.assert_allclose(out.astype(np.float64), want,
                               rtol=3e-6 if dtype != np.float64 else 1e-12, atol=1e-6)


@settings(max_examples=20, deadline=None)
@given(x=hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=4, max_side=4),
                    elements=st.floats(-10, 10)),
       data=st.data(), name=st.sampled_from(["sum", "mean", "max", "min", "var", "prod"]))
def test_reductions_over_random_axes(x, data, name):
    axes = data.draw(st.lists(st.integers(0, x.ndim - 1), unique=True, max_size=x.ndim))
    keepdims = data.draw(st.booleans())
    op, ref, _ = REDUCTIONS[name]
    np.testing.assert_allclose(op(x, axis=tuple(axes), keepdims=keepdims),
                               ref(x, axis=tuple(axes), keepdims=keepdims), rtol=1e-10,
                               atol=1e-10)


def test_small_integer_and_bool_sums_accumulate_in_int64():
    assert ops.sum(np.full(300, 100, np.int8)).tolist() == 30000
    assert ops.sum(np.array([True, True, False])).dtype == np.int64
    assert ops.sum(np.array([200, 100], np.uint8)).tolist() == 300
    assert ops.prod(np.array([2, 3], np.int32)).dtype == np.int64
    assert ops.mean(np.array([1, 2], np.int64)).tolist() == 1.5


def test_var_and_std_ddof_follow_mindspore_defaults():
    x = np.array([[1.0, 2, 3, 4], [-1, 1, 4, -10]], np.float32)
    np.testing.assert_allclose(ops.var(x, 1, 2, True), [[2.5], [54.5]])  # MindSpore's doc
    np.testing.assert_allclose(ops.var(x), np.var(x), rtol=1e-6)  # biased by default
    np.testing.assert_allclose(ops.var(x, ddof=True), np.var(x, ddof=1), rtol=1e-6)
    np.testing.assert_allclose(ops.std(x, axis=0, correction=1), np.std(x, 0, ddof=1))
    with pytest.raises(SporelingError, match="ddof"):
        ops.var(x, ddof=0.5)


def test_logsumexp_is_stable():
    x = np.array([[1e4, 1e4], [-1e4, -1e4], [-np.inf, -np.inf], [1e4, -1e4]], np.float32)
    with np.errstate(over="raise", invalid="raise"):
        out = ops.logsumexp(x, axis=1)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [1e4 + math.log(2), -1e4 + math.log(2), -np.inf, 1e4])
    g = grad(lambda v: ops.sum(ops.logsumexp(v, axis=1)))(x[[0, 1, 3]].astype(np.float64))
    np.testing.assert_allclose(g, [[0.5, 0.5], [0.5, 0.5], [1.0, 0.0]])


@pytest.mark.parametrize("op", [ops.max, ops.min])
def test_extrema_split_the_gradient_among_ties(op):
    x = np.array([[3.0, 1.0, 3.0, 3.0], [-1.0, -1.0, 2.0, 0.5]])
    if op is ops.min:
        x = -x
    g = grad(lambda v: ops.sum(op(v, axis=1)))(x)
    np.testing.assert_allclose(g, [[1 / 3, 0, 1 / 3, 1 / 3], [0, 0, 1, 0]])
    assert grad(lambda v: op(v))(np.array([2.0, 2.0])).tolist() == [0.5, 0.5]


def test_prod_gradient_with_zeros():
    x = np.array([[2.0, 0.0, 3.0], [2.0, 0.0, 0.0], [1.0, 2.0, 4.0]])
    g = grad(lambda v: ops.sum(ops.prod(v, axis=1)))(x)
    np.testing.assert_allclose(g, [[0, 6, 0], [0, 0, 0], [8, 4, 2]])
    check_grads(lambda v: ops.prod(v, axis=1), [x], order=1)
    check_grads(lambda v: ops.prod(v), [np.array([1.5, 0.0, -2.0])], order=1)


def test_norm_gradients():
    x = np.array([[3.0, -4.0], [1.0, -1.0]])
    np.testing.assert_allclose(grad(lambda v: ops.sum(ops.norm(v, axis=1)))(x),
                               [[0.6, -0.8], [2 ** -0.5, -(2 ** -0.5)]])
    np.testing.assert_allclose(grad(lambda v: ops.sum(ops.norm(v, 1, axis=1)))(x),
                               [[1, -1], [1, -1]])
    np.testing.assert_allclose(grad(lambda v: ops.sum(ops.norm(v, math.inf, axis=1)))(x),
                               [[0, -1], [0.5, -0.5]])
    assert ops.norm(x, None) == ops.norm(x, "fro") == pytest.approx(math.sqrt(27))
    with pytest.raises(SporelingError, match="norm"):
        ops.norm(x, 3)


@pytest.mark.parametrize("op, ref", [(ops.argmax, np.argmax), (ops.argmin, np.argmin)])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_argmax_argmin(op, ref, axis, keepdims):
    x = rng.integers(0, 4, (3, 4)).astype(np.float32)  # ties: the first index wins
    out = op(x, axis=axis, keepdims=keepdims)
    want = ref(x, axis=axis, keepdims=keepdims)
    assert out.dtype == np.int64 and out.shape == want.shape and np.array_equal(out, want)


def test_argmax_has_no_gradient_and_takes_one_axis():
    assert not reduction.argmax_p.differentiable and not reduction.all_p.differentiable
    out, fn = vjp(lambda v: ops.mul(v, ops.cast(ops.argmax(v, 0), "float64")), np.array([1., 3.]))
    assert fn(np.ones(2))[0].tolist() == [1.0, 1.0]
    with pytest.raises(ShapeError, match="argmax.*one axis"):
        ops.argmax(np.ones((2, 3)), axis=(0, 1))


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
def test_cumsum(axis, dtype):
    x = rng.integers(0, 3, (3, 4)).astype(dtype)
    out = ops.cumsum(x, axis)
    assert out.dtype == (np.float32 if dtype == np.float32 else np.int64)
    assert np.array_equal(out, np.cumsum(x, axis))
    rev = ops.cumsum(x, axis, reverse=True)
    assert np.array_equal(rev, np.flip(np.cumsum(np.flip(x, axis), axis), axis))


def test_cumsum_gradient_is_a_reversed_cumsum():
    ct = np.array([1.0, 2.0, 3.0])
    assert vjp(lambda v: ops.cumsum(v, 0), np.zeros(3))[1](ct)[0].tolist() == [6, 5, 3]
    assert ops.cumsum(np.array(2.0), 0) == 2.0


@pytest.mark.parametrize("op", [ops.sum, ops.mean, ops.prod, ops.max, ops.min, ops.logsumexp,
                                ops.var, ops.std, ops.norm, ops.all, ops.any, ops.argmax,
                                ops.argmin, ops.cumsum])
def test_bad_axis_is_a_shape_error_naming_the_op(op):
    name = {"cumsum": "cumsum"}.get(op.__name__, op.__name__)
    with pytest.raises(ShapeError, match=rf"^{name}: axis out of range.*\[-2, 2\).*got 2"):
        op(np.ones((2, 3)), axis=2)


def test_repeated_axes_are_rejected():
    with pytest.raises(ShapeError, match="mean: repeated axis"):
        ops.mean(np.ones((2, 3)), axis=(0, -2))


def test_docstring_examples():
    failed, attempted = doctest.testmod(reduction, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0
