"""oneDNN's normalize (batch and layer normalisation), softmax and matmul
kernels agree with NumPy's to float32 rounding; float64 and what oneDNN does not serve
(other normalisation axes) get NumPy's kernel behind the onednn provider."""
import logging

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from sporeling.onednn.kernels import _serve
from sporeling.onednn.kernels import matmul as matmul_module
from sporeling.runtime import get_backend

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
EPS32 = float(np.finfo(np.float32).eps)


@pytest.fixture(scope="module")
def backends():
    return get_backend("numpy"), get_backend("onednn")


@pytest.fixture
def every_matmul(monkeypatch):
    """oneDNN serves products of any size (it leaves small ones to NumPy)."""
    monkeypatch.setattr(matmul_module, "MIN_MACS", 0)


@pytest.fixture
def onednn_only(monkeypatch):
    """Fail if a call falls back to NumPy's kernel (so a pass means oneDNN served it)."""
    def refuse(primitive):
        raise AssertionError(f"{primitive} fell back to NumPy")
    monkeypatch.setattr(_serve, "numpy_kernel", refuse)


@pytest.fixture
def fallbacks(monkeypatch):
    """The primitives that fell back to NumPy's kernel, in order."""
    seen, original = [], _serve.numpy_kernel

    def spy(primitive):
        seen.append(primitive)
        return original(primitive)
    monkeypatch.setattr(_serve, "numpy_kernel", spy)
    return seen


def arrays(shapes, lo=-10.0, hi=10.0, dtype=np.float32):
    return shapes.flatmap(lambda s: hnp.arrays(dtype, s, elements=st.floats(
        lo, hi, width=np.dtype(dtype).itemsize * 8)))


def assert_close(got, want, scale, factor=16):
    """Within ``factor`` float32 roundings of ``scale`` (the magnitude the result is
    computed from: elementwise or a scalar)."""
    assert got.shape == want.shape and got.dtype == want.dtype
    bound = factor * EPS32 * np.asarray(scale, np.float64) + 1e-30
    excess = np.abs(got.astype(np.float64) - want) - bound
    assert (excess <= 0).all(), f"off by {np.max(excess + bound):.3g} > {np.max(bound):.3g}"


# ---- normalize ------------------------------------------------------------------------

@st.composite
def normalize_cases(draw):
    """x and the axes of batch norm (every axis but 1) or layer norm (trailing axes)."""
    ndim = draw(st.integers(1, 5))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim)))
    x = draw(arrays(st.just(shape)))
    if ndim >= 2 and draw(st.booleans()):
        axis = (0,) + tuple(range(2, ndim))
    else:
        k = draw(st.integers(1, ndim))
        axis = tuple(range(ndim - k, ndim))
    return x, axis


def check_normalize(got, want, x, eps):
    (y, mean, var), (y0, mean0, var0) = got, want
    size = float(np.max(np.abs(x), initial=0.0))
    n = x.size // mean0.size
    # the mean to a rounding of |x| per summand; the variance to that of |x|^2; y to the
    # mean's error amplified by 1 / sqrt(var + eps)
    assert_close(mean, mean0, size * n)
    assert_close(var, var0, size * size * n)
    assert_close(y, y0, 1 + size * n / np.sqrt(var0.astype(np.float64) + eps))


@SETTINGS
@given(normalize_cases(), st.sampled_from([1e-5, 0.1]))
def test_normalize_matches_numpy(backends, onednn_only, case, eps):
    x, axis = case
    numpy, onednn = backends
    got = onednn.run("normalize", x, axis=axis, eps=eps)
    check_normalize(got, numpy.run("normalize", x, axis=axis, eps=eps), x, eps)


def test_normalize_writes_given_outputs_contiguous_or_not(backends, onednn_only):
    numpy, onednn = backends
    x = np.random.default_rng(0).standard_normal((4, 3, 5, 5)).astype(np.float32)
    y = np.empty((4, 3, 5, 5), np.float32)
    mean = np.empty((1, 3, 1, 1), np.float32)
    var = np.empty((1, 3, 2, 1), np.float32)[:, :, :1]  # a view, not contiguous
    got = onednn.run("normalize", x, out=(y, mean, var), axis=(0, 2, 3), eps=1e-5)
    assert got[0] is y and got[1] is mean and got[2] is var
    check_normalize(got, numpy.run("normalize", x, axis=(0, 2, 3), eps=1e-5), x, 1e-5)


def test_normalize_over_other_axes_falls_back_to_numpy(backends, fallbacks, caplog):
    numpy, onednn = backends
    x = np.random.default_rng(1).standard_normal((3, 4, 5)).astype(np.float32)
    with caplog.at_level(logging.INFO, logger="sporeling.onednn"):
        got = onednn.run("normalize", x, axis=(1,), eps=1e-5)
    assert onednn.provider("normalize") == "onednn" and fallbacks == ["normalize"]
    for g, w in zip(got, numpy.run("normalize", x, axis=(1,), eps=1e-5)):
        np.testing.assert_array_equal(g, w)
    assert "not served" in caplog.text


# ---- softmax ---------------------------------------------------------------------------

@SETTINGS
@given(arrays(hnp.array_shapes(min_dims=1, max_dims=4, max_side=5)), st.data())
def test_softmax_matches_numpy(backends, onednn_only, x, data):
    numpy, onednn = backends
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    # to roundings of 1 (probabilities)
    assert_close(onednn.run("softmax", x, axis=axis), numpy.run("softmax", x, axis=axis),
                 1.0)


