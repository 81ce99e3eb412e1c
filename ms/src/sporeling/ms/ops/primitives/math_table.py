"""Element-wise, reduction, linear-algebra, window and creation primitive classes of
MindSpore 2.10, one declaration each over the facade's functions (``_table.py``)."""
from __future__ import annotations

import numpy as np

from sporeling.ms.common import eager_only
from sporeling.ms.common.dtype import to_numpy

from ..functional_array._common import tensor
from ..functional_math import special
from ._args import axes, ops
from ._table import F, op, same, table

_lgamma = special._same_float("gammaln", "log|Gamma(x)|.", "ops.Lgamma")
_zeta = special._binary_float("zeta", "The Hurwitz zeta function.", "ops.Zeta")


@eager_only("ops.Betainc")
def _betainc(a, b, x):
    """The regularized incomplete beta function I_x(a, b)."""
    arrays = [special._float_array(v) for v in (a, b, x)]
    out = special._scipy_special("ops.Betainc").betainc(*arrays)
    return tensor(out.astype(arrays[2].dtype))


def _float(x):
    x = tensor(x)
    return x if x.dtype.kind == "f" else ops.cast(x, np.float32)


def _dtype(dtype, default=np.float32):
    return to_numpy(dtype) if dtype is not None else default


def _reduce(fn, x, axis, keep_dims):
    x = tensor(x)
    return fn(x, axes(axis, x.ndim), keep_dims)


def _cumulative(fn, x, axis, exclusive, reverse, identity):
    """MindSpore's exclusive/reverse scan: shift by one (filling ``identity``), flip."""
    x = tensor(x)
    axis = int(axis) % x.ndim
    if reverse:
        x = F.flip(x, (axis,))
    out = fn(x, axis)
    if exclusive:
        pad = [(0, 0)] * x.ndim
        pad[axis] = (1, 0)
        out = ops.pad(F.narrow(out, axis, 0, x.shape[axis] - 1), pad, value=identity)
    return F.flip(out, (axis,)) if reverse else out


def _logcumsumexp(x, axis):
    return F.logcumsumexp(x, axis)


def _cumprod(x, axis):
    return F.cumprod(x, axis)


def _median(self, x):
    x = tensor(x)
    if self.global_median:
        flat = F.reshape(x, (-1,))
        return F.median(flat, 0)[0], tensor(np.int64(0))  # no position for the global one
    fn = F.nanmedian if self.ignore_nan else F.median
    return fn(x, self.axis, self.keep_dims)


def _std(self, x):
    x = _float(x)
    ax = axes(self.axis, x.ndim, "ReduceStd")
    return (F.std(x, ax, int(self.unbiased), self.keep_dims),
            F.mean(x, ax, self.keep_dims))


def _lp_norm(self, x):
    x = _float(x)
    ax = axes(self.axis, x.ndim, "LpNorm")
    p = float(self.p)
    if p == 0:
        return F.sum(ops.cast(ops.not_equal(x, 0), x.dtype), ax, self.keep_dims)
    return ops.pow(F.sum(ops.pow(ops.abs(x), p), ax, self.keep_dims), 1 / p)


def _diag_part(x):
    x = tensor(x)
    half = x.ndim // 2
    n = int(np.prod(x.shape[:half]))
    return F.reshape(F.diagonal(F.reshape(x, (n, n))), x.shape[:half])


def _fit(x, rows, cols):
    """The last two axes cut or zero-padded to (rows, cols)."""
    x = x[..., :rows, :cols]
    extra = (rows - x.shape[-2], cols - x.shape[-1])
    if any(extra):
        x = ops.pad(x, [(0, 0)] * (x.ndim - 2) + [(0, extra[0]), (0, extra[1])])
    return x


def _matrix_diag_v3(self, x, k, num_rows, num_cols, padding_value):
    """``x`` on diagonal ``k`` of (num_rows, num_cols) matrices (-1: the smallest that
    holds it), ``padding_value`` elsewhere."""
    k = int(np.asarray(k.asnumpy() if hasattr(k, "asnumpy") else k).reshape(-1)[0])
    x = tensor(x)
    size = x.shape[-1] + abs(k)
    rows = size if int(num_rows) == -1 else int(num_rows)
    cols = size if int(num_cols) == -1 else int(num_cols)
    out = _fit(F.diag_embed(x, k), rows, cols)
    mask = _fit(F.diag_embed(F.ones_like(x), k), rows, cols)
    return F.where(ops.greater(mask, 0), out, F.full_like(out, padding_value))


