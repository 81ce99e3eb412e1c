"""ms.ops element-wise functions against NumPy/SciPy references and MindSpore's documented
examples; gradients against central differences; a few under jit (Graph mode)."""
import math

import numpy as np
import pytest
import scipy.special as scipy_special   # a declared dependency of sporeling-ms (special functions)

import sporeling.expression as sx
from sporeling.ms import ops
from sporeling.ms.common import EagerOnlyError

from math_refs import T, assert_grad_matches, assert_matches, in_graph

X = np.array([-2.5, -1.0, -0.25, 0.0, 0.5, 1.5, 3.0], np.float32)
U = np.array([-0.9, -0.5, 0.0, 0.3, 0.75], np.float32)        # inside (-1, 1)
P = np.array([0.1, 0.5, 1.0, 2.0, 7.5], np.float32)           # positive
A = np.array([[1.0, -2.0, 3.5], [0.0, 4.0, -6.0]], np.float32)
B = np.array([[2.0, 3.0, -1.5], [1.0, -4.0, 5.0]], np.float32)
I = np.array([7, -7, 9, -9, 0], np.int64)
J = np.array([2, 2, -4, -4, 3], np.int64)

CASES = [
    ("abs", lambda: ops.abs(T(X)), np.abs(X)),
    ("absolute", lambda: ops.absolute(T(X)), np.abs(X)),
    ("add", lambda: ops.add(T(A), T(B)), A + B),
    ("add_scalar", lambda: ops.add(T(A), 2), A + 2),
    ("addn", lambda: ops.addn([T(A), T(B), T(A)]), A + B + A),
    ("accumulate_n", lambda: ops.accumulate_n((T(A), T(B))), A + B),
    ("addcdiv", lambda: ops.addcdiv(T(A), T(B), T(B + 10), 0.5), A + 0.5 * B / (B + 10)),
    ("addcmul", lambda: ops.addcmul(T(A), T(B), T(A), 2), A + 2 * B * A),
    ("sub", lambda: ops.sub(T(A), T(B)), A - B),
    ("subtract", lambda: ops.subtract(T(A), T(B), alpha=2), A - 2 * B),
    ("mul", lambda: ops.mul(T(A), T(B)), A * B),
    ("multiply", lambda: ops.multiply(T(A), 3.0), A * 3),
    ("div", lambda: ops.div(T(A), T(B)), A / B),
    ("div_floor", lambda: ops.div(T(A), T(B), rounding_mode="floor"), np.floor(A / B)),
    ("div_trunc", lambda: ops.div(T(A), T(B), rounding_mode="trunc"), np.trunc(A / B)),
    ("div_trunc_int", lambda: ops.div(T(I), T(J), rounding_mode="trunc"),
     np.trunc(I / J).astype(np.int64)),
    ("divide", lambda: ops.divide(T(A), T(B)), A / B),
    ("true_divide", lambda: ops.true_divide(T(A), T(B)), A / B),
    ("floor_div", lambda: ops.floor_div(T(I), T(J)), np.floor_divide(I, J)),
    ("floor_divide", lambda: ops.floor_divide(T(A), T(B)), np.floor_divide(A, B)),
    ("floor_mod", lambda: ops.floor_mod(T(I), T(J)), np.mod(I, J)),
    ("remainder", lambda: ops.remainder(T(A), T(B)), np.mod(A, B)),
    ("fmod", lambda: ops.fmod(T(A), T(B)), np.fmod(A, B)),
    ("fmod_int", lambda: ops.fmod(T(I), T(J)), np.fmod(I, J)),
    ("truncate_div", lambda: ops.truncate_div(T(I), T(J)), np.trunc(I / J).astype(np.int64)),
    ("truncate_mod", lambda: ops.truncate_mod(T(I), T(J)), np.fmod(I, J)),
    ("trunc", lambda: ops.trunc(T(X)), np.trunc(X)),
    ("frac", lambda: ops.frac(T(X)), X - np.trunc(X)),
    ("neg", lambda: ops.neg(T(X)), -X),
    ("negative", lambda: ops.negative(T(X)), -X),
    ("positive", lambda: ops.positive(T(X)), X),
    ("pow", lambda: ops.pow(T(P), T(np.float32(1.5))), P ** 1.5),
    ("pow_scalar", lambda: ops.pow(T(X), 2), X ** 2),
    ("float_power", lambda: ops.float_power(T(P), 2.5), P.astype(np.float64) ** 2.5),
    ("reciprocal", lambda: ops.reciprocal(T(P)), 1 / P),
    ("inv", lambda: ops.inv(T(P)), 1 / P),
    ("sqrt", lambda: ops.sqrt(T(P)), np.sqrt(P)),
    ("rsqrt", lambda: ops.rsqrt(T(P)), 1 / np.sqrt(P)),
    ("square", lambda: ops.square(T(X)), X * X),
    ("sign", lambda: ops.sign(T(X)), np.sign(X)),
    ("sgn", lambda: ops.sgn(T(X)), np.sign(X)),
    ("signbit", lambda: ops.signbit(T(X)), X < 0),
    ("ceil", lambda: ops.ceil(T(X)), np.ceil(X)),
    ("floor", lambda: ops.floor(T(X)), np.floor(X)),
    ("round", lambda: ops.round(T(np.array([0.5, 1.5, 2.5, -0.5, 1.26], np.float32))),
     np.round(np.array([0.5, 1.5, 2.5, -0.5, 1.26], np.float32))),
    ("round_decimals", lambda: ops.round(T(np.array([1.26, -2.345], np.float32)), decimals=1),
     np.array([1.3, -2.3], np.float32)),
    ("clamp", lambda: ops.clamp(T(X), -1.0, 1.0), np.clip(X, -1, 1)),
    ("clamp_tensor", lambda: ops.clamp(T(A), T(B), None), np.maximum(A, B)),
    ("clip", lambda: ops.clip(T(X), max=0.5), np.minimum(X, 0.5)),
    ("copysign", lambda: ops.copysign(T(A), T(B)), np.copysign(A, B)),
    ("heaviside", lambda: ops.heaviside(T(X), T(np.float32(0.5))), np.heaviside(X, 0.5)),
    ("hypot", lambda: ops.hypot(T(A), T(B)), np.hypot(A, B)),
    ("lerp", lambda: ops.lerp(T(A), T(B), 0.25), A + 0.25 * (B - A)),
    ("real", lambda: ops.real(T(X)), X),
    ("imag", lambda: ops.imag(T(X)), np.zeros_like(X)),
    ("angle", lambda: ops.angle(T(X)), np.angle(X)),
    ("xdivy", lambda: ops.xdivy(T(np.array([0.0, 2.0, 3.0], np.float32)),
                                T(np.array([0.0, 4.0, -1.5], np.float32))),
     np.array([0.0, 0.5, -2.0])),
    ("xlogy", lambda: ops.xlogy(T(np.array([0.0, 2.0, 3.0], np.float32)),
                                T(np.array([0.0, 4.0, 0.5], np.float32))),
     np.array([0.0, 2 * np.log(4.0), 3 * np.log(0.5)])),
    ("diff", lambda: ops.diff(T(A)), np.diff(A)),
    ("diff_n2_axis0", lambda: ops.diff(T(np.arange(12.0).reshape(4, 3) ** 2), n=2, axis=0),
     np.diff(np.arange(12.0).reshape(4, 3) ** 2, n=2, axis=0)),
    ("diff_prepend", lambda: ops.diff(T(X), prepend=T(np.zeros(1, np.float32))),
     np.diff(X, prepend=0)),
    ("trapz", lambda: ops.trapz(T(A)), np.trapezoid(A, axis=-1)),
    ("trapz_x", lambda: ops.trapz(T(A), T(np.array([0.0, 0.5, 2.0], np.float32))),
     np.trapezoid(A, x=[0.0, 0.5, 2.0], axis=-1)),
    ("logical_and", lambda: ops.logical_and(T([True, False, True]), T([True, True, False])),
     np.array([True, False, False])),
    ("logical_or", lambda: ops.logical_or(T([True, False, False]), T([False, False, True])),
     np.array([True, False, True])),
    ("logical_xor", lambda: ops.logical_xor(T([True, False, True]), T([True, True, False])),
     np.array([False, True, True])),
    ("logical_not", lambda: ops.logical_not(T([True, False])), np.array([False, True])),
    # MindSpore files these whole-tensor functions under Element-wise Operations too
    ("ravel", lambda: ops.ravel(T(A)), A.ravel()),
    ("t", lambda: ops.t(T(A)), A.T),
    ("rot90", lambda: ops.rot90(T(A)), np.rot90(A)),
    ("rot90_k3_dims", lambda: ops.rot90(T(A), 3, [1, 0]), np.rot90(A, 3, (1, 0))),
    ("roll", lambda: ops.roll(T(A), 1, 1), np.roll(A, 1, 1)),
    ("diag_embed", lambda: ops.diag_embed(T(A)), np.stack([np.diag(r) for r in A])),
    ("diag_embed_offset", lambda: ops.diag_embed(T(A[0]), offset=-1), np.diag(A[0], -1)),
    ("combinations", lambda: ops.combinations(T(A[0]), 2),
     np.array([[A[0][i], A[0][j]] for i, j in [(0, 1), (0, 2), (1, 2)]])),
    ("combinations_replacement", lambda: ops.combinations(T(A[0, :2]), 2, with_replacement=True),
     np.array([[A[0][0], A[0][0]], [A[0][0], A[0][1]], [A[0][1], A[0][1]]])),
    ("tril_indices", lambda: ops.tril_indices(3, 4, 1), np.stack(np.tril_indices(3, 1, 4))),
    ("triu_indices", lambda: ops.triu_indices(4, 3, -1), np.stack(np.triu_indices(4, -1, 3))),
    ("cov", lambda: ops.cov(T(B)), np.cov(B)),
    ("cov_weights", lambda: ops.cov(T(B), correction=0, fweights=T(np.array([1, 2, 1])),
                                    aweights=T(np.array([0.5, 1.0, 2.0], np.float32))),
     np.cov(B, ddof=0, fweights=[1, 2, 1], aweights=[0.5, 1.0, 2.0])),
    ("cosine_similarity", lambda: ops.cosine_similarity(T(A), T(B)),
     (A * B).sum(1) / (np.linalg.norm(A, axis=1) * np.linalg.norm(B, axis=1))),
    ("conj", lambda: ops.conj(T(A)), A),
    ("addmv", lambda: ops.addmv(T(A[:, 0]), T(A), T(B[0]), beta=2, alpha=0.5),
     2 * A[:, 0] + 0.5 * A @ B[0]),
    ("addr", lambda: ops.addr(T(np.ones((2, 3), np.float32)), T(A[:, 0]), T(B[0]), alpha=2),
     1 + 2 * np.outer(A[:, 0], B[0])),
    # transcendental
    ("sin", lambda: ops.sin(T(X)), np.sin(X)),
    ("cos", lambda: ops.cos(T(X)), np.cos(X)),
    ("tan", lambda: ops.tan(T(U)), np.tan(U)),
    ("asin", lambda: ops.asin(T(U)), np.arcsin(U)),
    ("arcsin", lambda: ops.arcsin(T(U)), np.arcsin(U)),
    ("acos", lambda: ops.acos(T(U)), np.arccos(U)),
    ("arccos", lambda: ops.arccos(T(U)), np.arccos(U)),
    ("atan", lambda: ops.atan(T(X)), np.arctan(X)),
    ("arctan", lambda: ops.arctan(T(X)), np.arctan(X)),
    ("atan2", lambda: ops.atan2(T(A), T(B)), np.arctan2(A, B)),
    ("arctan2", lambda: ops.arctan2(T(A), T(B)), np.arctan2(A, B)),
    ("sinh", lambda: ops.sinh(T(X)), np.sinh(X)),
    ("cosh", lambda: ops.cosh(T(X)), np.cosh(X)),
    ("asinh", lambda: ops.asinh(T(X)), np.arcsinh(X)),
    ("arcsinh", lambda: ops.arcsinh(T(X)), np.arcsinh(X)),
    ("acosh", lambda: ops.acosh(T(P + 1)), np.arccosh(P + 1)),
    ("arccosh", lambda: ops.arccosh(T(P + 1)), np.arccosh(P + 1)),
    ("atanh", lambda: ops.atanh(T(U)), np.arctanh(U)),
    ("arctanh", lambda: ops.arctanh(T(U)), np.arctanh(U)),
    ("sinc", lambda: ops.sinc(T(X)), np.sinc(X)),
    ("deg2rad", lambda: ops.deg2rad(T(np.array([180.0, -90.0], np.float32))),
     np.array([math.pi, -math.pi / 2])),
    ("rad2deg", lambda: ops.rad2deg(T(np.array([math.pi, 1.0], np.float32))),
     np.array([180.0, 180 / math.pi])),
    ("exp", lambda: ops.exp(T(X)), np.exp(X)),
    ("exp_int", lambda: ops.exp(T(np.array([0, 1, 2]))), np.exp([0.0, 1.0, 2.0])),
    ("exp2", lambda: ops.exp2(T(X)), np.exp2(X)),
    ("expm1", lambda: ops.expm1(T(X)), np.expm1(X)),
    ("log", lambda: ops.log(T(P)), np.log(P)),
    ("log2", lambda: ops.log2(T(P)), np.log2(P)),
    ("log10", lambda: ops.log10(T(P)), np.log10(P)),
    ("log1p", lambda: ops.log1p(T(P)), np.log1p(P)),
    ("logaddexp", lambda: ops.logaddexp(T(A * 100), T(B * 100)), np.logaddexp(A * 100, B * 100)),
    ("logaddexp2", lambda: ops.logaddexp2(T(A), T(B)), np.logaddexp2(A, B)),
    ("logaddexp_neg_inf", lambda: ops.logaddexp(T(np.array([-np.inf, -np.inf, 1.0], np.float32)),
                                                T(np.array([-np.inf, 2.0, -np.inf], np.float32))),
     np.logaddexp([-np.inf, -np.inf, 1.0], [-np.inf, 2.0, -np.inf])),
    ("logit", lambda: ops.logit(T(np.array([0.1, 0.5, 0.9], np.float32))),
     np.log(np.array([0.1, 0.5, 0.9]) / (1 - np.array([0.1, 0.5, 0.9])))),
    ("logit_eps", lambda: ops.logit(T(np.array([0.0, 1.0], np.float32)), eps=1e-2),
     np.array([np.log(0.01 / 0.99), np.log(0.99 / 0.01)])),
    ("erf", lambda: ops.erf(T(X)), np.array([math.erf(v) for v in X])),
    ("erfc", lambda: ops.erfc(T(X)), np.array([math.erfc(v) for v in X])),
    ("ldexp", lambda: ops.ldexp(T(A), T(np.array([1, 2, 3], np.int32))), A * 2.0 ** np.array([1, 2, 3])),
    ("tanhshrink", lambda: ops.tanhshrink(T(X)), X - np.tanh(X)),
]


