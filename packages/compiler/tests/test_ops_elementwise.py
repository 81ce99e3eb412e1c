"""Elementwise, comparison, logic and activation ops against NumPy references."""
import doctest
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad, vjp
from sporeling.compiler.ops import activation, comparison, elementwise
from sporeling.core import DTypeError, ShapeError, SporelingError

rng = np.random.default_rng(0)
FLOATS = [np.float32, np.float64]
SHAPES = [(3, 4), (), (2, 1, 3)]
TOL = {np.dtype(np.float32): 2e-6, np.dtype(np.float64): 1e-13}


def sample(shape, dtype, low=-3.0, high=3.0):
    return rng.uniform(low, high, shape).astype(dtype)


def close(got, want, dtype):
    got = np.asarray(got)
    assert got.dtype == np.dtype(dtype) and got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=TOL[np.dtype(dtype)],
                               atol=TOL[np.dtype(dtype)])


def _erf(x):
    return np.vectorize(math.erf)(np.asarray(x, np.float64))


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


# name: (op, reference in float64, input range)
UNARY = {
    "neg": (ops.neg, np.negative, (-3, 3)), "exp": (ops.exp, np.exp, (-3, 3)),
    "log": (ops.log, np.log, (0.1, 3)), "abs": (ops.abs, np.abs, (-3, 3)),
    "sign": (ops.sign, np.sign, (-3, 3)), "expm1": (ops.expm1, np.expm1, (-3, 3)),
    "log1p": (ops.log1p, np.log1p, (-0.9, 3)), "sqrt": (ops.sqrt, np.sqrt, (0, 3)),
    "rsqrt": (ops.rsqrt, lambda x: 1 / np.sqrt(x), (0.1, 3)),
    "square": (ops.square, np.square, (-3, 3)),
    "reciprocal": (ops.reciprocal, np.reciprocal, (0.1, 3)),
    "sin": (ops.sin, np.sin, (-3, 3)), "cos": (ops.cos, np.cos, (-3, 3)),
    "floor": (ops.floor, np.floor, (-3, 3)), "ceil": (ops.ceil, np.ceil, (-3, 3)),
    "round": (ops.round, np.rint, (-3, 3)), "tanh": (ops.tanh, np.tanh, (-3, 3)),
    "relu": (ops.relu, lambda x: np.maximum(x, 0), (-3, 3)),
    "sigmoid": (ops.sigmoid, lambda x: 1 / (1 + np.exp(-x)), (-6, 6)),
    "silu": (ops.silu, lambda x: x / (1 + np.exp(-x)), (-6, 6)),
    "softplus": (ops.softplus, lambda x: np.log1p(np.exp(x)), (-6, 6)),
    "leaky_relu": (ops.leaky_relu, lambda x: np.where(x > 0, x, 0.01 * x), (-3, 3)),
    "gelu": (ops.gelu, lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))), (-4, 4)),
    "gelu_tanh": (lambda x: ops.gelu(x, "tanh"), _gelu_tanh, (-4, 4)),
    "erf": (ops.erf, _erf, (-4, 4)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SHAPES)
def test_unary_ops_match_numpy(name, dtype, shape):
    op, ref, (low, high) = UNARY[name]
    x = sample(shape, dtype, low, high)
    close(op(x), ref(x.astype(np.float64)), dtype)


@pytest.mark.parametrize("name", ["exp", "log", "expm1", "log1p", "sqrt", "rsqrt",
                                  "reciprocal", "sin", "cos", "tanh", "sigmoid", "silu",
                                  "softplus", "leaky_relu", "gelu", "erf"])
def test_float_ops_of_integers_are_float32(name):
    op, ref, _ = UNARY[name]
    x = np.array([1, 2, 3], np.int32)
    close(op(x), ref(x.astype(np.float64)), np.float32)


@pytest.mark.parametrize("name", ["neg", "abs", "sign", "square", "relu"])
def test_integer_ops_keep_the_integer_dtype(name):
    op, ref, _ = UNARY[name]
    x = np.array([-3, 0, 2], np.int32)
    out = op(x)
    assert out.dtype == np.int32 and out.tolist() == ref(x).tolist()


@pytest.mark.parametrize("op", [ops.floor, ops.ceil, ops.round])
def test_rounding_integers_is_the_identity(op):
    x = np.array([-3, 0, 2], np.int64)
    assert op(x) is x


def test_round_is_half_to_even_like_numpy():
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5], np.float32)
    assert ops.round(x).tolist() == [-2, -2, -0, 0, 2, 2, 4]