def _matrix_diag_part_v3(self, x, k, padding_value):
    k = int(np.asarray(k.asnumpy() if hasattr(k, "asnumpy") else k).reshape(-1)[0])
    return F.diagonal(x, k, -2, -1)


def _matrix_set_diag_v3(self, x, diagonal, k):
    k = int(np.asarray(k.asnumpy() if hasattr(k, "asnumpy") else k).reshape(-1)[0])
    x = tensor(x)
    mask = F.diag_embed(ops.cast(F.ones_like(tensor(diagonal)), np.bool_), k)
    full = F.diag_embed(diagonal, k)
    rows, cols = x.shape[-2:]
    return F.where(mask[..., :rows, :cols], full[..., :rows, :cols], x)


def _band(x, lower, upper):
    x = tensor(x)
    rows, cols = x.shape[-2:]
    i, j = np.ogrid[:rows, :cols]
    lower, upper = int(np.asarray(lower)), int(np.asarray(upper))
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return F.where(tensor(keep), x, F.zeros_like(x))


def _fill_diagonal(self, x):
    x = tensor(x)
    n = min(x.shape) if not self.wrap else x.shape[0]
    mask = np.zeros(x.shape, bool)
    if x.ndim == 2 and self.wrap and x.shape[0] > x.shape[1]:
        flat = mask.reshape(-1)
        flat[::x.shape[1] + 1] = True
    else:
        idx = np.arange(min(x.shape) if x.ndim else n)
        mask[(idx,) * x.ndim] = True
    return F.where(tensor(mask), F.full_like(x, self.fill_value), x)


def _triangle_indices(fn):
    return lambda self, *_: ops.cast(fn(self.row, self.col, self.offset), to_numpy(self.dtype))


def _eye(self, n, m, t):
    return F.eye(int(n), int(m), t)


def _linspace(self, start, stop, num):
    return F.linspace(start, stop, int(num))


def _logspace(self, start, end):
    return F.logspace(start, end, self.steps, self.base, dtype=self.dtype)


def _range(self, start, limit, delta):
    return F.range(start, limit, delta, self.maxlen)


def _ragged_range(self, starts, limits, deltas):
    pieces = [np.arange(s, l, d) for s, l, d in zip(np.atleast_1d(np.asarray(starts.asnumpy())),
                                                   np.atleast_1d(np.asarray(limits.asnumpy())),
                                                   np.atleast_1d(np.asarray(deltas.asnumpy())))]
    splits = np.concatenate([[0], np.cumsum([len(p) for p in pieces])])
    dense = np.concatenate(pieces).astype(np.asarray(starts.asnumpy()).dtype)
    return tensor(dense), tensor(splits.astype(to_numpy(self.Tsplits)))


def _window(fn):
    return lambda self, n: ops.cast(fn(int(n), self.periodic), _dtype(self.dtype))


def _hamming(self, n):
    return ops.cast(F.hamming_window(int(n), self.periodic, self.alpha, self.beta),
                    _dtype(self.dtype))


def _histogram_fixed(self, x, value_range):
    """Counts of ``nbins`` equal bins over ``value_range``; values outside go to the end bins."""
    lo, hi = (float(v) for v in np.asarray(value_range.asnumpy()).reshape(-1))
    x = F.reshape(ops.cast(tensor(x), np.float32), (-1,))
    idx = ops.floor((ops.clip(x, lo, hi) - lo) / (hi - lo) * self.nbins)
    idx = ops.cast(ops.clip(idx, 0, self.nbins - 1), np.int64)
    counts = F.unsorted_segment_sum(F.ones_like(ops.cast(idx, np.int32)), idx, self.nbins)
    return ops.cast(counts, np.dtype(self.dtype) if isinstance(self.dtype, str)
                    else to_numpy(self.dtype))


def _bound(right):
    """Per row of ``sorted_x``: where ``values`` go (lower bound: before equal ones)."""
    def call(self, sorted_x, values):
        out = F.searchsorted(sorted_x, values, right=right)
        return ops.cast(out, to_numpy(self.out_type) if self.out_type is not None else np.int32)
    return call


def _equal_count(x, y):
    return F.reshape(F.sum(ops.cast(ops.equal(tensor(x), tensor(y)), tensor(x).dtype)), (1,))


def _square_sum_all(x, y):
    return F.sum(ops.square(tensor(x))), F.sum(ops.square(tensor(y)))


def _check_numerics(x):
    x = tensor(x)
    if not np.all(np.isfinite(x.asnumpy())):
        from sporeling.core.errors import SporelingError
        raise SporelingError("the tensor holds NaN or Inf", op="ops.CheckNumerics",
                             expected="finite values", got="NaN or Inf")
    return x


