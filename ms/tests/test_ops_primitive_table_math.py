"""The table-driven element-wise, reduction, linalg, window, creation and random primitive
classes (ops/primitives/math_table.py): each made with its defaults and called on small
inputs, against NumPy/SciPy (or, for draws, their shape and range)."""
import numpy as np
import pytest
from scipy import linalg as sla
from scipy import special

import sporeling.ms as ms
from sporeling.ms import ops

from array_nn_checks import T, value

RNG = np.random.default_rng(7)
X = np.array([[0.5, -0.25, 0.75], [-0.9, 0.1, 0.3]])
Y = np.array([[0.2, 0.4, -0.6], [0.7, -0.3, 0.9]])
POS = np.abs(X) + 0.5
I = np.array([[3, 5, 12], [7, 2, 9]], np.int32)
J = np.array([[1, 3, 4], [2, 6, 5]], np.int32)
SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
B = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]])


def _shift(a, b):
    return np.left_shift(a, b)


def _lu(a):
    lu, piv = sla.lu_factor(a)
    return lu, (piv + 1).astype(np.int32)


def _matmul3(parts):
    p, lower, upper = value(parts)
    return p @ lower @ upper


def _matmul2(parts):
    q, r = value(parts)
    return q @ r


def _qr_signs(a):
    """LAPACK's Q against NumPy's (same factorisation up to column signs)."""
    q_lapack = sla.lapack.dorgqr(*sla.lapack.dgeqrf(a)[:2])[0]
    return np.sign(np.sum(q_lapack * np.linalg.qr(a)[0], 0))


def _fill_diag(a, v):
    out = a.copy()
    np.fill_diagonal(out, v)
    return out


