"""ms.ops reductions, cumulative functions, comparisons and sorting against NumPy references
and MindSpore's documented examples; gradients; Graph mode."""
import numpy as np
import pytest

from sporeling.ms import ops

from math_refs import T, assert_grad_matches, assert_matches, in_graph

M = np.array([[3.0, -1.0, 4.0, 1.0], [5.0, 9.0, -2.0, 6.0], [5.0, 3.0, 5.0, -8.0]], np.float32)
N3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4) % 7 - 3
NAN = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 2.0]], np.float32)
V = np.array([0.0, 0.4, 0.6, 0.7, 0.1], np.float32)
DISTINCT = M + np.arange(12, dtype=np.float32).reshape(3, 4) / 10   # no ties: derivatives exist


def _cum_extreme(x, axis, fn):
    values = fn.accumulate(x, axis=axis)
    idx = np.zeros(x.shape, np.int64)
    moved_x, moved_v = np.moveaxis(x, axis, -1), np.moveaxis(values, axis, -1)
    moved_i = np.moveaxis(idx, axis, -1)
    for pos in np.ndindex(moved_x.shape[:-1]):
        for i in range(moved_x.shape[-1]):
            moved_i[pos][i] = max(j for j in range(i + 1) if moved_x[pos][j] == moved_v[pos][i])
    return values, idx