def _svd(self, x):
    s, u, v = F.svd(x, self.full_matrices, True)
    return (s, u, v) if self.compute_uv else (s, F.zeros_like(u), F.zeros_like(v))


def _log_matrix_det(x):
    sign, logabs = F.slogdet(x)
    return sign, logabs


@eager_only("ops.Qr")
def _qr(x, full_matrices):
    q, r = np.linalg.qr(tensor(x).asnumpy(), "complete" if full_matrices else "reduced")
    return tensor(q), tensor(r)


@eager_only("ops.Eig")
def _eig(x, compute_v):
    a = tensor(x).asnumpy()
    w, v = np.linalg.eig(a)
    if np.iscomplexobj(w) and np.abs(w.imag).max(initial=0) > 0:
        from sporeling.core.errors import DTypeError
        raise DTypeError("complex eigenvalues need complex tensors, which Sporeling lacks",
                         op="ops.Eig", expected="a matrix with real eigenvalues",
                         got="complex eigenvalues")
    return (tensor(w.real.astype(a.dtype)),
            tensor(v.real.astype(a.dtype)) if compute_v else None)


def _solve_triangular(self, matrix, rhs):
    a = tensor(matrix)
    if self.adjoint:
        a = F.swapaxes(a, -1, -2)
    lower = self.lower != bool(self.adjoint)
    a = F.tril(a) if lower else F.triu(a)
    return F.matrix_solve(a, rhs)


def _lstsq(self, a, b):
    a, b = _float(a), _float(b)
    at = F.swapaxes(a, -1, -2)
    gram = F.matmul(at, a)
    if self.l2_regularizer:
        gram = gram + float(self.l2_regularizer) * F.eye(gram.shape[-1], dtype=gram.dtype)
    return F.matrix_solve(gram, F.matmul(at, b))


def _matrix_solve_ls(self, matrix, rhs, l2):
    a, b = _float(matrix), _float(rhs)
    at = F.swapaxes(a, -1, -2)
    gram = F.matmul(at, a) + tensor(l2) * F.eye(a.shape[-1], dtype=a.dtype)
    return F.matrix_solve(gram, F.matmul(at, b))


@eager_only("ops.MatrixExp")
def _matrix_exp(x):
    from scipy.linalg import expm
    a = tensor(x).asnumpy()
    return tensor(np.stack([expm(m) for m in a.reshape(-1, *a.shape[-2:])])
                  .reshape(a.shape).astype(a.dtype))


@eager_only("ops.MatrixLogarithm")
def _matrix_log(x):
    from scipy.linalg import logm
    a = tensor(x).asnumpy()
    return tensor(np.stack([np.real(logm(m)) for m in a.reshape(-1, *a.shape[-2:])])
                  .reshape(a.shape).astype(a.dtype))


@eager_only("ops.LuUnpack")
def _lu_unpack(lu_data, lu_pivots, unpack_data, unpack_pivots):
    lu, piv = tensor(lu_data).asnumpy(), tensor(lu_pivots).asnumpy()
    n = lu.shape[-2]
    lower = np.tril(lu, -1)[..., :, :min(lu.shape[-2:])] + np.eye(n, min(lu.shape[-2:]),
                                                                  dtype=lu.dtype)
    upper = np.triu(lu)[..., :min(lu.shape[-2:]), :]
    perm = np.broadcast_to(np.eye(n, dtype=lu.dtype), lu.shape[:-2] + (n, n)).copy()
    for index in np.ndindex(*lu.shape[:-2]):
        order = np.arange(n)
        for i, p in enumerate(piv[index]):
            order[[i, p - 1]] = order[[p - 1, i]]
        perm[index] = np.eye(n, dtype=lu.dtype)[order].T
    return tensor(perm), tensor(lower), tensor(upper)


@eager_only("ops.LuSolve")
def _lu_solve(b, lu_data, lu_pivots):
    p, lower, upper = (t.asnumpy() for t in _lu_unpack(lu_data, lu_pivots, True, True))
    a = p @ lower @ upper
    return tensor(np.linalg.solve(a, tensor(b).asnumpy()).astype(tensor(b).asnumpy().dtype))


def _tridiagonal(superdiag, maindiag, subdiag, rhs):
    sup, main, sub = (F.reshape(tensor(v), tensor(v).shape[:-2] + (-1, 1))
                      for v in (superdiag, maindiag, subdiag))
    rhs = tensor(rhs)
    n = rhs.shape[-2]
    out = main * rhs
    if n > 1:
        below = ops.pad(F.narrow(rhs, rhs.ndim - 2, 1, n - 1), [(0, 0)] * (rhs.ndim - 2) +
                        [(0, 1), (0, 0)])
        above = ops.pad(F.narrow(rhs, rhs.ndim - 2, 0, n - 1), [(0, 0)] * (rhs.ndim - 2) +
                        [(1, 0), (0, 0)])
        out = out + sup * below + sub * above
    return out