def test_log_softmax_stays_on_numpys_kernel_for_precision(backends):
    numpy, onednn = backends
    x = np.array([[-3.7, -1.9, -1.1, -0.7], [-7.2, -6.6, -5.5, 0.0]], np.float32)
    assert onednn.provider("log_softmax") == "numpy"
    np.testing.assert_array_equal(onednn.run("log_softmax", x, axis=-1),
                                  numpy.run("log_softmax", x, axis=-1))


# ---- matmul ---------------------------------------------------------------------------

@st.composite
def matmul_cases(draw):
    """Operands of 1 to 4 axes, batch axes broadcasting, each maybe a transposed view."""
    m, k, n = (draw(st.integers(1, 6)) for _ in range(3))
    batch = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=3))
    a_shape = batch.input_shapes[0] + (m, k) if draw(st.integers(0, 4)) else (k,)
    b_shape = batch.input_shapes[1] + (k, n) if draw(st.integers(0, 4)) else (k,)
    operands = []
    for shape in (a_shape, b_shape):
        transposed = len(shape) >= 2 and draw(st.booleans())
        stored = shape[:-2] + shape[:-3:-1] if transposed else shape
        x = draw(arrays(st.just(stored), -3, 3))
        operands.append(np.swapaxes(x, -1, -2) if transposed else x)
    return operands


def check_matmul(got, a, b):
    want = np.matmul(a.astype(np.float64), b.astype(np.float64))
    scale = np.matmul(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
    assert_close(got, want.astype(np.float32), scale + np.abs(want), factor=8)


@SETTINGS
@given(matmul_cases())
def test_matmul_matches_numpy(backends, onednn_only, every_matmul, operands):
    numpy, onednn = backends
    a, b = operands
    got = onednn.run("matmul", a, b)
    assert got.shape == numpy.run("matmul", a, b).shape
    check_matmul(got, a, b)


def test_matmul_reads_transposed_views_in_place(backends, onednn_only, every_matmul,
                                                monkeypatch):
    """``x.T @ g`` and ``g @ W.T`` as the backward pass makes them: no copies."""
    def no_copies(*arrays):
        raise AssertionError("copied an operand")
    monkeypatch.setattr(matmul_module, "_copies", no_copies)
    rng = np.random.default_rng(2)
    x, g, w, v, u = (rng.standard_normal(s).astype(np.float32)
                     for s in ((16, 12), (16, 8), (12, 8), (3, 8, 5), (3, 5, 12)))
    _, onednn = backends
    for a, b in ((x.T, g), (g, w.T), (x[::2], w), (np.broadcast_to(g, (3, 16, 8)), v),
                 (w.T, np.swapaxes(u, 1, 2))):
        check_matmul(onednn.run("matmul", a, b), a, b)


def test_matmul_copies_a_layout_onednn_reads_only_slowly(backends, onednn_only, every_matmul):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((5, 14)).astype(np.float32)[:, ::2]  # columns 2 apart
    b = rng.standard_normal((7, 3)).astype(np.float32)
    check_matmul(backends[1].run("matmul", a, b), a, b)


def test_small_products_go_to_numpy_large_ones_to_onednn(backends, fallbacks, monkeypatch):
    monkeypatch.setattr(matmul_module, "MIN_MACS", 1000)
    rng = np.random.default_rng(5)
    a, b, c = (rng.standard_normal(s).astype(np.float32) for s in ((10, 10), (10, 9), (10, 18)))
    for x, y, served in ((a, b, "numpy"), (a, c, "onednn"), (np.stack([a] * 3), b, "onednn")):
        fallbacks.clear()
        check_matmul(backends[1].run("matmul", x, y), x, y)
        assert fallbacks == (["matmul"] if served == "numpy" else [])
    assert not _serve._REFUSED  # said nowhere: the small one was never offered to oneDNN


# ---- float64 and the providers --------------------------------------------------------

@pytest.mark.parametrize("primitive, params, shapes", [
    ("normalize", {"axis": (0, 2, 3), "eps": 1e-5}, [(2, 3, 4, 4)]),
    ("normalize", {"axis": (1,), "eps": 1e-5}, [(2, 3)]),
    ("softmax", {"axis": 1}, [(3, 4)]),
    ("matmul", {}, [(3, 4), (4, 5)]),
])
def test_float64_is_served_by_numpys_kernel(backends, fallbacks, primitive, params, shapes):
    numpy, onednn = backends
    rng = np.random.default_rng(4)
    inputs = [rng.standard_normal(s) for s in shapes]
    got = onednn.run(primitive, *inputs, **params)
    want = numpy.run(primitive, *inputs, **params)
    assert onednn.provider(primitive) == "onednn" and fallbacks == [primitive]
    for g, w in zip(*((r,) if isinstance(r, np.ndarray) else r for r in (got, want))):
        assert g.dtype == np.float64
        np.testing.assert_array_equal(g, w)


def test_memory_facts_mirror_numpys_without_in_place(backends):
    numpy, onednn = backends
    for primitive in ("normalize", "softmax", "matmul"):
        facts = onednn.kernel_memory(primitive)
        assert facts.kind == numpy.kernel_memory(primitive).kind and facts.in_place == ()
