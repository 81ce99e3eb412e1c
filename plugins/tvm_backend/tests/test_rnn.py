"""The generated ``lstm`` / ``gru`` and their gradients against NumPy's kernels: layers, directions,
biases, initial states, odd sizes (partial register blocks), float64, cotangent subsets,
NaN; what runs on the provider below; and no allocation from TVM's workspace (a module
loaded from the disk cache through TVM's FFI alone has no allocator for it)."""
import re

import numpy as np
import pytest

from sporeling.runtime import get_backend, get_kernels
from sporeling.tvm_backend import kernels, rnn_kernel
from sporeling.tvm_backend.rnn import MAX_BATCH, RnnSpec, rnn_source
from sporeling.tvm_backend.target import target, tvm
from sporeling.tvm_backend.tir_text import parsed

TVM, NUMPY = get_backend("tvm"), get_backend("numpy")
_KINDS = ("lstm", "gru", "lstm_grad", "gru_grad")
_REFERENCE = {name: get_kernels().lookup("numpy", name) for name in _KINDS}
_GENERATED = {name: getattr(rnn_kernel, name) for name in _KINDS}


def _operands(steps, batch, size, hidden, layers, dirs, has_bias, has_state, dtype, seed=0,
              kind="lstm"):
    rng = np.random.default_rng(seed)
    bound = 1 / np.sqrt(hidden)
    gates = (4 if kind == "lstm" else 3) * hidden
    ops = [rng.standard_normal((steps, batch, size)).astype(dtype)]
    if has_state:
        ops += [rng.standard_normal((layers * dirs, batch, hidden)).astype(dtype) * 0.5
                for _ in range(2 if kind == "lstm" else 1)]
    for layer in range(layers):
        width = size if layer == 0 else dirs * hidden
        for _ in range(dirs):
            ops += [rng.uniform(-bound, bound, shape).astype(dtype) for shape in
                    [(gates, width), (gates, hidden)]
                    + ([(gates,), (gates,)] if has_bias else [])]
    params = dict(num_layers=layers, bidirectional=dirs == 2, has_bias=has_bias,
                  has_state=has_state, has_lengths=False)
    return ops, params


_CASES = [  # steps, batch, size, hidden, layers, dirs, bias, state, dtype
    (9, 1, 16, 64, 2, 1, True, True, "float32"),     # the benchmark's shape, shorter
    (5, 3, 7, 20, 2, 2, True, True, "float32"),      # partial row and column blocks
    (4, 2, 3, 5, 1, 2, False, False, "float32"),
    (6, 5, 4, 9, 3, 1, True, False, "float64"),
]


@pytest.mark.parametrize("kind", ["lstm", "gru"])
@pytest.mark.parametrize("case", _CASES, ids=lambda c: "-".join(map(str, c)))
def test_the_forward_equals_numpys(case, kind):
    ops, params = _operands(*case, kind=kind)
    got = _GENERATED[kind](TVM, *ops, **params)
    want = _REFERENCE[kind](NUMPY, *ops, **params)
    assert len(got) == len(want)
    tol = 1e-12 if case[-1] == "float64" else 2e-6
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


@pytest.mark.parametrize("kind", ["lstm", "gru"])
@pytest.mark.parametrize("case, cts", [(case, (True, True, True)) for case in _CASES] + [
    (_CASES[2], (True, False, False)), (_CASES[2], (False, False, True))],
    ids=lambda c: "-".join(map(str, c)))
def test_the_gradients_equal_numpys(case, cts, kind):
    ops, params = _operands(*case, kind=kind)
    results = _REFERENCE[kind](NUMPY, *ops, **params)
    cts = cts[:len(results)]
    if not any(cts):
        cts = (False, True)
    rng = np.random.default_rng(5)
    cotangents = [rng.standard_normal(r.shape).astype(r.dtype)
                  for r, present in zip(results, cts) if present]
    params = dict(params, cts=cts)
    got = _GENERATED[kind + "_grad"](TVM, *ops, results[0], *cotangents, **params)
    want = _REFERENCE[kind + "_grad"](NUMPY, *ops, results[0], *cotangents, **params)
    assert len(got) == len(want)
    tol = 1e-11 if case[-1] == "float64" else 1e-5
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def test_nan_and_inf_propagate_as_in_numpy():
    ops, params = _operands(4, 2, 3, 8, 1, 1, True, False, "float32")
    ops[0][1, 0, 2] = np.nan
    ops[0][2, 1, 0] = np.inf
    got = rnn_kernel.lstm(TVM, *ops, **params)
    with np.errstate(invalid="ignore"):
        want = _REFERENCE["lstm"](NUMPY, *ops, **params)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        np.testing.assert_allclose(g[~np.isnan(w)], w[~np.isnan(w)], rtol=2e-6, atol=2e-6)


def test_strided_inputs_and_strided_out_buffers():
    ops, params = _operands(5, 2, 6, 8, 1, 1, True, True, "float32")
    ops[0] = np.asfortranarray(ops[0])                     # a batch-first input transposed
    outs = tuple(np.zeros(shape + (2,), np.float32)[..., 0] for shape in
                 [(5, 2, 8), (1, 2, 8), (1, 2, 8)])
    got = rnn_kernel.lstm(TVM, *ops, out=outs, **params)
    assert all(g is o for g, o in zip(got, outs))
    for g, w in zip(got, _REFERENCE["lstm"](NUMPY, *ops, **params)):
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("why", ["lengths", "batch", "float16"])
def test_what_is_not_generated_runs_the_provider_below(why, caplog):
    batch = MAX_BATCH + 1 if why == "batch" else 2
    dtype = "float16" if why == "float16" else "float32"
    ops, params = _operands(3, batch, 4, 6, 1, 1, True, False, dtype)
    if why == "lengths":
        ops.append(np.array([3, 1][:batch], np.int64))
        params["has_lengths"] = True
    caplog.set_level("INFO", "sporeling.tvm")
    got = rnn_kernel.lstm(TVM, *ops, **params)
    want = TVM.below_kernel("lstm")(TVM, *ops, **params)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert "provider below" in caplog.text


def test_generated_functions_allocate_nothing_from_tvms_workspace():
    """Every buffer is an argument and every named value a binding or a lane slot: TVM's
    workspace allocator is missing from a module loaded through TVM's FFI alone."""
    for cts in (None, (True, True, True)):
        spec = RnnSpec("lstm", 3, 2, 5, 20, 2, 2, True, True, "float32", cts)
        func = parsed(rnn_source(spec))
        module = tvm().compile(tvm().IRModule({"main": func.with_attr("global_symbol", "main")}),
                               target=target())
        llvm = module.mod.inspect_source("ll")
        assert not re.search(r"load ptr, ptr @__TVMBackendAllocWorkspace", llvm)


def test_a_program_compiles_its_lstms_with_its_chains(monkeypatch):
    """prepare_kernels hands the LSTMs of a program to the module of its chains."""
    kernels.forget()
    ops, params = _operands(3, 1, 4, 6, 1, 1, True, False, "float32")
    specs = [(a.shape, a.dtype) for a in ops]
    calls = []
    monkeypatch.setattr(kernels, "_load", lambda chains: calls.append(chains) or False)
    try:
        TVM.prepare_kernels([("lstm", params, specs)])
    finally:
        kernels.forget()
    assert len(calls[0]) == 1 and isinstance(calls[0][0], RnnSpec)