CASES = [
    ("sum", lambda: ops.sum(T(M)), M.sum()),
    ("sum_dim", lambda: ops.sum(T(N3), dim=(0, 2), keepdim=True), N3.sum(axis=(0, 2), keepdims=True)),
    ("sum_dtype", lambda: ops.sum(T(M), 1, dtype=np.float64), M.astype(np.float64).sum(1)),
    ("mean", lambda: ops.mean(T(M), 1), M.mean(1)),
    ("mean_keep", lambda: ops.mean(T(N3), (1, 2), keep_dims=True), N3.mean((1, 2), keepdims=True)),
    ("prod", lambda: ops.prod(T(M), 0), M.prod(0)),
    ("max", lambda: ops.max(T(M), 1), (M.max(1), M.argmax(1))),
    ("max_all", lambda: ops.max(T(M)), (M.max(), np.int64(0))),     # 2.10: index 0
    ("max_keep", lambda: ops.max(T(M), 0, keepdims=True), (M.max(0, keepdims=True),
                                                           M.argmax(0)[None])),
    ("max_initial_where", lambda: ops.max(T(M), 1, initial=4.5, where=T(M < 6)),
     (np.max(M, 1, initial=4.5, where=M < 6), np.argmax(np.where(M < 6, M, -np.inf), 1))),
    ("min", lambda: ops.min(T(M), 0), (M.min(0), M.argmin(0))),
    ("amax", lambda: ops.amax(T(N3), (0, 2)), N3.max((0, 2))),
    ("amax_where", lambda: ops.amax(T(M), 1, initial=-100.0, where=T(M < 5)),
     np.max(M, 1, initial=-100.0, where=M < 5)),
    ("amin", lambda: ops.amin(T(M), 1, keepdims=True), M.min(1, keepdims=True)),
    ("aminmax", lambda: ops.aminmax(T(M), axis=1), (M.min(1), M.max(1))),
    ("argmax", lambda: ops.argmax(T(M), dim=0), M.argmax(0)),
    ("argmax_flat", lambda: ops.argmax(T(M)), np.int64(M.argmax())),
    ("argmin", lambda: ops.argmin(T(M), axis=-1, keepdims=True), M.argmin(-1)[:, None]),
    ("all", lambda: ops.all(T(M > 0), 1), (M > 0).all(1)),
    ("any", lambda: ops.any(T(M > 8), 0), (M > 8).any(0)),
    ("logsumexp", lambda: ops.logsumexp(T(M), 1), np.log(np.exp(M.astype(np.float64)).sum(1))),
    ("var", lambda: ops.var(T(M), 1, ddof=1), M.var(1, ddof=1)),
    ("std", lambda: ops.std(T(M), 0), M.std(0)),
    ("var_mean", lambda: ops.var_mean(T(M), 1, keepdims=True),
     (M.var(1, keepdims=True), M.mean(1, keepdims=True))),
    ("std_mean", lambda: ops.std_mean(T(M), 0, ddof=True), (M.std(0, ddof=1), M.mean(0))),
    ("nansum", lambda: ops.nansum(T(NAN), 1), np.nansum(NAN, 1)),
    ("nanmean", lambda: ops.nanmean(T(NAN), 0), np.array([1.0, np.nan, 2.5])),
    ("norm", lambda: ops.norm(T(M)), np.linalg.norm(M)),
    ("norm_vec_ord", lambda: ops.norm(T(M), 3, dim=1), np.linalg.norm(M, 3, axis=1)),
    ("norm_inf", lambda: ops.norm(T(M), float("inf"), dim=0), np.abs(M).max(0)),
    ("norm_zero", lambda: ops.norm(T(M), 0, dim=1), (M != 0).sum(1).astype(np.float32)),
    ("norm_matrix_1", lambda: ops.norm(T(M), 1), np.linalg.norm(M, 1)),
    ("norm_matrix_inf", lambda: ops.norm(T(M), float("inf"), dim=(0, 1)), np.linalg.norm(M, np.inf)),
    ("norm_fro", lambda: ops.norm(T(N3), "fro", dim=(1, 2)), np.linalg.norm(N3, "fro", axis=(1, 2))),
    ("fmax", lambda: ops.fmax(T(NAN), T(np.nan_to_num(NAN[::-1].copy(), nan=0.5))),
     np.fmax(NAN, np.nan_to_num(NAN[::-1], nan=0.5))),
    ("fmin", lambda: ops.fmin(T(NAN), T(NAN[:, ::-1].copy())), np.fmin(NAN, NAN[:, ::-1])),
    ("cumsum", lambda: ops.cumsum(T(M), 1), M.cumsum(1)),
    ("cumprod", lambda: ops.cumprod(T(M), 0), M.cumprod(0)),
    ("cummax", lambda: ops.cummax(T(M), 1), _cum_extreme(M, 1, np.maximum)),
    ("cummin", lambda: ops.cummin(T(N3), 1), _cum_extreme(N3, 1, np.minimum)),
    ("logcumsumexp", lambda: ops.logcumsumexp(T(M), 1), np.logaddexp.accumulate(M, 1)),
    ("histc", lambda: ops.histc(T(M), bins=5, min=-5.0, max=5.0),
     np.histogram(M[(M >= -5) & (M <= 5)], 5, (-5, 5))[0].astype(np.float32)),
    ("histc_range", lambda: ops.histc(T(M), bins=4),
     np.histogram(M, 4, (M.min(), M.max()))[0].astype(np.float32)),
    # comparison
    ("eq", lambda: ops.eq(T(M), 5.0), M == 5), ("equal", lambda: ops.equal(T(M), T(np.where(M > 3, M, 0))), M == np.where(M > 3, M, 0)),
    ("ne", lambda: ops.ne(T(M), 5.0), M != 5), ("not_equal", lambda: ops.not_equal(T(M), 1.0), M != 1),
    ("gt", lambda: ops.gt(T(M), 3.0), M > 3), ("greater", lambda: ops.greater(T(M), 3.0), M > 3),
    ("ge", lambda: ops.ge(T(M), 3.0), M >= 3),
    ("greater_equal", lambda: ops.greater_equal(T(M), 3.0), M >= 3),
    ("lt", lambda: ops.lt(T(M), 3.0), M < 3), ("less", lambda: ops.less(T(M), 3.0), M < 3),
    ("le", lambda: ops.le(T(M), 3.0), M <= 3), ("less_equal", lambda: ops.less_equal(T(M), 3.0), M <= 3),
    ("maximum", lambda: ops.maximum(T(M), T(M[::-1].copy())), np.maximum(M, M[::-1])),
    ("minimum", lambda: ops.minimum(T(M), 0.0), np.minimum(M, 0)),
    ("isclose", lambda: ops.isclose(T(np.array([1.0, 2.0, np.inf, np.nan], np.float32)),
                                    T(np.array([1.000001, 2.1, np.inf, np.nan], np.float32))),
     np.isclose([1.0, 2.0, np.inf, np.nan], [1.000001, 2.1, np.inf, np.nan])),
    ("isclose_nan", lambda: ops.isclose(T(np.array([np.nan], np.float32)),
                                        T(np.array([np.nan], np.float32)), equal_nan=True),
     np.array([True])),
    ("approximate_equal", lambda: ops.approximate_equal(T(V), T(V + 1e-6), 1e-5),
     np.ones(V.shape, bool)),
    ("isfinite", lambda: ops.isfinite(T(np.array([1.0, np.inf, np.nan], np.float32))),
     np.array([True, False, False])),
    ("isinf", lambda: ops.isinf(T(np.array([1.0, -np.inf, np.nan], np.float32))),
     np.array([False, True, False])),
    ("isnan", lambda: ops.isnan(T(np.array([1.0, np.inf, np.nan], np.float32))),
     np.array([False, False, True])),
    ("isposinf", lambda: ops.isposinf(T(np.array([np.inf, -np.inf, 1.0], np.float32))),
     np.array([True, False, False])),
    ("isneginf", lambda: ops.isneginf(T(np.array([np.inf, -np.inf, 1.0], np.float32))),
     np.array([False, True, False])),
    ("isreal", lambda: ops.isreal(T(M)), np.ones(M.shape, bool)),
    ("is_complex", lambda: ops.is_complex(T(M)), False),
    ("is_floating_point", lambda: ops.is_floating_point(T(np.array([1, 2]))), False),
    # sorting
    ("sort", lambda: ops.sort(T(M)), (np.sort(M), np.argsort(M, kind="stable"))),
    ("sort_axis0_desc", lambda: ops.sort(T(M), axis=0, descending=True),
     (-np.sort(-M, 0), np.argsort(-M, 0, kind="stable"))),
    ("argsort", lambda: ops.argsort(T(N3), axis=1), np.argsort(N3, 1, kind="stable")),
    ("msort", lambda: ops.msort(T(M)), np.sort(M, 0)),
    ("topk", lambda: ops.topk(T(M), 2), (-np.sort(-M, 1)[:, :2], np.argsort(-M, 1, kind="stable")[:, :2])),
    ("topk_smallest_dim0", lambda: ops.topk(T(M), 1, dim=0, largest=False),
     (np.sort(M, 0)[:1], np.argsort(M, 0, kind="stable")[:1])),
    ("median", lambda: ops.median(T(M), 1), (np.sort(M, 1)[:, 1], np.argsort(M, 1, kind="stable")[:, 1])),
    ("searchsorted", lambda: ops.searchsorted(T(np.array([1, 3, 5, 7, 9], np.float32)),
                                              T(np.array([3, 6, 9], np.float32))),
     np.searchsorted([1, 3, 5, 7, 9], [3, 6, 9])),
    ("searchsorted_right", lambda: ops.searchsorted(T(np.array([1, 3, 5, 7, 9], np.float32)),
                                                    T(np.array([3, 6, 9], np.float32)), right=True),
     np.searchsorted([1, 3, 5, 7, 9], [3, 6, 9], side="right")),
    ("bucketize", lambda: ops.bucketize(T(np.array([[3, 6, 9], [3, 6, 9]])), [1, 3, 5, 7, 9]),
     np.array([[1, 3, 4], [1, 3, 4]], np.int32)),
    ("intopk", lambda: ops.intopk(T(np.array([[1, 8, 5, 2, 7], [4, 9, 1, 3, 5]], np.float32)),
                                  T(np.array([1, 3], np.int32)), 3), np.array([True, False])),
]