CASES = [
    ("ACos", lambda: ops.ACos()(T(X)), np.arccos(X)),
    ("Acosh", lambda: ops.Acosh()(T(POS + 1)), np.arccosh(POS + 1)),
    ("Asin", lambda: ops.Asin()(T(X)), np.arcsin(X)),
    ("Asinh", lambda: ops.Asinh()(T(X)), np.arcsinh(X)),
    ("Atan", lambda: ops.Atan()(T(X)), np.arctan(X)),
    ("Atanh", lambda: ops.Atanh()(T(X)), np.arctanh(X)),
    ("Cosh", lambda: ops.Cosh()(T(X)), np.cosh(X)),
    ("Sinh", lambda: ops.Sinh()(T(X)), np.sinh(X)),
    ("Tan", lambda: ops.Tan()(T(X)), np.tan(X)),
    ("Ceil", lambda: ops.Ceil()(T(X)), np.ceil(X)),
    ("Erf", lambda: ops.Erf()(T(X)), special.erf(X)),
    ("Erfc", lambda: ops.Erfc()(T(X)), special.erfc(X)),
    ("Erfinv", lambda: ops.Erfinv()(T(X)), special.erfinv(X)),
    ("Expm1", lambda: ops.Expm1()(T(X)), np.expm1(X)),
    ("Log1p", lambda: ops.Log1p()(T(POS)), np.log1p(POS)),
    ("Rsqrt", lambda: ops.Rsqrt()(T(POS)), 1 / np.sqrt(POS)),
    ("Sign", lambda: ops.Sign()(T(X)), np.sign(X)),
    ("Sinc", lambda: ops.Sinc()(T(X)), np.sinc(X)),
    ("Trunc", lambda: ops.Trunc()(T(X * 3)), np.trunc(X * 3)),
    ("Rint", lambda: ops.Rint()(T(np.array([0.5, 1.5, -2.5, 2.7]))),
     np.rint([0.5, 1.5, -2.5, 2.7])),
    ("Round", lambda: ops.Round()(T(X * 3)), np.round(X * 3)),
    ("Inv", lambda: ops.Inv()(T(POS)), 1 / POS),
    ("Invert", lambda: ops.Invert()(T(I)), np.invert(I)),
    ("Digamma", lambda: ops.Digamma()(T(POS)), special.digamma(POS)),
    ("Lgamma", lambda: ops.Lgamma()(T(X)), special.gammaln(X)),
    ("Mvlgamma", lambda: ops.Mvlgamma(p=2)(T(POS + 1)),
     np.vectorize(lambda v: special.multigammaln(v, 2))(POS + 1)),
    ("Polygamma", lambda: ops.Polygamma()(T(np.int64(1)), T(POS)), special.polygamma(1, POS)),
    ("Igamma", lambda: ops.Igamma()(T(POS), T(POS + 1)), special.gammainc(POS, POS + 1)),
    ("Igammac", lambda: ops.Igammac()(T(POS), T(POS + 1)), special.gammaincc(POS, POS + 1)),
    ("Betainc", lambda: ops.Betainc()(T(POS), T(POS + 1), T(np.full_like(X, 0.3))),
     special.betainc(POS, POS + 1, 0.3)),
    ("Zeta", lambda: ops.Zeta()(T(POS + 1.5), T(POS)), special.zeta(POS + 1.5, POS)),
    ("Angle", lambda: ops.Angle()(T(X)), np.angle(X)),
    ("Real", lambda: ops.Real()(T(X)), X), ("Imag", lambda: ops.Imag()(T(X)), 0 * X),
    ("Conj", lambda: ops.Conj()(T(X)), X),
    ("IsFinite", lambda: ops.IsFinite()(T(np.array([1.0, np.inf, np.nan]))), [1, 0, 0]),
    ("IsInf", lambda: ops.IsInf()(T(np.array([1.0, -np.inf, np.nan]))), [0, 1, 0]),
    ("IsNan", lambda: ops.IsNan()(T(np.array([1.0, np.inf, np.nan]))), [0, 0, 1]),
    ("LogicalNot", lambda: ops.LogicalNot()(T(X > 0)), ~(X > 0)),
    ("Logit", lambda: ops.Logit()(T(POS / 2)), special.logit(POS / 2)),
    ("Logit_eps", lambda: ops.Logit(eps=0.3)(T(POS / 2)),
        special.logit(np.clip(POS / 2, 0.3, 0.7))),
    ("PopulationCount", lambda: ops.PopulationCount()(T(I.astype(np.int16))),
     [[2, 2, 2], [3, 1, 2]]),
    ("Identity", lambda: ops.Identity()(T(X)), X),
    ("Eps", lambda: ops.Eps()(T(X.astype(np.float32))),
     np.full(X.shape, np.finfo(np.float32).eps)),  # 2.10's example: 1.1920929e-07
    ("CheckNumerics", lambda: ops.CheckNumerics()(T(X)), X),
    ("NanToNum", lambda: ops.NanToNum()(T(np.array([np.nan, np.inf, -np.inf, 1.0]))),
     np.nan_to_num(np.array([np.nan, np.inf, -np.inf, 1.0]))),
    *((f"Bessel{n}", (lambda n=n: getattr(ops, f"Bessel{n}")()(T(POS))),
       getattr(special, {"I0": "i0", "I0e": "i0e", "I1": "i1", "I1e": "i1e", "J0": "j0",
                         "J1": "j1", "K0": "k0", "K0e": "k0e", "K1": "k1", "K1e": "k1e",
                         "Y0": "y0", "Y1": "y1"}[n])(POS))
      for n in ("I0", "I0e", "I1", "I1e", "J0", "J1", "K0", "K0e", "K1", "K1e", "Y0", "Y1")),
    ("Atan2", lambda: ops.Atan2()(T(X), T(Y)), np.arctan2(X, Y)),
    ("BitwiseAnd", lambda: ops.BitwiseAnd()(T(I), T(J)), I & J),
    ("BitwiseOr", lambda: ops.BitwiseOr()(T(I), T(J)), I | J),
    ("BitwiseXor", lambda: ops.BitwiseXor()(T(I), T(J)), I ^ J),
    ("LeftShift", lambda: ops.LeftShift()(T(I), T(J)), np.left_shift(I, J)),
    ("RightShift", lambda: ops.RightShift()(T(I), T(J)), np.right_shift(I, J)),
    ("DivNoNan", lambda: ops.DivNoNan()(T(X), T(np.where(Y > 0, Y, 0))),
     np.where(Y > 0, X / np.where(Y > 0, Y, 1), 0)),
    ("MulNoNan", lambda: ops.MulNoNan()(T(np.array([np.inf, 2.0])), T(np.array([0.0, 3.0]))),
     [0.0, 6.0]),
    ("FloorMod", lambda: ops.FloorMod()(T(X), T(Y)), np.mod(X, Y)),
    ("Mod", lambda: ops.Mod()(T(X), T(Y)), np.fmod(X, Y)),
    ("Fmax", lambda: ops.Fmax()(T(X), T(Y)), np.fmax(X, Y)),
    ("Fmin", lambda: ops.Fmin()(T(X), T(Y)), np.fmin(X, Y)),
    ("Gcd", lambda: ops.Gcd()(T(I), T(J)), np.gcd(I, J)),
    ("Lcm", lambda: ops.Lcm()(T(I), T(J)), np.lcm(I, J)),
    ("Heaviside", lambda: ops.Heaviside()(T(X), T(Y)), np.heaviside(X, Y)),
    ("Hypot", lambda: ops.Hypot()(T(X), T(Y)), np.hypot(X, Y)),
    ("NextAfter", lambda: ops.NextAfter()(T(X), T(Y)), np.nextafter(X, Y)),
    ("SquaredDifference", lambda: ops.SquaredDifference()(T(X), T(Y)), (X - Y) ** 2),
    ("TruncateDiv", lambda: ops.TruncateDiv()(T(I), T(-J)), np.trunc(I / -J)),
    ("TruncateMod", lambda: ops.TruncateMod()(T(X), T(Y)), np.fmod(X, Y)),
    ("Xdivy", lambda: ops.Xdivy()(T(X), T(Y)), X / Y),
    ("Xlogy", lambda: ops.Xlogy()(T(X), T(POS)), X * np.log(POS)),
    ("Lerp", lambda: ops.Lerp()(T(X), T(Y), 0.25), X + 0.25 * (Y - X)),
    ("LerpScalar", lambda: ops.LerpScalar()(T(X), T(Y), 0.5), (X + Y) / 2),
    ("TensorAdd", lambda: ops.TensorAdd()(T(X), T(Y)), X + Y),
    ("LogicalAnd", lambda: ops.LogicalAnd()(T(X > 0), T(Y > 0)), (X > 0) & (Y > 0)),
    ("LogicalOr", lambda: ops.LogicalOr()(T(X > 0), T(Y > 0)), (X > 0) | (Y > 0)),
    ("LogicalXor", lambda: ops.LogicalXor()(T(X > 0), T(Y > 0)), (X > 0) ^ (Y > 0)),
    ("Addcdiv", lambda: ops.Addcdiv()(T(X), T(Y), T(POS), T(np.array(2.0))), X + 2 * Y / POS),
    ("Addcmul", lambda: ops.Addcmul()(T(X), T(Y), T(POS), T(np.array(2.0))), X + 2 * Y * POS),
    ("ApproximateEqual", lambda: ops.ApproximateEqual(0.3)(T(X), T(Y)), np.abs(X - Y) < 0.3),
    ("IsClose", lambda: ops.IsClose()(T(X), T(X + 1e-9)), np.ones(X.shape, bool)),
    ("EqualCount", lambda: ops.EqualCount()(T(I), T(np.where(I > 5, I, 0))), [3]),
    ("SquareSumAll", lambda: ops.SquareSumAll()(T(X), T(Y)), ((X ** 2).sum(), (Y ** 2).sum())),
    ("ReduceAll", lambda: ops.ReduceAll()(T(X > -1), 1), (X > -1).all(1)),
    ("ReduceAny", lambda: ops.ReduceAny(keep_dims=True)(T(X > 0.6)), [[True]]),
    ("ReduceStd", lambda: ops.ReduceStd(axis=1)(T(X)), (X.std(1, ddof=1), X.mean(1))),
    ("EuclideanNorm", lambda: ops.EuclideanNorm()(T(X), (1,)), np.linalg.norm(X, axis=1)),
    ("LpNorm", lambda: ops.LpNorm(axis=0, p=3)(T(X)), (np.abs(X) ** 3).sum(0) ** (1 / 3)),
    ("CountNonZero", lambda: ops.CountNonZero()(T(np.array([[0, 1, 2], [0, 0, 3]]))), 3),
    ("ArgMinWithValue", lambda: ops.ArgMinWithValue(axis=1)(T(X)), (X.argmin(1), X.min(1))),
    ("Median", lambda: ops.Median(axis=1)(T(X))[0], np.sort(X, 1)[:, 1]),
    ("Quantile", lambda: ops.Quantile(dim=1)(T(X), T(np.array(0.25))), np.quantile(X, 0.25, 1)),
    ("NuclearNorm", lambda: ops.NuclearNorm()(T(X)), np.linalg.norm(X, "nuc")),
    ("Trace", lambda: ops.Trace()(T(SPD)), np.trace(SPD)),
    ("Cummax", lambda: ops.Cummax(axis=1)(T(X))[0], np.maximum.accumulate(X, 1)),
    ("Cummin", lambda: ops.Cummin(axis=0)(T(X))[0], np.minimum.accumulate(X, 0)),
    ("CumProd", lambda: ops.CumProd()(T(X), 1), np.cumprod(X, 1)),
    ("CumProd_exclusive_reverse", lambda: ops.CumProd(True, True)(T(X), 1),
     np.flip(np.cumprod(np.flip(np.concatenate([X[:, 1:], np.ones((2, 1))], 1), 1), 1), 1)),
    ("CumulativeLogsumexp", lambda: ops.CumulativeLogsumexp()(T(X), 1),
     np.logaddexp.accumulate(X, 1)),
    ("Histogram", lambda: ops.Histogram(bins=4, min=-1.0, max=1.0)(T(X.reshape(-1))),
     np.histogram(X, 4, (-1, 1))[0]),
    ("HistogramFixedWidth", lambda: ops.HistogramFixedWidth(4)(T(X), T(np.array([-1.0, 1.0]))),
     np.histogram(X, 4, (-1, 1))[0]),
    ("Bincount", lambda: ops.Bincount()(T(np.array([0, 1, 1, 3])), T(np.array(5)),
                                        T(np.ones(4))), np.bincount([0, 1, 1, 3], minlength=5)),
    ("Bucketize", lambda: ops.Bucketize([0.0, 0.5])(T(X)), np.digitize(X, [0.0, 0.5])),
    ("SearchSorted", lambda: ops.SearchSorted()(T(np.array([0.1, 0.3, 0.8])), T(X)),
     np.searchsorted([0.1, 0.3, 0.8], X)),
    ("LowerBound", lambda: ops.LowerBound()(T(np.sort(Y, 1)), T(X)),
     np.stack([np.searchsorted(r, x) for r, x in zip(np.sort(Y, 1), X)])),
    ("UpperBound", lambda: ops.UpperBound()(T(np.sort(Y, 1)), T(X)),
     np.stack([np.searchsorted(r, x, "right") for r, x in zip(np.sort(Y, 1), X)])),
    ("Cholesky", lambda: ops.Cholesky()(T(SPD)), np.linalg.cholesky(SPD)),
    ("CholeskyInverse", lambda: ops.CholeskyInverse()(T(np.linalg.cholesky(SPD))),
     np.linalg.inv(SPD)),
    ("CholeskySolve", lambda: ops.CholeskySolve()(T(B), T(np.linalg.cholesky(SPD))),
     np.linalg.solve(SPD, B)),
    ("Cross", lambda: ops.Cross()(T(X), T(Y)), np.cross(X, Y)),
    ("Eig", lambda: np.sort(value(ops.Eig()(T(SPD))[0])), np.sort(np.linalg.eigvalsh(SPD))),
    ("Einsum", lambda: ops.Einsum("ij,jk->ik")((T(X), T(B))), X @ B),
    ("Geqrf", lambda: ops.Geqrf()(T(B))[0], sla.lapack.dgeqrf(B)[0]),
    ("Ger", lambda: ops.Ger()(T(X[0]), T(Y[1])), np.outer(X[0], Y[1])),
    ("LogMatrixDeterminant", lambda: ops.LogMatrixDeterminant()(T(SPD)), np.linalg.slogdet(SPD)),
    ("Lstsq", lambda: ops.Lstsq()(T(B), T(X.T)), np.linalg.lstsq(B, X.T, rcond=None)[0]),
    ("LuSolve", lambda: ops.LuSolve()(T(B), *[T(v) for v in _lu(SPD)]), np.linalg.solve(SPD, B)),
    ("LuUnpack", lambda: _matmul3(ops.LuUnpack()(*[T(v) for v in _lu(SPD)])), SPD),
    ("MatrixBandPart", lambda: ops.MatrixBandPart()(T(SPD), 0, 1), np.triu(np.tril(SPD, 1))),
    ("MatrixDeterminant", lambda: ops.MatrixDeterminant()(T(SPD)), np.linalg.det(SPD)),
    ("MatrixExp", lambda: ops.MatrixExp()(T(SPD / 4)), sla.expm(SPD / 4)),
    ("MatrixLogarithm", lambda: ops.MatrixLogarithm()(T(SPD)), sla.logm(SPD)),
    ("MatrixInverse", lambda: ops.MatrixInverse()(T(SPD)), np.linalg.inv(SPD)),
    ("MatrixPower", lambda: ops.MatrixPower(3)(T(SPD)), np.linalg.matrix_power(SPD, 3)),
    ("MatrixSolve", lambda: ops.MatrixSolve()(T(SPD), T(B)), np.linalg.solve(SPD, B)),
    ("MatrixSolveLs", lambda: ops.MatrixSolveLs()(T(B), T(X.T), T(np.array(0.0))),
     np.linalg.lstsq(B, X.T, rcond=None)[0]),
    ("MatrixTriangularSolve", lambda: ops.MatrixTriangularSolve()(T(np.tril(SPD)), T(B)),
     np.linalg.solve(np.tril(SPD), B)),
    ("Orgqr", lambda: ops.Orgqr()(*ops.Geqrf()(T(B))), np.linalg.qr(B)[0] * _qr_signs(B)),
    ("Ormqr", lambda: ops.Ormqr()(*ops.Geqrf()(T(SPD)), T(B)),
     (np.linalg.qr(SPD)[0] * _qr_signs(SPD)) @ B),
    ("Qr", lambda: _matmul2(ops.Qr()(T(B))), B),
    ("Svd", lambda: ops.Svd()(T(B))[0], np.linalg.svd(B, compute_uv=False)),
    ("TridiagonalMatMul", lambda: ops.TridiagonalMatMul()(
        T(np.array([[1.0, 2.0, 0.0]])), T(np.array([[3.0, 4.0, 5.0]])),
        T(np.array([[0.0, 6.0, 7.0]])), T(B)),
     np.array([[3.0, 1.0, 0.0], [6.0, 4.0, 2.0], [0.0, 7.0, 5.0]]) @ B),
    ("Diag", lambda: ops.Diag()(T(X[0])), np.diag(X[0])),
    ("DiagPart", lambda: ops.DiagPart()(T(SPD)), np.diag(SPD)),
    ("MatrixDiagV3", lambda: ops.MatrixDiagV3()(T(X[0]), T(np.array([1])), T(np.array(-1)),
                                                  T(np.array(-1)), T(np.array(0.0))),
     np.diag(X[0], 1)),
    ("MatrixDiagV3_padded", lambda: ops.MatrixDiagV3()(T(X[0]), T(np.array([-1])),
                                                         T(np.array(5)), T(np.array(4)),
                                                         T(np.array(9.0))),
     [[9, 9, 9, 9], [X[0, 0], 9, 9, 9], [9, X[0, 1], 9, 9], [9, 9, X[0, 2], 9], [9, 9, 9, 9]]),
    ("MatrixDiagPartV3", lambda: ops.MatrixDiagPartV3()(T(SPD), T(np.array([1])),
                                                          T(np.array(0.0))), np.diag(SPD, 1)),
    ("MatrixSetDiagV3", lambda: ops.MatrixSetDiagV3()(T(SPD), T(np.zeros(3)),
                                                        T(np.array([0]))),
                                                            SPD - np.diag(np.diag(SPD))),
    ("FillDiagonal", lambda: ops.FillDiagonal(9.0)(T(SPD)), _fill_diag(SPD, 9.0)),
    ("Tril", lambda: ops.Tril()(T(SPD)), np.tril(SPD)),
    ("Triu", lambda: ops.Triu(diagonal=1)(T(SPD)), np.triu(SPD, 1)),
    ("TrilIndices", lambda: ops.TrilIndices(3, 3)(), np.stack(np.tril_indices(3))),
    ("TriuIndices", lambda: ops.TriuIndices(3, 4, 1)(), np.stack(np.triu_indices(3, 1, 4))),
    ("Eye", lambda: ops.Eye()(2, 3, ms.float32), np.eye(2, 3)),
    ("ConjugateTranspose", lambda: ops.ConjugateTranspose()(T(X), (1, 0)), X.T),
    ("Cdist", lambda: ops.Cdist()(T(X), T(Y)),
     np.linalg.norm(X[:, None] - Y[None], axis=-1)),
    ("Pdist", lambda: ops.Pdist()(T(SPD)),
     [np.linalg.norm(SPD[i] - SPD[j]) for i in range(3) for j in range(i + 1, 3)]),
    ("Renorm", lambda: ops.Renorm(2, 0, 0.5)(T(X)),
     X * np.minimum(1, 0.5 / np.linalg.norm(X, axis=1, keepdims=True))),
    ("BartlettWindow", lambda: ops.BartlettWindow()(T(np.array(5))), np.bartlett(6)[:5]),
    ("BlackmanWindow", lambda: ops.BlackmanWindow(periodic=False)(T(np.array(5))),
     np.blackman(5)),
    ("HammingWindow", lambda: ops.HammingWindow(periodic=False)(T(np.array(5))), np.hamming(5)),
    ("Ones", lambda: ops.Ones()((2, 3), ms.float32), np.ones((2, 3))),
    ("Zeros", lambda: ops.Zeros()((2,), ms.int32), np.zeros(2)),
    ("FillV2", lambda: ops.FillV2()(T(np.array([2, 2])), T(np.array(4.0))), np.full((2, 2), 4.0)),
    ("Fills", lambda: ops.Fills()(T(X), 2.5), np.full(X.shape, 2.5)),
    ("LinSpace", lambda: ops.LinSpace()(T(np.array(0.0)), T(np.array(1.0)), 5),
     np.linspace(0, 1, 5)),
    ("LogSpace", lambda: ops.LogSpace(steps=3, base=2)(T(np.array(0.0)), T(np.array(2.0))),
     [1.0, 2.0, 4.0]),
    ("Range", lambda: ops.Range()(T(np.array(1)), T(np.array(7)), T(np.array(2))), [1, 3, 5]),
    ("RaggedRange", lambda: ops.RaggedRange(ms.int64)(T(np.array([0, 5])), T(np.array([3, 7])),
                                                      T(np.array([1, 1]))),
     ([0, 1, 2, 5, 6], [0, 3, 5])),
    ("Meshgrid", lambda: ops.Meshgrid()((T(X[0]), T(Y[0, :2]))), np.meshgrid(X[0], Y[0, :2])),
    ("ListDiff", lambda: ops.ListDiff()(T(np.array([1, 2, 3, 4])), T(np.array([2, 4]))),
     ([1, 3], [0, 2])),
    ("InvertPermutation", lambda: ops.InvertPermutation()(T(np.array([2, 0, 1]))), [1, 2, 0]),
    ("NonZero", lambda: ops.NonZero()(T(np.array([[0, 1], [2, 0]]))), [[0, 1], [1, 0]]),
    ("Unique", lambda: ops.Unique()(T(np.array([3, 1, 3, 2]))), ([3, 1, 2], [0, 1, 0, 2])),
    ("UniqueConsecutive", lambda: ops.UniqueConsecutive()(T(np.array([1, 1, 2, 2, 1]))),
     [1, 2, 1]),
    ("UniqueWithPad", lambda: ops.UniqueWithPad()(T(np.array([3, 1, 3, 2])), 0),
     ([3, 1, 2, 0], [0, 1, 0, 2])),
]