def test_erf_is_accurate_everywhere():
    x = np.concatenate([np.linspace(-7, 7, 20001), [1e-300, -1e-12, 0.999999, 1.0, 6.0]])
    got, want = ops.erf(x), _erf(x)
    np.testing.assert_allclose(got, want, rtol=4e-15, atol=0)
    special = ops.erf(np.array([np.inf, -np.inf, np.nan, 0.0, -0.0]))
    assert special[:2].tolist() == [1.0, -1.0] and np.isnan(special[2])
    assert np.signbit(special[4]) and not np.signbit(special[3])


# ---- stability at +-1e4 ----------------------------------------------------------------

BIG = np.array([-1e4, -100.0, 0.0, 100.0, 1e4])


@pytest.mark.parametrize("name", ["sigmoid", "softplus", "silu", "gelu", "gelu_tanh", "tanh",
                                  "erf", "exp", "expm1", "leaky_relu"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_activations_are_finite_and_right_at_large_inputs(name, dtype):
    op, ref, _ = UNARY[name]
    x = BIG.astype(dtype)
    if name in ("exp", "expm1"):
        x = x[:3]  # exp(1e4) is inf by definition
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        out = op(x)
    assert out.dtype == dtype and not np.isnan(out).any()
    want = {"sigmoid": [0, 0, 0.5, 1, 1], "softplus": [0, 0, math.log(2), 100, 1e4],
            "silu": [0, 0, 0, 100, 1e4], "gelu": [0, 0, 0, 100, 1e4],
            "gelu_tanh": [0, 0, 0, 100, 1e4], "tanh": [-1, -1, 0, 1, 1],
            "erf": [-1, -1, 0, 1, 1], "exp": [0, 0, 1], "expm1": [-1, -1, 0],
            "leaky_relu": [-100, -1, 0, 100, 1e4]}[name]
    for got, expected in zip(out, want):
        assert got == pytest.approx(expected, rel=1e-6, abs=1e-30)


@pytest.mark.parametrize("name", ["sigmoid", "softplus", "silu", "gelu", "gelu_tanh", "tanh"])
def test_activation_gradients_are_finite_at_large_inputs(name):
    op = UNARY[name][0]
    g = grad(lambda x: ops.sum(op(x)))(BIG)
    assert np.isfinite(g).all()
    np.testing.assert_allclose(g[[0, -1]], [0.0, 0.0 if name in ("sigmoid", "tanh") else 1.0],
                               atol=1e-12)


def test_log1p_and_expm1_keep_precision_for_tiny_inputs():
    x = np.array([1e-10, -1e-10, 1e4])
    np.testing.assert_allclose(ops.log1p(x), np.log1p(x), rtol=1e-15)
    np.testing.assert_allclose(ops.expm1(x[:2]), np.expm1(x[:2]), rtol=1e-15)


def test_softplus_beta_and_threshold_follow_pytorch():
    x = np.array([-2.0, 0.3, 0.6, 3.0])
    got = ops.softplus(x, beta=2.0, threshold=1.0)
    want = np.where(2 * x > 1.0, x, np.log1p(np.exp(2 * x)) / 2)
    np.testing.assert_allclose(got, want, rtol=1e-14)
    assert np.allclose(grad(lambda v: ops.sum(ops.softplus(v, 2.0, 1.0)))(x),
                       np.where(2 * x > 1.0, 1.0, 1 / (1 + np.exp(-2 * x))))


def test_leaky_relu_alpha():
    x = np.array([-2.0, 3.0], np.float32)
    assert ops.leaky_relu(x, alpha=0.2).tolist() == pytest.approx([-0.4, 3.0])
    assert grad(lambda v: ops.sum(ops.leaky_relu(v, 0.2)))(x).tolist() == \
        pytest.approx([0.2, 1.0])


def test_gelu_rejects_unknown_approximation():
    with pytest.raises(SporelingError, match="gelu"):
        ops.gelu(np.ones(2), approximate="fast")


# ---- binary ------------------------------------------------------------------------------

BINARY = {
    "add": (ops.add, np.add), "sub": (ops.sub, np.subtract), "mul": (ops.mul, np.multiply),
    "div": (ops.div, np.true_divide), "maximum": (ops.maximum, np.maximum),
    "minimum": (ops.minimum, np.minimum), "floordiv": (ops.floordiv, np.floor_divide),
    "mod": (ops.mod, np.remainder), "pow": (ops.pow, np.power),
    "atan2": (ops.atan2, np.arctan2),
}


@settings(max_examples=15, deadline=None)
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3),
       name=st.sampled_from(sorted(BINARY)), dtype=st.sampled_from(FLOATS))
def test_binary_ops_broadcast_like_numpy(shapes, name, dtype):
    op, ref = BINARY[name]
    x = sample(shapes.input_shapes[0], dtype, 0.5, 3.0)
    y = sample(shapes.input_shapes[1], dtype, 0.5, 3.0)
    if name != "pow":  # pow: positive bases
        x = x * np.where(rng.random(x.shape) > 0.5, 1, -1).astype(dtype)
    close(op(x, y), ref(x.astype(np.float64), y.astype(np.float64)), dtype)