def _nuclear_norm(self, x):
    s = F.svd(x, False, False)
    if isinstance(s, tuple):
        s = s[0]
    out = F.sum(s, -1)
    if self.keepdim:
        out = F.expand_dims(F.expand_dims(out, -1), -1)
    return out


def _cross(self, x1, x2):
    return F.cross(x1, x2, None if self.dim == -65530 else self.dim)


def _quantile(self, x, q):
    a = tensor(x).asnumpy()
    fn = np.nanquantile if self.ignore_nan else np.quantile
    out = fn(a, np.asarray(q.asnumpy() if hasattr(q, "asnumpy") else q), axis=self.dim,
             keepdims=self.keep_dims)
    return tensor(np.asarray(out, a.dtype))


_quantile_eager = eager_only("ops.Quantile")(lambda self, x, q: _quantile(self, x, q))


def _renorm(self, x):
    return F.renorm(x, int(self.p), self.dim, float(self.maxnorm))


def _cum(fn, identity):
    return lambda self, x, axis: _cumulative(fn, x, axis, self.exclusive, self.reverse,
                                             identity)


def _arg_min_with_value(self, x):
    x = tensor(x)
    axis = int(self.axis) % max(x.ndim, 1)
    return (F.argmin(x, axis, self.keep_dims),
            ops.min(x, axis=axis, keepdims=self.keep_dims))


def _count_nonzero(self, x):
    x = tensor(x)
    dims = self.dims if self.dims is not None else ()
    return F.count_nonzero(x, dims, False, np.int64)


def _reduce_all(fn):
    return lambda self, x, axis=(): _reduce(lambda t, a, k: fn(t, a, k), x, axis, self.keep_dims)


def _euclidean_norm(self, x, axes_):
    x = _float(x)
    return ops.sqrt(F.sum(ops.square(x), axes(axes_, x.ndim, "EuclideanNorm"), self.keep_dims))


def _logit(self, x):
    return F.logit(x, None if self.eps < 0 else self.eps)


def _mod(x, y):
    return F.fmod(x, y)


def _div_no_nan(x, y):
    x, y = _float(x), tensor(y)
    zero = ops.equal(y, 0)
    return F.where(zero, F.zeros_like(x * y), x / F.where(zero, F.ones_like(y), y))


def _mul_no_nan(x, y):
    x, y = tensor(x), tensor(y)
    prod = x * y
    return F.where(ops.equal(y, 0), F.zeros_like(prod), prod)


def _nan_to_num(self, x):
    return F.nan_to_num(x, self.nan, self.posinf, self.neginf)


def _is_close(self, x, y):
    return F.isclose(x, y, self.rtol, self.atol, self.equal_nan)


def _randomized(fn):
    """A call drawing with the seeds of ``seed``/``seed2`` (0, 0: fresh draws each call)."""
    def call(self, *inputs):
        seed = None if not (self.seed or self.seed2) else int(self.seed) * 1000003 + int(self.seed2)
        return fn(self, seed, *inputs)
    return call


def _shape_of(shape):
    return tuple(int(s) for s in (shape.asnumpy() if hasattr(shape, "asnumpy") else shape))


def _truncated_normal(self, seed, shape):
    n = F.standard_normal(_shape_of(shape), seed)
    while True:  # redraw the values beyond two standard deviations
        bad = ops.greater(ops.abs(n), 2.0)
        if not bool(np.any(bad.asnumpy())):
            return ops.cast(n, _dtype(self.dtype))
        n = F.where(bad, F.standard_normal(_shape_of(shape), None), n)


def _param_truncated_normal(self, seed, shape, mean, stdevs, min_, max_):
    mean, std, lo, hi = (_float(v) for v in (mean, stdevs, min_, max_))
    shape = _shape_of(shape)
    u = F.uniform(shape, tensor(np.float32(0)), tensor(np.float32(1)), seed)
    a, b = (lo - mean) / std, (hi - mean) / std
    cdf = lambda z: 0.5 * (1 + ops.erf(z / np.sqrt(2)))  # noqa: E731
    p = cdf(F.reshape(a, (-1, 1))) + u * (cdf(F.reshape(b, (-1, 1))) - cdf(F.reshape(a, (-1, 1))))
    z = np.sqrt(2) * F.erfinv(ops.clip(2 * p - 1, -1 + 1e-6, 1 - 1e-6))
    return F.reshape(mean, (-1, 1)) + F.reshape(std, (-1, 1)) * z