@pytest.mark.parametrize("name, call, expected", CASES, ids=[c[0] for c in CASES])
def test_elementwise_matches_numpy(name, call, expected):
    assert_matches(call(), expected, rtol=2e-5, atol=1e-5)


def test_documented_examples():
    # MindSpore r2.3 docs: ops.abs([-1.0, 1.0, 0.0]) -> [1. 1. 0.]
    assert_matches(ops.abs(T([-1.0, 1.0, 0.0])), np.array([1.0, 1.0, 0.0]))
    # ops.add: an int32 scalar tensor and a float32 tensor give float32 [5. 6. 7.]
    out = ops.add(sx.Tensor(1, np.int32), T(np.array([4, 5, 6], np.float32)))
    assert_matches(out, np.array([5.0, 6.0, 7.0]), dtype=np.float32)
    # ops.floor_mod([2, 4, -1], [3, 3, 3]) -> [2 1 2]
    assert_matches(ops.floor_mod(T([2, 4, -1]), T([3, 3, 3])), np.array([2, 1, 2]))
    # ops.sqrt([1.0, 4.0, 9.0]) -> [1. 2. 3.]
    assert_matches(ops.sqrt(T([1.0, 4.0, 9.0])), np.array([1.0, 2.0, 3.0]))


def test_integer_inputs_give_float32_for_math_functions():
    out = ops.sqrt(T(np.array([4, 9], np.int32)))
    assert out.dtype == np.float32
    assert ops.mean(T(np.array([1, 2], np.int64))).dtype == np.float32


