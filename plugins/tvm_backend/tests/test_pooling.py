"""The generated ``max_pool2d`` and ``max_pool2d_scatter`` against NumPy's kernels: windows,
strides, padding and dilation drawn by hypothesis, NaN, infinities and signed zeros, any
argmax for the gradient; one function for every batch size; strided operands and
``out=``; what runs on the provider below; a Graph-mode gradient through pooling."""
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.runtime import get_backend, get_kernels
from sporeling.tvm_backend import kernels, pool_kernel
from sporeling.tvm_backend.pooling import PoolSpec
from sporeling.tvm_backend.target import target, tvm
from sporeling.tvm_backend.tir_text import parsed

TVM, NUMPY = get_backend("tvm"), get_backend("numpy")
_FORWARD = get_kernels().lookup("numpy", "max_pool2d")
_SCATTER = get_kernels().lookup("numpy", "max_pool2d_scatter")


@st.composite
def _geometries(draw):
    kernel = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    stride = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    dilation = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    # padding at most half the window, as the primitive allows
    padding = tuple((draw(st.integers(0, k // 2)), draw(st.integers(0, k // 2)))
                    for k in kernel)
    size = tuple(draw(st.integers(d * (k - 1) + 1, 9)) for k, d in zip(kernel, dilation))
    shape = (draw(st.integers(1, 3)), draw(st.integers(1, 3))) + size
    return shape, {"kernel_size": kernel, "stride": stride, "padding": padding,
                   "dilation": dilation}


def _image(shape, dtype, seed):
    """Normal values with NaN, +-inf and signed zeros sprinkled in, ties included."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).round(1).astype(dtype)
    flat = x.reshape(-1)
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0], dtype)
    at = rng.choice(flat.size, size=flat.size // 6, replace=False)
    flat[at] = rng.choice(specials, size=at.size)
    return x


def _assert_same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # NaN equals NaN here


@settings(max_examples=15, deadline=None)  # each geometry compiles (~0.4 s)
@given(_geometries(), st.sampled_from(["float32", "float64"]), st.integers(0, 2**16))
def test_max_pooling_equals_numpys(geometry, dtype, seed):
    shape, params = geometry
    x = _image(shape, dtype, seed)
    got = pool_kernel.max_pool2d(TVM, x, **params)
    want = _FORWARD(NUMPY, x, **params)
    for g, w in zip(got, want):
        _assert_same(g, w)
    # the maximum's sign as NumPy's (the first of equal zeros): compare the bits
    assert np.array_equal(np.signbit(got[0]), np.signbit(want[0]))


@settings(max_examples=15, deadline=None)  # each geometry compiles (~0.4 s)
@given(_geometries(), st.sampled_from(["float32", "float64"]), st.integers(0, 2**16))
def test_its_gradient_equals_numpys_for_any_argmax(geometry, dtype, seed):
    """Any window offset, padding ones included (they reach nothing), summed where
    windows overlap in the order NumPy adds them."""
    shape, params = geometry
    _, index = _FORWARD(NUMPY, np.zeros(shape, dtype), **params)
    rng = np.random.default_rng(seed)
    g = rng.standard_normal(index.shape).astype(dtype)
    index = rng.integers(0, params["kernel_size"][0] * params["kernel_size"][1], index.shape)
    params = {**params, "input_size": shape[2:]}
    _assert_same(pool_kernel.max_pool2d_scatter(TVM, g, index, **params),
                 _SCATTER(NUMPY, g, index, **params))


_LENET = {"kernel_size": (2, 2), "stride": (2, 2), "padding": ((0, 0), (0, 0)),
          "dilation": (1, 1)}


_PADDED = {"kernel_size": (3, 3), "stride": (2, 2), "padding": ((1, 1), (1, 1)),
           "dilation": (1, 1)}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size, params", [
    ((28, 28), _LENET), ((20, 20), _LENET), ((18, 34), _LENET), ((6, 6), _LENET),
    ((2, 2), _LENET), ((20, 20), _PADDED), ((19, 13), _PADDED)])
def test_wide_images_every_column_block(size, params, dtype):
    """Images wider than the hypothesis draws: the output columns run in blocks of up to
    8, the last ending at the row's end and overlapping the one before (14 columns: 8
    and 8 from the 6th; 17: 8, 8 and 4 from the 13th), the windows reaching the padding
    apart from the inside ones; every column as NumPy's kernel gives it."""
    x = _image((2, 3) + size, dtype, sum(size))
    got = pool_kernel.max_pool2d(TVM, x, **params)
    want = _FORWARD(NUMPY, x, **params)
    for g, w in zip(got, want):
        _assert_same(g, w)
    assert np.array_equal(np.signbit(got[0]), np.signbit(want[0]))
    grad = np.random.default_rng(1).standard_normal(want[0].shape).astype(dtype)
    scatter = {**params, "input_size": size}
    _assert_same(pool_kernel.max_pool2d_scatter(TVM, grad, want[1], **scatter),
                 _SCATTER(NUMPY, grad, want[1], **scatter))


def test_infinite_gradients_reach_only_the_argmax():
    """Where windows tile the image (each writes its own positions), a position that is
    not its window's argmax gets 0, whatever the gradient (not 0 * inf)."""
    g = np.array([[[[np.inf, -np.inf], [np.nan, 1.0]]]], np.float32)
    index = np.array([[[[0, 3], [1, 2]]]])
    params = {**_LENET, "input_size": (4, 4)}
    got = pool_kernel.max_pool2d_scatter(TVM, g, index, **params)
    want = _SCATTER(NUMPY, g, index, **params)
    _assert_same(got, want)
    assert np.count_nonzero(got) == 4


def test_one_function_serves_every_batch_size(monkeypatch):
    """The planes (samples x channels) are the function's symbolic extent: a new batch
    size (a last partial batch) compiles nothing."""
    kernels.forget()
    x = _image((4, 3, 8, 8), "float32", 0)
    pool_kernel.max_pool2d(TVM, x, **_LENET)
    monkeypatch.setattr(kernels, "_load", lambda chains: pytest.fail("compiled again"))
    for n, c in [(1, 3), (7, 3), (2, 5)]:
        x = _image((n, c, 8, 8), "float32", n)
        for g, w in zip(pool_kernel.max_pool2d(TVM, x, **_LENET), _FORWARD(NUMPY, x, **_LENET)):
            _assert_same(g, w)


def test_strided_operands_and_out_buffers():
    x = np.asfortranarray(_image((2, 3, 6, 6), "float32", 1))
    outs = tuple(np.zeros((2, 3, 3, 3, 2), dtype)[..., 0] for dtype in (np.float32, np.int64))
    got = pool_kernel.max_pool2d(TVM, x, out=outs, **_LENET)
    assert all(g is o for g, o in zip(got, outs))
    want = _FORWARD(NUMPY, x, **_LENET)
    for g, w in zip(got, want):
        _assert_same(g, w)
    params = {**_LENET, "input_size": (6, 6)}
    dx = np.zeros((2, 3, 6, 6, 2), np.float32)[..., 1]
    g = np.asfortranarray(np.ones((2, 3, 3, 3), np.float32))
    assert pool_kernel.max_pool2d_scatter(TVM, g, want[1], out=dx, **params) is dx
    _assert_same(dx, _SCATTER(NUMPY, g, want[1], **params))


@pytest.mark.parametrize("dtype", ["float16", "int32"])
def test_what_is_not_generated_runs_the_provider_below(dtype, caplog):
    caplog.set_level("INFO", "sporeling.tvm")
    x = np.arange(2 * 2 * 4 * 4).reshape(2, 2, 4, 4).astype(dtype)
    got = pool_kernel.max_pool2d(TVM, x, **_LENET)
    for g, w in zip(got, TVM.below_kernel("max_pool2d")(TVM, x, **_LENET)):
        _assert_same(g, w)
    assert "provider below" in caplog.text


def test_generated_functions_allocate_nothing_from_tvms_workspace():
    for kind in ("max_pool2d", "max_pool2d_scatter"):
        for geometry in [((8, 8), (2, 2), (2, 2), ((0, 0), (0, 0)), (1, 1)),
                         ((9, 7), (3, 3), (2, 1), ((1, 1), (1, 0)), (1, 2))]:
            func = parsed(PoolSpec(kind, *geometry, "float32").source())
            module = tvm().compile(tvm().IRModule(
                {"main": func.with_attr("global_symbol", "main")}), target=target())
            assert not re.search(r"__TVMBackendAllocWorkspace", module.mod.inspect_source("ll"))


def test_a_program_compiles_its_poolings_with_its_chains(monkeypatch):
    kernels.forget()
    calls = []
    monkeypatch.setattr(kernels, "_load", lambda chains: calls.append(chains) or False)
    try:
        TVM.prepare_kernels([
            ("max_pool2d", _LENET, [((4, 3, 8, 8), np.float32)]),
            ("max_pool2d_scatter", {**_LENET, "input_size": (8, 8)},
             [((4, 3, 4, 4), np.float32), ((4, 3, 4, 4), np.int64)]),
            ("max_pool2d", _LENET, [((4, 3, 8, 8), np.int32)])])  # not generated
    finally:
        kernels.forget()
    assert [spec.kind for spec in calls[0]] == ["max_pool2d", "max_pool2d_scatter"]