@pytest.mark.parametrize("name, call, expected", CASES, ids=[c[0] for c in CASES])
def test_reductions_and_comparisons_match_numpy(name, call, expected):
    assert_matches(call(), expected, rtol=2e-5, atol=1e-5)


def test_documented_examples():
    # ops.max(x) with x = [0.0, 0.4, 0.6, 0.7, 0.1] -> (0.7, 3) in r2.3's docs; 2.10
    # returns index 0 without an axis (test_semantics_2_10.py); with axis 0 it is 3
    values, index = ops.max(T(V), 0)
    assert abs(float(values) - 0.7) < 1e-6 and int(index) == 3
    values, index = ops.max(T(V), 0, keepdims=True)
    assert_matches(values, np.array([0.7], np.float32))
    assert_matches(index, np.array([3]))
    # ops.std(input, 1, 2, True) on [[1, 2, 3, 4], [-1, 1, 4, -10]] -> [[1.5811388] [7.3824115]]
    x = T(np.array([[1, 2, 3, 4], [-1, 1, 4, -10]], np.float32))
    assert_matches(ops.std(x, 1, 2, True), np.array([[1.5811388], [7.3824115]]))
    # ops.argmax([[1, 20, 5], [67, 8, 9], [130, 24, 15]], dim=-1) -> [1 0 0]
    x = T(np.array([[1, 20, 5], [67, 8, 9], [130, 24, 15]], np.float32))
    assert_matches(ops.argmax(x, dim=-1), np.array([1, 0, 0]))
    # ops.sort([[8, 2, 1], [5, 9, 3], [4, 6, 7]]) -> values and indices
    s = T(np.array([[8, 2, 1], [5, 9, 3], [4, 6, 7]], np.float16))
    assert_matches(ops.sort(s), (np.array([[1, 2, 8], [3, 5, 9], [4, 6, 7]], np.float16),
                                 np.array([[2, 1, 0], [2, 0, 1], [0, 1, 2]])))
    # ops.nanmedian example (r2.3.1 docs)
    x = T(np.array([[0.57, 0.11, np.nan], [0.38, np.nan, np.nan], [0.36, 0.16, np.nan]], np.float32))
    values, index = ops.nanmedian(x, axis=0)
    assert_matches(values, np.array([0.38, 0.11, np.nan], np.float32))
    assert_matches(index, np.array([1, 0, 0]))
    # ops.cummax example (axis 0)
    c = T(np.array([[3, 4, 6, 10], [1, 6, 7, 9], [4, 3, 8, 7], [1, 3, 7, 9]], np.float32))
    values, indices = ops.cummax(c, axis=0)
    assert_matches(values, np.array([[3, 4, 6, 10], [3, 6, 7, 10], [4, 6, 8, 10], [4, 6, 8, 10]]))
    assert_matches(indices, np.array([[0, 0, 0, 0], [0, 1, 1, 0], [2, 1, 2, 0], [2, 1, 2, 0]]))