SPECIAL = [
    ("bessel_i0", lambda: ops.bessel_i0(T(X)), scipy_special.i0(X)),
    ("bessel_i0e", lambda: ops.bessel_i0e(T(X)), scipy_special.i0e(X)),
    ("bessel_i1", lambda: ops.bessel_i1(T(X)), scipy_special.i1(X)),
    ("bessel_i1e", lambda: ops.bessel_i1e(T(X)), scipy_special.i1e(X)),
    ("bessel_j0", lambda: ops.bessel_j0(T(X)), scipy_special.j0(X)),
    ("bessel_j1", lambda: ops.bessel_j1(T(X)), scipy_special.j1(X)),
    ("bessel_k0", lambda: ops.bessel_k0(T(P)), scipy_special.k0(P)),
    ("bessel_k0e", lambda: ops.bessel_k0e(T(P)), scipy_special.k0e(P)),
    ("bessel_k1", lambda: ops.bessel_k1(T(P)), scipy_special.k1(P)),
    ("bessel_k1e", lambda: ops.bessel_k1e(T(P)), scipy_special.k1e(P)),
    ("bessel_y0", lambda: ops.bessel_y0(T(P)), scipy_special.y0(P)),
    ("bessel_y1", lambda: ops.bessel_y1(T(P)), scipy_special.y1(P)),
    ("i0", lambda: ops.i0(T(X)), np.i0(X)),
    ("digamma", lambda: ops.digamma(T(P)), scipy_special.digamma(P)),
    ("digamma_float64_reflected", lambda: ops.digamma(T(np.array([-2.5, -0.3, 1e-3, 0.7, 30.0]))),
     scipy_special.digamma(np.array([-2.5, -0.3, 1e-3, 0.7, 30.0]))),
    ("polygamma", lambda: ops.polygamma(T(np.array(1)), T(P)), scipy_special.polygamma(1, P)),
    ("mvlgamma", lambda: ops.mvlgamma(T(P + 1), 2),
     np.array([scipy_special.multigammaln(v, 2) for v in P + 1])),
    ("mvlgamma_float64", lambda: ops.mvlgamma(T(np.array([1.6, 3.0, 250.0])), 3),
     np.array([scipy_special.multigammaln(v, 3) for v in [1.6, 3.0, 250.0]])),
    ("igamma", lambda: ops.igamma(T(P), T(P[::-1].copy())), scipy_special.gammainc(P, P[::-1])),
    ("igammac", lambda: ops.igammac(T(P), T(P[::-1].copy())), scipy_special.gammaincc(P, P[::-1])),
    ("erfinv", lambda: ops.erfinv(T(U)), scipy_special.erfinv(U)),
    ("erfinv_float64_tails", lambda: ops.erfinv(T(np.array([-1.0, -0.999999, 1e-9, 0.9999, 1.0, 1.5]))),
     scipy_special.erfinv(np.array([-1.0, -0.999999, 1e-9, 0.9999, 1.0, 1.5]))),
    ("bitwise_and", lambda: ops.bitwise_and(T(I), T(J)), np.bitwise_and(I, J)),
    ("bitwise_or", lambda: ops.bitwise_or(T(I), T(J)), np.bitwise_or(I, J)),
    ("bitwise_xor", lambda: ops.bitwise_xor(T(I), T(J)), np.bitwise_xor(I, J)),
    ("bitwise_left_shift", lambda: ops.bitwise_left_shift(T(I), T(np.array([1, 2, 0, 3, 4]))),
     np.left_shift(I, [1, 2, 0, 3, 4])),
    ("bitwise_right_shift", lambda: ops.bitwise_right_shift(T(I), T(np.array([1, 2, 0, 3, 4]))),
     np.right_shift(I, [1, 2, 0, 3, 4])),
    ("invert", lambda: ops.invert(T(I)), np.invert(I)),
    ("gcd", lambda: ops.gcd(T(I), T(J)), np.gcd(I, J)),
    ("lcm", lambda: ops.lcm(T(I), T(J)), np.lcm(I, J)),
    ("nextafter", lambda: ops.nextafter(T(A), T(B)), np.nextafter(A, B)),
]