def _cauchy(self):
    u = F.uniform(tuple(self.size), tensor(np.float32(0)), tensor(np.float32(1)))
    return self.median + self.sigma * F.tan(np.pi * (u - 0.5))


def _log_normal_reverse(self, x):
    x = tensor(x)
    return ops.cast(ops.exp(self.mean + self.std * F.standard_normal(tuple(x.shape))), x.dtype)


def _non_deterministic_ints(self, shape):
    info = np.iinfo(to_numpy(self.dtype))
    return F.randint(int(info.min) // 2, int(info.max) // 2, _shape_of(shape),
                     dtype=self.dtype)


def _bernoulli(self, x, p):
    x = tensor(x)
    seed = None if self.seed == -1 else int(self.seed)
    p = p if not hasattr(p, "shape") or p.shape == () else F.broadcast_to(p, x.shape)
    return ops.cast(F.bernoulli(ops.cast(x, np.float32), p, seed), x.dtype)


def _randperm(self, n):
    n = int(np.asarray(n.asnumpy() if hasattr(n, "asnumpy") else n).reshape(-1)[0])
    perm = F.randperm(n)
    out = np.full(self.max_length, self.pad, to_numpy(self.dtype))
    out[:n] = perm.asnumpy()[:self.max_length]
    return tensor(out)


def _multinomial(self, x, num_samples):
    seed = None if not (self.seed or self.seed2) else int(self.seed)
    return ops.cast(F.multinomial(x, int(num_samples), True, seed), to_numpy(self.dtype))


def _uniform_int(self, seed, shape, minval, maxval):
    lo, hi = (int(np.asarray(v.asnumpy() if hasattr(v, "asnumpy") else v)) for v in
              (minval, maxval))
    return F.randint(lo, hi, _shape_of(shape), seed, dtype=np.int32)


def _uniform_real(self, seed, shape):
    return F.uniform(_shape_of(shape), tensor(np.float32(0)), tensor(np.float32(1)), seed)


def _random_shuffle(self, seed, x):
    return F.shuffle(x, seed)


def _candidate_sampler(fn, *names):
    return lambda self, true_classes: fn(true_classes, *(getattr(self, n) for n in names))


def _accidental_hits(self, true_classes, sampled_candidates):
    """(row, candidate position, -FLT_MAX) of each sampled candidate that is a true class."""
    true, sampled = tensor(true_classes).asnumpy(), tensor(sampled_candidates).asnumpy()
    batch, _, cand = np.nonzero(true[:, :, None] == sampled[None, None, :])
    weight = np.full(batch.shape, -np.finfo(np.float32).max, np.float32)
    return tensor(batch.astype(np.int32)), tensor(cand.astype(np.int32)), tensor(weight)


def _list_diff(self, x, y):
    a, b = tensor(x).asnumpy(), tensor(y).asnumpy()
    keep = ~np.isin(a, b)
    return tensor(a[keep]), tensor(np.nonzero(keep)[0].astype(to_numpy(self.out_idx)))


def _invert_permutation(x):
    perm = tensor(x).asnumpy()
    out = np.empty_like(perm)
    out[perm] = np.arange(perm.size, dtype=perm.dtype)
    return tensor(out)


def _non_zero(x):
    return F.argwhere(x)


def _unique(x):
    return F.unique(x)


def _histogram(self, x):
    return F.histc(x, self.bins, self.min, self.max)


def _bincount(array, size, weights):
    return F.bincount(array, weights, int(np.asarray(size.asnumpy() if hasattr(size, "asnumpy")
                                                          else size)))


def _approximate_equal(self, x, y):
    return F.approximate_equal(x, y, self.tolerance)


def _round(self, x, decimals=0):
    return F.round(x, decimals=int(decimals))


def _mvlgamma(self, x):
    return F.mvlgamma(x, self.p)


