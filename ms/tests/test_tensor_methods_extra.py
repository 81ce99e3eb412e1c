"""``ms.Tensor`` methods added for issue 22's coverage: decompositions and solvers
(``tensor_methods_linalg``) and the data's place and flags (``tensor_methods_host``).
References: NumPy/SciPy, and the examples of MindSpore 2.10's docstrings."""
import importlib.util
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.special
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sporeling.ms as ms
from sporeling.ms.common.eager import EagerOnlyError

T = ms.Tensor
floats = st.floats(-4, 4, allow_nan=False, width=32)


def _spd(n, seed):
    a = np.random.default_rng(seed).normal(size=(n, n))
    return (a @ a.T + n * np.eye(n)).astype(np.float32)


# --- decompositions and solvers --------------------------------------------------------------
def test_geqrf_matches_the_2_10_example():
    y, tau = T([[-2.0, -1.0], [1.0, 2.0]]).geqrf()
    np.testing.assert_allclose(y.asnumpy(), [[2.236068, 1.7888544], [-0.236068, 1.3416407]],
                               rtol=1e-5)
    np.testing.assert_allclose(tau.asnumpy(), [1.8944271, 0.0], atol=1e-6)


@settings(max_examples=20, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(2, 5), st.integers(1, 4)), elements=floats))
def test_geqrf_then_orgqr_and_ormqr_rebuild_q(a):
    m, n = a.shape
    if n > m or np.linalg.matrix_rank(a) < n:
        return
    y, tau = T(a).geqrf()
    q = y.orgqr(tau).asnumpy()
    r = np.triu(y.asnumpy())[:n]
    np.testing.assert_allclose(q @ r, a, atol=1e-9)
    if n < m:  # ms.ops.ormqr (which the method calls) refuses n < m reflectors for now
        return
    other = np.eye(m)
    full_q = y.ormqr(tau, T(other)).asnumpy()      # Q @ I: the complete Q
    np.testing.assert_allclose(full_q[:, :n], q, atol=1e-9)
    np.testing.assert_allclose(y.ormqr(tau, T(other), transpose=True).asnumpy(), full_q.T,
                               atol=1e-9)


def test_qr_reduced_and_complete():
    a = np.random.default_rng(0).normal(size=(4, 3)).astype(np.float32)
    q, r = T(a).qr()
    assert q.shape == (4, 3) and r.shape == (3, 3) and q.dtype == np.float32
    np.testing.assert_allclose((q @ r).asnumpy(), a, atol=1e-5)
    q, r = T(a).qr(some=False)
    assert q.shape == (4, 4) and r.shape == (4, 3)


def test_lstsq_solves_least_squares():
    rng = np.random.default_rng(1)
    x, a = rng.normal(size=(5, 3)), rng.normal(size=(5, 2))
    want = np.linalg.lstsq(x, a, rcond=None)[0]
    np.testing.assert_allclose(T(x).lstsq(T(a)).asnumpy(), want, rtol=1e-10)


def test_lu_solve_matches_the_2_10_example():
    b = T([[1.0], [3.0], [3.0]])
    lu = T([[2.0, 1.0, 1.0], [0.5, 1.0, 1.5], [0.5, 0.0, 2.5]])
    y = b.lu_solve(lu, T([2, 2, 3], ms.int32))
    np.testing.assert_allclose(y.asnumpy(), [[1.9], [-1.4], [0.6]], rtol=1e-5)


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
def test_triangular_solve(upper, transpose):
    rng = np.random.default_rng(2)
    a = rng.normal(size=(2, 3, 3)) + 4 * np.eye(3)
    a = np.triu(a) if upper else np.tril(a)
    b = rng.normal(size=(2, 3, 4))
    x, a_out = T(b).triangular_solve(T(a), upper=upper, transpose=transpose)
    op = np.swapaxes(a, -1, -2) if transpose else a
    np.testing.assert_allclose(op @ x.asnumpy(), b, atol=1e-10)
    np.testing.assert_array_equal(a_out.asnumpy(), a)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_is_differentiable(upper):
    a = _spd(3, 3).astype(np.float64)
    factor = np.linalg.cholesky(a)
    factor = factor.T if upper else factor
    np.testing.assert_allclose(T(factor).cholesky_inverse(upper=upper).asnumpy(),
                               np.linalg.inv(a), rtol=1e-8)
    grad = ms.grad(lambda f: f.cholesky_inverse(upper=upper).sum())(T(factor))
    assert grad.shape == (3, 3) and np.all(np.isfinite(grad.asnumpy()))


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 6),
                  elements=st.floats(-6, 6).filter(lambda v: abs(v - round(v)) > 1e-3)))
def test_lgamma_matches_scipy(x):
    np.testing.assert_allclose(T(x).lgamma().asnumpy(), scipy.special.gammaln(x),
                               rtol=1e-8, atol=1e-8)


def test_lgamma_gradient_is_digamma():
    x = np.array([0.3, 1.5, 4.0, -0.5])
    got = ms.grad(lambda t: t.lgamma().sum())(T(x))
    np.testing.assert_allclose(got.asnumpy(), scipy.special.digamma(x), rtol=1e-6)