@pytest.mark.parametrize("name, call, expected", SPECIAL, ids=[c[0] for c in SPECIAL])
def test_special_functions_match_scipy(name, call, expected):
    assert_matches(call(), expected, rtol=1e-5, atol=1e-6)


def test_mvlgamma_checks_its_domain():
    with pytest.raises(Exception, match="exceed"):
        ops.mvlgamma(T(np.array([0.4], np.float32)), 2)


def test_eager_only_function_refuses_graph_mode():
    with pytest.raises(EagerOnlyError, match="ops.bessel_k0 has no Graph-mode"):
        in_graph(lambda x: ops.bessel_k0(x), T(P))


GRADS = [
    ("erfinv", ops.erfinv, U), ("tan", ops.tan, U), ("digamma", ops.digamma, X[X % 1 != 0]),
    ("mvlgamma", lambda t: ops.mvlgamma(t, 2), P + 1), ("asin", ops.asin, U), ("acos", ops.acos, U), ("atan", ops.atan, X),
    ("sinh", ops.sinh, X), ("cosh", ops.cosh, X), ("asinh", ops.asinh, X),
    ("acosh", ops.acosh, P + 1), ("atanh", ops.atanh, U), ("log2", ops.log2, P),
    ("logaddexp", lambda t: ops.logaddexp(t, T(np.ones(X.shape))), X),
    ("xlogy", lambda t: ops.xlogy(t, T(np.full(X.shape, 2.0))), X),
    ("xdivy", lambda t: ops.xdivy(t, T(np.full(X.shape, 4.0))), X),
    ("sinc", ops.sinc, X[X != 0]), ("hypot", lambda t: ops.hypot(t, T(np.full(X.shape, 2.0))), X),
    ("lerp", lambda t: ops.lerp(t, T(np.full(X.shape, 3.0)), 0.3), X),
    ("diff", lambda t: ops.diff(t, n=2), X), ("trapz", ops.trapz, X),
    ("copysign", lambda t: ops.copysign(t, T(np.where(X > 0, -1.0, 1.0))), X),
    ("cov", lambda t: ops.cov(ops.reshape(t, (2, 3))), A.ravel()),
    ("diag_embed", lambda t: ops.diag_embed(t, offset=1), A),
    ("rot90", lambda t: ops.rot90(t, 1), A),
]


@pytest.mark.parametrize("name, fn, x", GRADS, ids=[g[0] for g in GRADS])
def test_gradients_match_central_differences(name, fn, x):
    assert_grad_matches(fn, x)


def test_graph_mode_matches_pynative():
    def f(x, y):
        return ops.add(ops.mul(ops.tan(ops.atanh(ops.erfinv(x))), ops.hypot(x, y)),
                       ops.fmod(y, 0.7)), ops.xlogy(ops.abs(x), ops.exp2(y)), ops.digamma(y)
    x, y = T(U), T(np.linspace(-1, 1, U.shape[0]).astype(np.float32))
    for eager, compiled in zip(f(x, y), in_graph(f, x, y)):
        assert_matches(compiled, eager.asnumpy(), rtol=1e-5, atol=1e-6)


def test_bad_rounding_mode_names_the_choices():
    with pytest.raises(Exception, match="rounding_mode"):
        ops.div(T(A), T(B), rounding_mode="ceil")