def _compare(got, expected):
    got = value(got)
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            _compare(g, e)
        return
    if isinstance(expected, list) and expected and isinstance(expected[0], np.ndarray):
        for g, e in zip(got, expected):
            _compare(g, e)
        return
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(expected, np.float64),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,call,expected", CASES, ids=[c[0] for c in CASES])
def test_matches_reference(name, call, expected):
    _compare(call(), expected)


RANDOM = [
    ("Bernoulli", lambda: ops.Bernoulli()(T(np.zeros((50,), np.float32)), 0.3), (50,), (0, 1)),
    ("Cauchy", lambda: ops.Cauchy([4, 3])(), (4, 3), None),
    ("Gamma", lambda: ops.Gamma()((5,), T(np.array(2.0, np.float32)), T(np.array(1.0, np.float32))),
     (5,), (0, np.inf)),
    ("LogNormalReverse", lambda: ops.LogNormalReverse()(T(np.zeros((3, 2), np.float32))),
     (3, 2), (0, np.inf)),
    ("Multinomial", lambda: ops.Multinomial()(T(np.array([0.2, 0.8], np.float32)), 6), (6,),
        (0, 1)),
    ("MultinomialWithReplacement", lambda: ops.MultinomialWithReplacement(4, True)(
        T(np.array([[0.5, 0.5]], np.float32)), T(np.array(1)), T(np.array(0))), (1, 4), (0, 1)),
    ("NonDeterministicInts", lambda: ops.NonDeterministicInts()(T(np.array([2, 3]))), (2, 3), None),
    ("ParameterizedTruncatedNormal", lambda: ops.ParameterizedTruncatedNormal()(
        T(np.array([2, 40])), T(np.array([0.0, 1.0], np.float32)), T(np.array([1.0, 1.0],
            np.float32)),
        T(np.array([-0.5, 0.5], np.float32)), T(np.array([0.5, 1.5], np.float32))), (2, 40),
            (-0.5, 1.5)),
    ("Poisson", lambda: ops.Poisson()((4,), T(np.array(3.0, np.float32))), (4,), (0, np.inf)),
    ("RandomCategorical", lambda: ops.RandomCategorical()(T(np.zeros((2, 3), np.float32)), 5),
        (2, 5),
     (0, 2)),
    ("RandomChoiceWithMask", lambda: ops.RandomChoiceWithMask(count=2)(T(np.array([[True, False],
                                                                                  [True,
                                                                                      True]])))[0],
     (2, 2), (0, 1)),
    ("RandomGamma", lambda: ops.RandomGamma()(T(np.array([3])), T(np.array([1.5], np.float32))),
     (3, 1), (0, np.inf)),
    ("RandomPoisson", lambda: ops.RandomPoisson()(T(np.array([3])), T(np.array([2.0], np.float32))),
     (3, 1), (0, np.inf)),
    ("RandomShuffle", lambda: np.sort(value(ops.RandomShuffle()(T(np.arange(5))))), (5,), (0, 4)),
    ("Randperm", lambda: ops.Randperm(max_length=6)(T(np.array([4]))), (6,), (-1, 3)),
    ("RandpermV2", lambda: ops.RandpermV2()(5), (5,), (0, 4)),
    ("StandardLaplace", lambda: ops.StandardLaplace(seed=1, seed2=2)((3, 3)), (3, 3), None),
    ("StandardNormal", lambda: ops.StandardNormal()((2, 5)), (2, 5), None),
    ("TruncatedNormal", lambda: ops.TruncatedNormal()(T(np.array([30]))), (30,), (-2, 2)),
    ("UniformInt", lambda: ops.UniformInt()((20,), T(np.array(1)), T(np.array(4))), (20,), (1, 3)),
    ("UniformReal", lambda: ops.UniformReal()((20,)), (20,), (0, 1)),
    ("LogUniformCandidateSampler", lambda: ops.LogUniformCandidateSampler(1, 3, True, 5)(
        T(np.array([[1], [3]])))[0], (3,), (0, 4)),
    ("UniformCandidateSampler", lambda: ops.UniformCandidateSampler(1, 3, False, 4)(
        T(np.array([[1], [3]])))[0], (3,), (0, 3)),
]