@pytest.mark.parametrize("name", ["add", "sub", "mul", "maximum", "minimum", "floordiv",
                                  "mod", "pow"])
def test_integer_binary_ops_stay_integer(name):
    op, ref = BINARY[name]
    x, y = np.array([-7, 0, 5, 7], np.int32), np.array([2, 3, -3, 2], np.int32)
    out = op(x, y if name != "pow" else np.abs(y))
    assert out.dtype == np.int32
    assert out.tolist() == ref(x, y if name != "pow" else np.abs(y)).tolist()


def test_mod_and_floordiv_follow_pythons_sign_convention():
    x, y = np.array([-7.0, 7.0, -7.0, 7.0]), np.array([2.0, -2.0, -2.0, 2.0])
    assert ops.mod(x, y).tolist() == [a % b for a, b in zip(x, y)]
    assert ops.floordiv(x, y).tolist() == [a // b for a, b in zip(x, y)]
    assert ops.div(np.array([1, 2]), 4).dtype == np.float32


def test_pow_with_scalar_exponents():
    x = np.array([-2.0, 0.5, 3.0], np.float32)
    for e in (2, 3, 0, -1, 1):
        out = ops.pow(x, e)
        assert out.dtype == np.float32
        np.testing.assert_allclose(out, x.astype(np.float64) ** e, rtol=1e-6)
    assert ops.pow(np.array([2, 3]), 2).tolist() == [4, 9]
    assert ops.pow(np.array([4, 9], np.int32), 0.5).dtype == np.float32
    assert ops.pow(2.0, np.array([1.0, 3.0])).tolist() == [2.0, 8.0]
    with pytest.raises(DTypeError, match="pow"):
        ops.pow(np.array([2, 3]), -1)
    assert np.allclose(grad(lambda v: ops.sum(ops.pow(v, 3)))(np.array([-2.0, 1.0])), [12, 3])


def test_pow_exponent_gradient_is_zero_at_a_zero_base():
    x, y = np.array([0.0, 2.0]), np.array([2.0, 3.0])
    gx, gy = vjp(ops.pow, x, y)[1](np.ones(2))
    assert gx.tolist() == [0.0, 12.0]
    np.testing.assert_allclose(gy, [0.0, 8 * math.log(2)])


def test_maximum_and_minimum_split_ties():
    x, y = np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 1.0])
    for op, want_x in ((ops.maximum, [0, 0.5, 1]), (ops.minimum, [1, 0.5, 0])):
        gx, gy = vjp(op, x, y)[1](np.ones(3))
        assert gx.tolist() == want_x and (gx + gy).tolist() == [1, 1, 1]


@pytest.mark.parametrize("op", [ops.floor, ops.ceil, ops.round, ops.sign])
def test_piecewise_constant_ops_have_zero_gradient(op):
    x = np.array([-1.3, 0.4, 2.7])
    assert grad(lambda v: ops.sum(op(v)))(x).tolist() == [0, 0, 0]
    gx, gy = vjp(ops.floordiv, x, np.array(2.0))[1](np.ones(3))
    assert gx.tolist() == [0, 0, 0] and gy == 0


# ---- clip --------------------------------------------------------------------------------

def test_clip_with_scalars_tensors_and_one_side():
    x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
    lo, hi = np.array([-1.0, -2.0, 0.0, -0.5], np.float32), np.array([[1.0], [2.0], [0.5]])
    close(ops.clip(x, -1.0, 1.0), np.clip(x, -1, 1), np.float32)
    close(ops.clip(x, lo, 2.0), np.clip(x, lo, 2.0), np.float32)
    close(ops.clip(x, max=hi.astype(np.float32)), np.minimum(x, hi), np.float32)
    close(ops.clip(x, min=lo), np.maximum(x, lo), np.float32)
    assert ops.clip(x, lo.astype(np.float64), hi).dtype == np.float64
    assert ops.clip(np.array([-5, 0, 5]), -2, 2).tolist() == [-2, 0, 2]
    assert ops.clip(np.array([0.0, 5.0]), 3.0, 1.0).tolist() == [1.0, 1.0]  # min > max: max


def test_clip_gradient_goes_to_x_inside_and_to_the_active_bound_outside():
    x, lo, hi = np.array([-2.0, -1.0, 0.0, 1.0, 2.0]), np.array(-1.0), np.array(1.0)
    gx, glo, ghi = vjp(ops.clip, x, lo, hi)[1](np.ones(5))
    assert gx.tolist() == [0, 1, 1, 1, 0] and glo == 1 and ghi == 1
    gx, glo, ghi = vjp(ops.clip, np.array([0.0, 5.0]), np.array(3.0), np.array(1.0))[1](
        np.ones(2))
    assert gx.tolist() == [0, 0] and glo == 0 and ghi == 2