def test_sort_and_topk_handle_long_vectors():
    # 300k elements: a comparison grid (n x n) would need terabytes
    x = np.random.default_rng(0).standard_normal(300_000).astype(np.float32)
    values, indices = ops.sort(T(x), descending=True)
    assert_matches(values, -np.sort(-x))
    assert_matches(ops.topk(T(x), 3)[1], np.argsort(-x, kind="stable")[:3])


def test_cumulative_functions_handle_long_axes():
    # 100k steps: an n x n mask over the axis would need 10^10 elements
    x = np.random.default_rng(1).uniform(0.5, 1.5, 100_000).astype(np.float64)
    assert_matches(ops.cumprod(T(x), 0)[-5:], np.cumprod(x)[-5:], rtol=1e-9)
    values, indices = ops.cummax(T(x), 0)
    assert_matches(values[-3:], np.maximum.accumulate(x)[-3:])
    assert_matches(ops.logcumsumexp(T(x), 0)[-1:], np.logaddexp.accumulate(x)[-1:], rtol=1e-9)


def test_sort_is_stable_and_topk_rejects_big_k():
    values, indices = ops.sort(T(np.array([2.0, 1.0, 2.0, 1.0], np.float32)))
    assert indices.asnumpy().tolist() == [1, 3, 0, 2]
    with pytest.raises(Exception, match="k out of range"):
        ops.topk(T(M), 5)


GRADS = [
    ("max_values", lambda t: ops.max(t, 1)[0], M),
    ("amax", lambda t: ops.amax(t, 0), M),
    ("sort_values", lambda t: ops.sort(t, 1)[0], DISTINCT),
    ("topk_values", lambda t: ops.topk(t, 2, dim=0)[0], DISTINCT),
    ("cumprod", lambda t: ops.cumprod(t, 1), M),
    ("cummax_values", lambda t: ops.cummax(t, 1)[0], DISTINCT),
    ("logcumsumexp", lambda t: ops.logcumsumexp(t, 0), M),
    ("norm3", lambda t: ops.norm(t, 3, dim=1), M),
    ("nanmean", lambda t: ops.nanmean(t, 1), M),
    ("std", lambda t: ops.std(t, 0, ddof=1), M),
    ("median", lambda t: ops.median(t, 1)[0], DISTINCT),
    ("nanmedian", lambda t: ops.nanmedian(t, 0, keepdims=True)[0], DISTINCT),
]


@pytest.mark.parametrize("name, fn, x", GRADS, ids=[g[0] for g in GRADS])
def test_gradients_match_central_differences(name, fn, x):
    assert_grad_matches(fn, x)


def test_graph_mode_matches_pynative():
    def f(x):
        values, indices = ops.topk(x, 2)
        cm, _ = ops.cummax(x, 1)
        return values, indices, ops.cumprod(x, 0), cm, ops.norm(x, 1), ops.median(x, 0)[0]
    x = T(M)
    for eager, compiled in zip(f(x), in_graph(f, x)):
        assert_matches(compiled, eager.asnumpy())


def test_comparisons_in_graph_mode():
    def f(x, y):
        return (ops.isclose(x, y, equal_nan=True), ops.searchsorted(ops.sort(x[0])[0], y[0]),
                ops.bucketize(x, [-1.0, 2.0, 5.0]), ops.intopk(x, ops.argmin(y, 1), 2),
                ops.fmax(x, y), ops.nanmean(x, 1), ops.histc(x, bins=3, min=-8.0, max=8.0),
                ops.isposinf(ops.div(x, 0.0)))
    x, y = T(M), T(np.where(M > 4, np.nan, M[::-1]).astype(np.float32))
    for eager, compiled in zip(f(x, y), in_graph(f, x, y)):
        assert_matches(compiled, eager.asnumpy())