@pytest.mark.parametrize("name,call,shape,bounds", RANDOM, ids=[c[0] for c in RANDOM])
def test_random_shapes_and_ranges(name, call, shape, bounds):
    out = np.asarray(value(call()), np.float64)
    assert out.shape == shape
    if bounds is not None:
        assert out.min() >= bounds[0] and out.max() <= bounds[1]


def test_random_perm_and_shuffle_are_permutations():
    perm = value(ops.RandpermV2()(6))
    assert sorted(perm.tolist()) == list(range(6))
    assert sorted(value(ops.RandomShuffle()(T(np.arange(6)))).tolist()) == list(range(6))


def test_seeded_draws_repeat():
    a = value(ops.StandardNormal(seed=3, seed2=4)((4,)))
    b = value(ops.StandardNormal(seed=3, seed2=4)((4,)))
    np.testing.assert_array_equal(a, b)


def test_accidental_hits():
    index, ids, weights = value(ops.ComputeAccidentalHits(2)(
        T(np.array([[1, 2], [0, 4]])), T(np.array([2, 4, 5]))))
    assert index.tolist() == [0, 1] and ids.tolist() == [0, 1]
    assert np.all(weights < -1e37)


def test_check_numerics_raises_on_nan():
    with pytest.raises(ms.SporelingError if hasattr(ms, "SporelingError") else Exception,
                       match="NaN or Inf"):
        ops.CheckNumerics()(T(np.array([1.0, np.nan])))


def test_bad_init_argument_is_a_clear_error():
    from sporeling.core.errors import SporelingError
    with pytest.raises(SporelingError, match=r"ops\.MatrixPower"):
        ops.MatrixPower()          # n is required
    with pytest.raises(SporelingError, match=r"ops\.Cummax"):
        ops.Cummax(1, 2)


def test_gradients_flow_through_classes():
    x = T(X)
    for cls, fn in ((ops.Atan2(), lambda a: ops.Atan2()(a, T(Y))),
                    (None, lambda a: ops.ReduceStd(axis=1)(a)[0]),
                    (None, lambda a: ops.CumProd(True)(a, 1)),
                    (None, lambda a: ops.LpNorm(axis=1)(a))):
        _, grad = ms.value_and_grad(lambda a: ops.ReduceSum()(fn(a)))(x)
        assert np.all(np.isfinite(value(grad))) and np.any(value(grad) != 0)
