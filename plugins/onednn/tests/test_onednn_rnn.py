"""oneDNN's fused LSTM and GRU (forward and gradients) against NumPy's kernels."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sporeling.runtime import get_backend

ONEDNN, NUMPY = get_backend("onednn"), get_backend("numpy")


def _operands(rng, kind, t, n, i, h, layers, dirs, bias, state):
    g = 4 if kind == "lstm" else 3
    ops = [rng.standard_normal((t, n, i)).astype(np.float32)]
    if state:
        ops += [rng.standard_normal((layers * dirs, n, h)).astype(np.float32)
                for _ in range(2 if kind == "lstm" else 1)]
    for layer in range(layers):
        for _ in range(dirs):
            width = i if layer == 0 else dirs * h
            shapes = [(g * h, width), (g * h, h)] + ([(g * h,), (g * h,)] if bias else [])
            ops += [0.4 * rng.standard_normal(s).astype(np.float32) for s in shapes]
    return ops


@settings(max_examples=12, deadline=None)
@given(kind=st.sampled_from(["lstm", "gru"]), t=st.integers(1, 6), n=st.integers(1, 4),
       i=st.integers(1, 5), h=st.integers(1, 7), layers=st.integers(1, 3),
       bidirectional=st.booleans(), bias=st.booleans(), state=st.booleans(),
       cts=st.sampled_from(["all", "y", "states"]), seed=st.integers(0, 2**16))
def test_forward_and_gradients_equal_numpys(kind, t, n, i, h, layers, bidirectional, bias,
                                            state, cts, seed):
    rng = np.random.default_rng(seed)
    ops = _operands(rng, kind, t, n, i, h, layers, 2 if bidirectional else 1, bias, state)
    params = dict(num_layers=layers, bidirectional=bidirectional, has_bias=bias,
                  has_state=state, has_lengths=False)
    assert ONEDNN.provider(kind) == "onednn"
    outs, want = ONEDNN.run(kind, *ops, **params), NUMPY.run(kind, *ops, **params)
    for got, ref in zip(outs, want):
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-5)
    present = [cts in ("all", "y")] + [cts in ("all", "states")] * (len(want) - 1)
    given_cts = [rng.standard_normal(r.shape).astype(np.float32)
                 for r, p in zip(want, present) if p]
    grad_params = dict(params, cts=tuple(present))
    grads = ONEDNN.run(f"{kind}_grad", *ops, want[0], *given_cts, **grad_params)
    expected = NUMPY.run(f"{kind}_grad", *ops, want[0], *given_cts, **grad_params)
    assert len(grads) == len(expected)
    for got, ref in zip(grads, expected):
        assert got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=0, atol=2e-5 * max(1.0, np.abs(ref).max()))


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_padded_batches_and_float64_are_numpys(kind):
    rng = np.random.default_rng(0)
    ops = _operands(rng, kind, 4, 2, 3, 5, 1, 1, True, False)
    params = dict(num_layers=1, bidirectional=False, has_bias=True, has_state=False)
    lengths = np.array([4, 2], np.int32)
    got = ONEDNN.run(kind, *ops, lengths, has_lengths=True, **params)
    want = NUMPY.run(kind, *ops, lengths, has_lengths=True, **params)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
    ops64 = [o.astype(np.float64) for o in ops]
    for a, b in zip(ONEDNN.run(kind, *ops64, has_lengths=False, **params),
                    NUMPY.run(kind, *ops64, has_lengths=False, **params)):
        assert a.dtype == np.float64
        np.testing.assert_array_equal(a, b)