def test_clip_with_number_bounds():
    x = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    assert grad(lambda v: ops.sum(ops.clip(v, -1.0, 1.0)))(x).tolist() == [0, 1, 1, 1, 0]
    assert grad(lambda v: ops.sum(ops.clip(v, max=0)))(x).tolist() == [1, 1, 1, 0, 0]
    assert ops.clip(np.array([1, 5], np.int32), 0, 3).dtype == np.int32
    assert ops.clip(np.array([1, 5], np.int32), 0.5, 3).tolist() == [1.0, 3.0]
    assert ops.clip(np.array([1, 5], np.int32), 0.5).dtype == np.float32
    assert ops.clip(x, 3.0, 1.0).tolist() == [1.0] * 5


def test_clip_needs_a_bound_and_compatible_shapes():
    with pytest.raises(SporelingError, match="clip"):
        ops.clip(np.ones(3))
    with pytest.raises(ShapeError, match=r"clip.*\(3,\).*\(2,\)"):
        ops.clip(np.ones(3), np.zeros(2))


# ---- comparisons, logic, where -----------------------------------------------------------

COMPARISONS = {
    "equal": (ops.equal, np.equal), "not_equal": (ops.not_equal, np.not_equal),
    "greater": (ops.greater, np.greater), "greater_equal": (ops.greater_equal,
                                                            np.greater_equal),
    "less": (ops.less, np.less), "less_equal": (ops.less_equal, np.less_equal),
    "logical_and": (ops.logical_and, np.logical_and),
    "logical_or": (ops.logical_or, np.logical_or),
    "logical_xor": (ops.logical_xor, np.logical_xor),
}


@settings(max_examples=15, deadline=None)
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3),
       name=st.sampled_from(sorted(COMPARISONS)),
       dtypes=st.sampled_from([(np.float32, np.float32), (np.int32, np.float64),
                               (np.bool_, np.bool_), (np.int64, np.int8)]))
def test_comparisons_and_logic_match_numpy(shapes, name, dtypes):
    op, ref = COMPARISONS[name]
    x = rng.integers(-1, 2, shapes.input_shapes[0]).astype(dtypes[0])
    y = rng.integers(-1, 2, shapes.input_shapes[1]).astype(dtypes[1])
    out = op(x, y)
    assert out.dtype == np.bool_ and np.array_equal(out, ref(x, y))


def test_comparisons_take_python_scalars():
    x = np.array([1.0, 2.5, 4.0], np.float32)
    assert ops.less(x, 2.5).tolist() == [True, False, False]
    assert ops.greater_equal(x, 2.5).tolist() == [False, True, True]
    assert ops.not_equal(np.array([1, 2]), 2).tolist() == [True, False]


def test_unary_predicates():
    x = np.array([1.0, np.nan, np.inf, -np.inf, 0.0], np.float32)
    assert ops.isnan(x).tolist() == [False, True, False, False, False]
    assert ops.isinf(x).tolist() == [False, False, True, True, False]
    assert ops.isfinite(x).tolist() == [True, False, False, False, True]
    assert ops.logical_not(x).tolist() == [False, False, False, False, True]
    assert ops.isnan(np.array([1, 2])).tolist() == [False, False]


def test_where_broadcasts_and_differentiates_both_branches():
    cond = np.array([[True], [False]])
    x, y = np.arange(3.0), np.full((2, 1), -1.0)
    out = ops.where(cond, x, y)
    assert out.tolist() == [[0, 1, 2], [-1, -1, -1]]
    gx, gy = vjp(lambda a, b: ops.where(cond, a, b), x, y)[1](np.ones((2, 3)))
    assert gx.tolist() == [1, 1, 1] and gy.tolist() == [[0], [3]]
    assert ops.where(np.array([2, 0]), 1.5, np.array([0.0], np.float32)).tolist() == [1.5, 0]
    assert ops.where(np.array([True]), np.array([1], np.int32), 2.5).dtype == np.float32


@pytest.mark.parametrize("op", [ops.add, ops.pow, ops.atan2, ops.less, ops.logical_and,
                                ops.mod, lambda x, y: ops.where(True, x, y)])
def test_incompatible_shapes_name_the_op_and_shapes(op):
    with pytest.raises(ShapeError, match=r"\(3, 4\).*\(3,\)") as info:
        op(np.ones((3, 4)), np.ones(3))
    assert info.value.op in ("add", "pow", "atan2", "less", "logical_and", "mod", "where")


def test_docstring_examples():
    for module in (elementwise, comparison, activation):
        failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert attempted > 0 and failed == 0, module.__name__