def test_determinants():
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    np.testing.assert_allclose(T(a).matrix_determinant().asnumpy(), -2.0, rtol=1e-6)
    sign, logabs = T(a).log_matrix_determinant()
    assert sign.asnumpy() == -1.0
    np.testing.assert_allclose(logabs.asnumpy(), np.log(2.0), rtol=1e-6)


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(2, 5)),
                  elements=st.one_of(st.floats(-5, 5), st.just(np.nan))),
       st.sampled_from([0.0, 0.25, 0.5, 1.0]), st.sampled_from([None, 0, 1]))
def test_nanquantile_matches_numpy(x, q, axis):
    with warnings.catch_warnings():  # an all-NaN slice warns (its quantile is NaN)
        warnings.simplefilter("ignore")
        want = np.nanquantile(x, q, axis=axis)
        got = T(x).nanquantile(q, axis=axis).asnumpy()
    np.testing.assert_allclose(got, want)


def test_choose_matches_the_2_10_example_and_modes():
    choices = [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]
    assert T([2, 3, 1, 0]).choose(choices).tolist() == [20, 31, 12, 3]
    assert T([5, -1]).choose([[0, 1], [10, 11]]).tolist() == [10, 1]          # clip
    assert T([3, -1]).choose([[0, 1], [10, 11]], mode="wrap").tolist() == [10, 11]
    with pytest.raises(ms.common.eager.SporelingError, match="out of range"):
        T([2]).choose([[0], [1]], mode="raise")


def test_eager_only_methods_refuse_graph_mode():
    @ms.jit
    def f(x):
        return x.qr()[0]
    with pytest.raises(EagerOnlyError):
        f(T(np.eye(2, dtype=np.float32)))


# --- the data's place and flags ---------------------------------------------------------------
def test_device_move_to_and_to_():
    x = T([1, 2, 3], ms.int64)
    assert x.device == "CPU"
    y = x.move_to("CPU")
    assert y is not x and y.tolist() == [1, 2, 3]
    assert x.to_("CPU") is x
    with pytest.raises(ms.common.eager.SporelingError, match="host memory"):
        x.move_to("Ascend")


def test_bytes_pointer_and_dlpack_share_or_copy_as_documented():
    x = T([1, 2, 3], ms.int16)
    assert x.get_bytes() == b"\x01\x00\x02\x00\x03\x00"      # 2.10's example
    f = T(np.arange(4, dtype=np.float32))
    shared = ms.Tensor.from_dlpack(f.to_dlpack())
    assert shared.data_ptr() == f.data_ptr()
    np.testing.assert_array_equal(shared.asnumpy(), f.asnumpy())


def test_assign_value_set_and_value():
    x = T([1, 2, 3, 4])
    assert x.assign_value(T(np.array([[1, 2], [3, 4]]))) is x
    assert x.shape == (2, 2) and x.tolist() == [[1, 2], [3, 4]]
    assert x.value() is x
    src = T([5, 6, 7])
    assert x.set_(src) is x and x.shape == (3,) and x.tolist() == [5, 6, 7]
    assert x.data_ptr() == src.data_ptr()          # shared, as 2.10's set_ does
    assert x.set_() is x and x.shape == (0,)


def test_itemset_returns_a_new_tensor():
    x = T(np.array([[1, 2, 3], [4, 5, 6]], np.float32))
    assert x.itemset((0, 1), 4).tolist() == [[1, 4, 3], [4, 5, 6]]     # 2.10's example
    assert x.tolist() == [[1, 2, 3], [4, 5, 6]]
    assert x.itemset(4, 9).tolist() == [[1, 2, 3], [4, 9, 6]]
    assert T([2.5]).itemset(1.5).tolist() == [1.5]


def test_resize_pads_with_zeros_or_truncates():
    x = T(np.array([[1, 2, 3], [4, 5, 6]], np.float32))
    assert x.resize(3, 3).tolist() == [[1, 2, 3], [4, 5, 6], [0, 0, 0]]   # 2.10's examples
    assert x.resize((2, 2)).tolist() == [[1, 2], [3, 4]]
    assert x.resize() is x


@settings(max_examples=15, deadline=None)
@given(st.integers(-50, 50), st.integers(1, 60))
def test_random_fills_in_place_within_bounds(low, width):
    x = T(np.zeros((4, 5), np.int32))
    assert x.random_(low, low + width) is x
    values = x.asnumpy()
    assert x.dtype == np.int32 and values.min() >= low and values.max() <= low + width - 1


def test_uniform_is_a_new_tensor_in_range():
    x = ms.ops.ones((4, 2), ms.float32)
    y = x.uniform(1.0, 2.0)
    assert y.shape == (4, 2) and y.dtype == np.float32
    assert np.all((y.asnumpy() >= 1.0) & (y.asnumpy() < 2.0)) and x.tolist() == [[1, 1]] * 4