__all__ = table(globals(), [
    # element-wise, one input
    same("ACos", F.acos), same("Acosh", F.acosh), same("Asin", F.asin), same("Asinh", F.asinh),
    same("Atan", F.atan), same("Atanh", F.atanh), same("Cosh", F.cosh), same("Sinh", F.sinh),
    same("Tan", F.tan), same("Ceil", F.ceil), same("Erf", F.erf), same("Erfc", F.erfc),
    same("Erfinv", F.erfinv), same("Expm1", F.expm1), same("Log1p", F.log1p),
    same("Rsqrt", F.rsqrt), same("Sign", F.sign), same("Sinc", F.sinc), same("Trunc", F.trunc),
    same("Rint", lambda x: F.round(x)), op("Round", "", _round),
    same("Inv", F.inv), same("Invert", F.invert), same("Digamma", F.digamma),
    same("Lgamma", _lgamma), op("Mvlgamma", "p", _mvlgamma), same("Polygamma", F.polygamma),
    same("Igamma", F.igamma), same("Igammac", F.igammac), same("Betainc", _betainc),
    same("Zeta", _zeta), same("Angle", F.angle), same("Real", F.real), same("Imag", F.imag),
    same("Conj", F.conj), same("IsFinite", F.isfinite), same("IsInf", F.isinf),
    same("IsNan", F.isnan), same("LogicalNot", F.logical_not), op("Logit", "eps=-1.0", _logit),
    same("PopulationCount", F.population_count), same("Identity", lambda x: tensor(x) + 0),
    same("Eps", F.eps), same("CheckNumerics", _check_numerics, eager=True),
    op("NanToNum", "nan=0.0, posinf=None, neginf=None", _nan_to_num),
    *(same(f"Bessel{n}", getattr(F, f"bessel_{n.lower()}")) for n in
      ("I0", "I0e", "I1", "I1e", "J0", "J1", "K0", "K0e", "K1", "K1e", "Y0", "Y1")),
    # element-wise, two or three inputs
    same("Atan2", F.atan2), same("BitwiseAnd", F.bitwise_and), same("BitwiseOr", F.bitwise_or),
    same("BitwiseXor", F.bitwise_xor), same("LeftShift", F.bitwise_left_shift),
    same("RightShift", F.bitwise_right_shift), same("DivNoNan", _div_no_nan),
    same("MulNoNan", _mul_no_nan), same("FloorMod", F.floor_mod), same("Mod", _mod),
    same("Fmax", F.fmax), same("Fmin", F.fmin), same("Gcd", F.gcd), same("Lcm", F.lcm),
    same("Heaviside", F.heaviside), same("Hypot", F.hypot), same("NextAfter", F.nextafter),
    same("SquaredDifference", lambda x, y: ops.square(tensor(x) - tensor(y))),
    same("TruncateDiv", F.truncate_div), same("TruncateMod", F.truncate_mod),
    same("Xdivy", F.xdivy), same("Xlogy", F.xlogy), same("Lerp", F.lerp),
    same("LerpScalar", F.lerp), same("TensorAdd", F.add), same("LogicalAnd", F.logical_and),
    same("LogicalOr", F.logical_or), same("LogicalXor", F.logical_xor),
    same("Addcdiv", F.addcdiv), same("Addcmul", F.addcmul),
    op("ApproximateEqual", "tolerance=1e-5", _approximate_equal),
    op("IsClose", "rtol=1e-05, atol=1e-08, equal_nan=True", _is_close),
    same("EqualCount", _equal_count), same("SquareSumAll", _square_sum_all),
    # reductions and scans
    op("ReduceAll", "keep_dims=False", _reduce_all(F.all)),
    op("ReduceAny", "keep_dims=False", _reduce_all(F.any)),
    op("ReduceStd", "axis=(), unbiased=True, keep_dims=False", _std),
    op("EuclideanNorm", "keep_dims=False", _euclidean_norm),
    op("LpNorm", "axis, p=2, keep_dims=False, epsilon=1e-12", _lp_norm),
    op("CountNonZero", "dims=None", _count_nonzero),
    op("ArgMinWithValue", "axis=0, keep_dims=False", _arg_min_with_value),
    op("Median", "global_median=False, axis=0, keep_dims=False, ignore_nan=False", _median),
    op("Quantile", "dim=None, keep_dims=False, ignore_nan=False", _quantile_eager, eager=True),
    op("NuclearNorm", "dim=None, keepdim=False", _nuclear_norm, eager=True),
    same("Trace", F.trace),
    op("Cummax", "axis", lambda self, x: F.cummax(x, self.axis)),
    op("Cummin", "axis", lambda self, x: F.cummin(x, self.axis)),
    op("CumProd", "exclusive=False, reverse=False", _cum(_cumprod, 1)),
    op("CumulativeLogsumexp", "exclusive=False, reverse=False", _cum(_logcumsumexp, -np.inf)),
    op("Histogram", "bins=100, min=0.0, max=0.0", _histogram),
    op("HistogramFixedWidth", "nbins, dtype='int32'", _histogram_fixed),
    same("Bincount", _bincount, eager=True),
    op("Bucketize", "boundaries", lambda self, x: ops.cast(
        F.bucketize(x, list(self.boundaries), right=True), np.int32)),  # b[i-1] <= x < b[i]
    op("SearchSorted", "dtype=None, right=False", lambda self, seq, values, sorter=None:
       ops.cast(F.searchsorted(seq, values, right=self.right, sorter=sorter),
                _dtype(self.dtype, np.int64))),
    op("LowerBound", "out_type=None", _bound(False)),
    op("UpperBound", "out_type=None", _bound(True)),
    # linear algebra
    op("Cholesky", "upper=False", lambda self, x: F.cholesky(x, self.upper)),
    op("CholeskyInverse", "upper=False", lambda self, x: F.inverse(
        F.matmul(F.swapaxes(x, -1, -2), x) if self.upper else F.matmul(x, F.swapaxes(x, -1, -2)))),
    op("CholeskySolve", "upper=False", lambda self, x1, x2: F.cholesky_solve(x1, x2, self.upper)),
    op("Cross", "dim=-65530", _cross),
    op("Eig", "compute_v=False", lambda self, x: _eig(x, self.compute_v), eager=True),
    op("Einsum", "equation", lambda self, inputs: F.einsum(self.equation, *inputs)),
    same("Geqrf", F.geqrf), same("Ger", F.ger), same("LogMatrixDeterminant", _log_matrix_det),
    op("Lstsq", "fast=True, l2_regularizer=0.0", _lstsq),
    same("LuSolve", _lu_solve),
    op("LuUnpack", "unpack_data=True, unpack_pivots=True", lambda self, d, p: _lu_unpack(
        d, p, self.unpack_data, self.unpack_pivots), eager=True),
    same("MatrixBandPart", _band), same("MatrixDeterminant", F.det),
    same("MatrixExp", _matrix_exp), same("MatrixLogarithm", _matrix_log),
    op("MatrixInverse", "adjoint=False", lambda self, x: F.inverse(
        F.swapaxes(x, -1, -2) if self.adjoint else x)),
    op("MatrixPower", "n", lambda self, x: F.matrix_power(x, self.n)),
    op("MatrixSolve", "adjoint=False", lambda self, m, r: F.matrix_solve(m, r, self.adjoint)),
    op("MatrixSolveLs", "fast=True", _matrix_solve_ls),
    op("MatrixTriangularSolve", "lower=True, adjoint=False", _solve_triangular),
    same("Orgqr", F.orgqr),
    op("Ormqr", "left=True, transpose=False", lambda self, x, tau, other: F.ormqr(
        x, tau, other, self.left, self.transpose), eager=True),
    op("Qr", "full_matrices=False", lambda self, x: _qr(x, self.full_matrices), eager=True),
    op("Svd", "full_matrices=False, compute_uv=True", _svd, eager=True),
    same("TridiagonalMatMul", _tridiagonal),
    same("Diag", F.diag), same("DiagPart", _diag_part),
    op("MatrixDiagV3", "align='RIGHT_LEFT'", _matrix_diag_v3),
    op("MatrixDiagPartV3", "align='RIGHT_LEFT'", _matrix_diag_part_v3),
    op("MatrixSetDiagV3", "align='RIGHT_LEFT'", _matrix_set_diag_v3),
    op("FillDiagonal", "fill_value, wrap=False", _fill_diagonal),
    op("Tril", "diagonal=0", lambda self, x: F.tril(x, self.diagonal)),
    op("Triu", "diagonal=0", lambda self, x: F.triu(x, self.diagonal)),
    op("TrilIndices", "row, col, offset=0, dtype=np.int32", _triangle_indices(F.tril_indices)),
    op("TriuIndices", "row, col, offset=0, dtype=np.int32", _triangle_indices(F.triu_indices)),
    op("Eye", "", _eye), same("ConjugateTranspose", lambda x, perm: F.transpose(x, perm)),
    op("Cdist", "p=2.0", lambda self, x1, x2: F.cdist(x1, x2, self.p)),
    op("Pdist", "p=2.0", lambda self, x: F.pdist(x, self.p)),
    op("Renorm", "p, dim, maxnorm", _renorm),
    # windows and creation
    op("BartlettWindow", "periodic=True, dtype=None", _window(F.bartlett_window)),
    op("BlackmanWindow", "periodic=True, dtype=None", _window(F.blackman_window)),
    op("HammingWindow", "periodic=True, alpha=0.54, beta=0.46, dtype=None", _hamming),
    op("Ones", "", lambda self, shape, type=None: F.ones(shape, type)),  # noqa: A006
    op("Zeros", "", lambda self, shape, type=None: F.zeros(shape, type)),  # noqa: A006
    same("FillV2", lambda shape, value: F.full(_shape_of(shape), value, dtype=tensor(value).dtype)),
    same("Fills", lambda x, value: F.full_like(x, value)),
    op("LinSpace", "", _linspace),
    op("LogSpace", "steps=10, base=10, dtype=None", _logspace),
    op("Range", "maxlen=1000000", _range),
    op("RaggedRange", "Tsplits", _ragged_range, eager=True),
    op("Meshgrid", "indexing='xy'", lambda self, inputs: F.meshgrid(*inputs,
                                                                     indexing=self.indexing)),
    # random
    op("Bernoulli", "seed=-1, offset=0", _bernoulli),
    op("Cauchy", "size, median=0.0, sigma=1.0", _cauchy),
    op("Gamma", "seed=0, seed2=0", _randomized(lambda self, seed, shape, alpha, beta:
                                               F.gamma(_shape_of(shape), alpha, beta, seed))),
    op("LogNormalReverse", "mean=1.0, std=2.0", _log_normal_reverse),
    op("Multinomial", "seed=0, seed2=0, dtype=np.int32", _multinomial),
    op("MultinomialWithReplacement", "numsamples, replacement=False",
       lambda self, x, seed, offset: F.multinomial_with_replacement(
           x, seed, offset, self.numsamples, self.replacement)),
    op("NonDeterministicInts", "dtype=np.int64", _non_deterministic_ints),
    op("ParameterizedTruncatedNormal", "seed=0, seed2=0",
       _randomized(_param_truncated_normal)),
    op("Poisson", "seed=0, seed2=0", _randomized(
        lambda self, seed, shape, mean: F.random_poisson(_shape_of(shape), mean, seed)),
       eager=True),
    op("RandomCategorical", "dtype=np.int64", lambda self, logits, num_sample, seed=0:
       ops.cast(F.random_categorical(logits, int(num_sample), int(seed)), to_numpy(self.dtype))),
    op("RandomChoiceWithMask", "count=256, seed=0, seed2=0",
       lambda self, x: F.choice_with_mask(x, self.count, self.seed, self.seed2)),
    op("RandomGamma", "seed=0, seed2=0", _randomized(
        lambda self, seed, shape, alpha: F.random_gamma(_shape_of(shape), alpha, seed))),
    op("RandomPoisson", "seed=0, seed2=0, dtype=np.int64", _randomized(
        lambda self, seed, shape, rate: F.random_poisson(_shape_of(shape), rate, seed,
                                                         self.dtype)), eager=True),
    op("RandomShuffle", "seed=0, seed2=0", _randomized(_random_shuffle)),
    op("Randperm", "max_length=1, pad=-1, dtype=np.int32", _randperm),
    op("RandpermV2", "dtype=np.int64", lambda self, n, seed=0, offset=0: ops.cast(
        F.randperm(int(np.asarray(n.asnumpy() if hasattr(n, "asnumpy") else n)), int(seed),
                   int(offset)), to_numpy(self.dtype))),
    op("StandardLaplace", "seed=0, seed2=0", _randomized(
        lambda self, seed, shape: F.standard_laplace(_shape_of(shape), seed))),
    op("StandardNormal", "seed=0, seed2=0", _randomized(
        lambda self, seed, shape: F.standard_normal(_shape_of(shape), seed))),
    op("TruncatedNormal", "seed=0, seed2=0, dtype=np.float32", _randomized(_truncated_normal),
       eager=True),
    op("UniformInt", "seed=0, seed2=0", _randomized(_uniform_int)),
    op("UniformReal", "seed=0, seed2=0", _randomized(_uniform_real)),
    op("LogUniformCandidateSampler", "num_true=1, num_sampled=5, unique=True, range_max=5, "
       "seed=0", _candidate_sampler(F.log_uniform_candidate_sampler, "num_true",
                                    "num_sampled", "unique", "range_max", "seed")),
    op("UniformCandidateSampler", "num_true, num_sampled, unique, range_max, seed=0, "
       "remove_accidental_hits=False", _candidate_sampler(
           F.uniform_candidate_sampler, "num_true", "num_sampled", "unique", "range_max",
           "seed", "remove_accidental_hits")),
    op("ComputeAccidentalHits", "num_true=1", _accidental_hits, eager=True),
    # sets and indices
    op("ListDiff", "out_idx=np.int32", _list_diff, eager=True),
    same("InvertPermutation", _invert_permutation, eager=True),
    same("NonZero", _non_zero, eager=True),
    same("Unique", _unique, eager=True),
    op("UniqueConsecutive", "return_idx=False, return_counts=False, axis=None",
       lambda self, x: F.unique_consecutive(x, self.return_idx, self.return_counts, self.axis),
       eager=True),
    same("UniqueWithPad", F.unique_with_pad),
])
