"""The generated kernels over rows against NumPy's: ``softmax_cross_entropy`` and its
gradient (any rows and classes, float32/float64 logits with NaN and infinities, int32/int64
labels with ignored ones, every reduction; a label out of range named as NumPy's kernel
names it) and ``normalize`` over trailing axes; one function for every batch size; what
runs on the provider below."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.core import ShapeError
from sporeling.runtime import get_backend, get_kernels
from sporeling.tvm_backend import kernels, row_kernels

TVM, NUMPY = get_backend("tvm"), get_backend("numpy")
_LOSS = get_kernels().lookup("numpy", "softmax_cross_entropy")
_GRAD = get_kernels().lookup("numpy", "softmax_cross_entropy_grad")
_NORM = get_kernels().lookup("numpy", "normalize")


def _operands(rows, classes, dtype, label_dtype, seed, specials):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((rows, classes)) * 3).astype(dtype)
    if specials:
        x.reshape(-1)[rng.integers(0, x.size, 2)] = rng.choice([np.nan, np.inf, -np.inf], 2)
    labels = rng.integers(0, classes, rows).astype(label_dtype)
    labels[rng.random(rows) < 0.2] = -100  # ignored
    return x, labels


def _close(got, want, dtype):
    tol = 1e-12 if dtype == "float64" else 2e-6
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)  # NaN where NumPy has NaN


@settings(max_examples=12, deadline=None)  # each (classes, dtypes, reduction) compiles
@given(st.integers(1, 9), st.integers(1, 12), st.sampled_from(["float32", "float64"]),
       st.sampled_from(["int32", "int64"]), st.sampled_from(["mean", "sum", "none"]),
       st.booleans(), st.integers(0, 2**16))
def test_loss_and_gradient_equal_numpys(rows, classes, dtype, label_dtype, reduction,
                                        specials, seed):
    x, labels = _operands(rows, classes, dtype, label_dtype, seed, specials)
    params = {"reduction": reduction, "ignore_index": -100}
    with np.errstate(all="ignore"):
        want = _LOSS(NUMPY, x, labels, **params)
        ct = np.asarray(np.linspace(0.5, 1.5, rows) if reduction == "none" else 0.7, dtype)
        want_dx = _GRAD(NUMPY, x, labels, ct, **params)
    _close(row_kernels.softmax_cross_entropy(TVM, x, labels, **params), want, dtype)
    _close(row_kernels.softmax_cross_entropy_grad(TVM, x, labels, ct, **params), want_dx, dtype)


def test_every_row_ignored_gives_numpys_nan_mean():
    x, labels = _operands(3, 4, "float32", "int64", 0, False)
    labels[:] = -100
    params = {"reduction": "mean", "ignore_index": -100}
    with np.errstate(all="ignore"):
        assert np.isnan(row_kernels.softmax_cross_entropy(TVM, x, labels, **params))
        assert np.isnan(_LOSS(NUMPY, x, labels, **params))


def test_one_function_serves_every_batch_size(monkeypatch):
    kernels.forget()
    params = {"reduction": "mean", "ignore_index": -100}
    row_kernels.softmax_cross_entropy(TVM, *_operands(32, 10, "float32", "int32", 0, False),
                                    **params)
    monkeypatch.setattr(kernels, "_load", lambda chains: pytest.fail("compiled again"))
    for rows in (1, 7, 30):
        x, labels = _operands(rows, 10, "float32", "int32", rows, False)
        _close(row_kernels.softmax_cross_entropy(TVM, x, labels, **params),
               _LOSS(NUMPY, x, labels, **params), "float32")


def test_a_label_out_of_range_is_named_as_numpy_names_it():
    x, labels = _operands(4, 5, "float32", "int32", 1, False)
    labels[2] = 7
    for call in (lambda: row_kernels.softmax_cross_entropy(TVM, x, labels, reduction="sum",
                                                         ignore_index=-100),
                 lambda: row_kernels.softmax_cross_entropy_grad(
                     TVM, x, labels, np.float32(1.0), reduction="sum", ignore_index=-100)):
        with pytest.raises(ShapeError, match="target class out of range.*got 7"):
            call()


def test_what_is_not_generated_runs_the_provider_below(caplog):
    caplog.set_level("INFO", "sporeling.tvm")
    x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)  # (N, C, d)
    labels = np.zeros((2, 4), np.int64)
    params = {"reduction": "mean", "ignore_index": -100}
    np.testing.assert_array_equal(row_kernels.softmax_cross_entropy(TVM, x, labels, **params),
                                  _LOSS(NUMPY, x, labels, **params))
    assert "provider below" in caplog.text


@settings(max_examples=10, deadline=None)  # each (row length, dtype, eps) compiles
@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.integers(1, 2),
       st.sampled_from(["float32", "float64"]), st.booleans(), st.integers(0, 2**16))
def test_normalize_over_trailing_axes_equals_numpys(lead, trailing, dtype, specials, seed):
    rng = np.random.default_rng(seed)
    shape = tuple(lead) + tuple(rng.integers(1, 20, trailing))
    x = (rng.standard_normal(shape) * 4 + 2).astype(dtype)
    if specials:
        x.reshape(-1)[0] = np.nan
    axis = tuple(range(len(shape) - trailing, len(shape)))
    got = row_kernels.normalize(TVM, x, axis=axis, eps=1e-5)
    with np.errstate(all="ignore"):
        want = _NORM(NUMPY, x, axis=axis, eps=1e-5)
    for g, w in zip(got, want):
        tol = 1e-12 if dtype == "float64" else 2e-6
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * 10)


def test_normalize_serves_every_batch_size_and_hands_other_axes_below(monkeypatch, caplog):
    kernels.forget()
    x = np.random.default_rng(0).standard_normal((4, 3, 16)).astype(np.float32)
    row_kernels.normalize(TVM, x, axis=(2,), eps=1e-5)
    monkeypatch.setattr(kernels, "_load", lambda chains: pytest.fail("compiled again"))
    for rows in (1, 9):
        y = np.random.default_rng(rows).standard_normal((rows, 16)).astype(np.float32)
        for g, w in zip(row_kernels.normalize(TVM, y, axis=(1,), eps=1e-5),
                        _NORM(NUMPY, y, axis=(1,), eps=1e-5)):
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=2e-6)
    caplog.set_level("INFO", "sporeling.tvm")
    images = np.random.default_rng(1).standard_normal((2, 3, 4, 4)).astype(np.float32)
    for g, w in zip(row_kernels.normalize(TVM, images, axis=(0, 2, 3), eps=1e-5),  # batch norm
                    TVM.below_kernel("normalize")(TVM, images, axis=(0, 2, 3), eps=1e-5)):
        np.testing.assert_array_equal(g, w)
    assert "trailing axes are generated" in caplog.text