def test_sparse_conversions_match_the_2_10_example():
    x = T(np.array([[1, 0], [-5, 0]]), ms.float32)
    coo = x.to_coo()
    assert coo.indices.tolist() == [[0, 0], [1, 0]] and coo.values.tolist() == [1.0, -5.0]
    csr = x.to_csr()
    assert csr.indptr.tolist() == [0, 1, 2] and csr.indices.tolist() == [0, 0]
    assert tuple(csr.shape) == (2, 2)


def test_flags_and_host_answers():
    x = T([1.0, 2.0])
    assert x.const_arg is False and x.set_const_arg() is x and x.const_arg is True
    assert T([1.0]).const_arg is False          # per tensor
    with pytest.raises(ms.common.eager.SporelingError, match="bool"):
        x.set_const_arg(1)
    assert x.init is None and x.symbolic_shape is None and ms.Tensor.delta_seed == 0
    assert x.flush_from_cache() is None and x.is_pinned() is False and x.pin_memory() is x
    assert x.is_shared() is False


def test_unique_with_pad_follows_the_function():
    values, idx = T([3, 3, 1, 2]).unique_with_pad(0)
    assert values.tolist() == [3, 1, 2, 0] and idx.tolist() == [0, 0, 1, 2]


def test_coverage_of_tensor_reaches_95_percent():
    api = Path(__file__).resolve().parents[1] / "api"
    spec = importlib.util.spec_from_file_location("ms_api_coverage_tensor", api / "coverage.py")
    coverage = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = coverage
    spec.loader.exec_module(coverage)
    group = next(g for g in coverage.groups.GROUPS if g.key == "Tensor")
    row = coverage.compute(group_list=[group]).groups[0]
    assert row.present / row.total >= 0.95, sorted(row.absent + row.stubs)


# --- gradient hooks -----------------------------------------------------------------------------
def test_register_hook_matches_the_2_10_example():
    def hook_test(x, y):
        z = x * y
        z.register_hook(lambda grad: grad * 2)
        return z * y
    gx, gy = ms.grad(hook_test, grad_position=(0, 1))(T(1, ms.float32), T(2, ms.float32))
    assert (gx.item(), gy.item()) == (8.0, 6.0)       # 2.10's documented output


def test_register_hook_handle_removes_and_unrecorded_tensors_are_refused():
    def f(x):
        handle = x.register_hook(lambda g: g * 3)
        handle.remove()
        return (x * x).sum()
    assert ms.grad(f)(T([1.0, 2.0])).tolist() == [2.0, 4.0]
    with pytest.raises(ms.common.eager.SporelingError, match="grad in progress records"):
        T([1.0]).register_hook(lambda g: g)
    with pytest.raises(TypeError, match="hook"):
        ms.grad(lambda x: (x.register_hook(3), x.sum())[1])(T([1.0]))


# --- found by the probe of 2.10's C++ methods ---------------------------------------------------
def test_set_dtype_casts_in_place_and_returns_the_dtype():
    z = T(np.array([1.7, -2.5, 3.2], np.float32))
    assert z.set_dtype(ms.int32) == ms.int32
    assert z.dtype == np.int32 and z.tolist() == [1, -2, 3]        # 2.10 gives the same


def test_set_refuses_another_dtype_as_2_10_does():
    x = T([1, 2], ms.int32)
    with pytest.raises(ms.common.eager.SporelingError, match="own dtype"):
        x.set_(T([5.0, 6.0]))


def test_index_is_advanced_indexing():
    y = T(np.array([[1, 2, 3], [4, 5, 6]], np.float32))
    assert y.index((T([0, 1]), T([2, 0]))).tolist() == [3.0, 4.0]
    assert y.index([T([1])]).tolist() == [[4.0, 5.0, 6.0]]
    with pytest.raises(ms.common.eager.SporelingError, match="tuple of Tensors"):
        y.index(0)


def test_storage_shares_the_bytes():
    x = T(np.array([1.0, 2.0, 3.0], np.float32))
    s = x.untyped_storage()
    assert (s.nbytes(), s.size(), len(s), s.element_size()) == (12, 12, 12, 1)
    assert s.data_ptr() == x.data_ptr() and s.device == "CPU" and not s.is_shared()
    s.copy_(T(np.array([7.0, 8.0, 9.0], np.float32)).storage())
    assert x.tolist() == [7.0, 8.0, 9.0]


def test_bytes_round_trip_through_convert_bytes_to_tensor():
    x = T([1, 2, 3], ms.int16)
    y = ms.Tensor.convert_bytes_to_tensor(x.get_bytes(), x.shape, x.dtype)
    assert y.dtype == np.int16 and y.tolist() == [1, 2, 3]


def test_host_attributes_as_2_10_reports_them():
    x = T([1.0])
    assert x.is_meta is False and x.init_finished is True
    assert x.data_sync() is None and x.wait_pipeline() is None


def test_hooks_lists_the_active_hooks():
    seen = []

    def f(a):
        hook = (lambda g: g * 2)
        handle = a.register_hook(hook)
        seen.append(a.hooks() == [hook])
        handle.remove()
        seen.append(a.hooks() == [])
        return (a * a).sum()
    ms.grad(f)(T([1.0, 2.0]))
    assert seen == [True, True] and T([1.0]).hooks() == []
