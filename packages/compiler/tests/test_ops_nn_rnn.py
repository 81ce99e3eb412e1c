"""The fused ``lstm`` / ``gru`` primitives against a step-by-step reference built from ops
(float64, forward and gradients to ~1e-12), in eager, traced and compiled form, under vmap,
with unused results, padded batches and clear errors; grad of grad is refused by name."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad, vjp
from sporeling.compiler.core import MissingRuleError
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.pipeline import compile_graph
from sporeling.compiler.testing import check_grads
from sporeling.compiler.transforms import grad_graph, jvp, vmap
from sporeling.core import DTypeError, ShapeError

rng = np.random.default_rng(3)
TOL = dict(rtol=1e-12, atol=1e-12)


def weights(kind, layers, dirs, size, hidden, bias, dtype=np.float64):
    g = (4 if kind == "lstm" else 3) * hidden
    out = []
    for layer in range(layers):
        for _ in range(dirs):
            out += [rng.standard_normal((g, size if layer == 0 else dirs * hidden)) * 0.5,
                    rng.standard_normal((g, hidden)) * 0.5]
            if bias:
                out += [rng.standard_normal(g) * 0.5, rng.standard_normal(g) * 0.5]
    return [w.astype(dtype) for w in out]


# ---- the reference: the layers' former step-by-step code, from ops ----------------------

def _lstm_step(xw_t, state, w_hh_t, b_hh):
    h, c = state
    i, f, g, o = ops.split(ops.add(xw_t, ops.matmul(h, w_hh_t)), 4, -1)
    c = ops.add(ops.mul(ops.sigmoid(f), c), ops.mul(ops.sigmoid(i), ops.tanh(g)))
    return ops.mul(ops.sigmoid(o), ops.tanh(c)), c


def _gru_step(xw_t, state, w_hh_t, b_hh):
    (h,) = state
    hw = ops.matmul(h, w_hh_t)
    if b_hh is not None:
        hw = ops.add(hw, b_hh)
    xr, xz, xn = ops.split(xw_t, 3, -1)
    hr, hz, hn = ops.split(hw, 3, -1)
    r, z = ops.sigmoid(ops.add(xr, hr)), ops.sigmoid(ops.add(xz, hz))
    n = ops.tanh(ops.add(xn, ops.mul(r, hn)))
    return (ops.add(n, ops.mul(z, ops.sub(h, n))),)


def reference(kind, x, w, hx=None, *, layers, bidirectional, bias, lengths=None):
    """``(y, h_n[, c_n])`` step by step (x time-major)."""
    dirs = 2 if bidirectional else 1
    per = 4 if bias else 2
    n_states = 2 if kind == "lstm" else 1
    steps, n = x.shape[0], x.shape[1]
    hid = w[1].shape[1]
    zeros = np.zeros((n, hid), x.dtype)
    masks = None if lengths is None else \
        np.arange(steps).reshape(-1, 1, 1) < np.asarray(lengths).reshape(1, -1, 1)
    step = _lstm_step if kind == "lstm" else _gru_step
    finals = []
    for layer in range(layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh = (list(w[k * per:(k + 1) * per]) + [None, None])[:4]
            xw = ops.matmul(x, ops.swap_last_axes(w_ih))
            if b_ih is not None:
                xw = ops.add(xw, ops.add(b_ih, b_hh) if kind == "lstm" else b_ih)
            state = tuple(zeros if hx is None else ops.getitem(hx[i], k)
                          for i in range(n_states))
            outputs = [None] * steps
            for t in (range(steps - 1, -1, -1) if d else range(steps)):
                new = step(ops.getitem(xw, t), state, ops.swap_last_axes(w_hh), b_hh)
                if masks is not None:
                    new = tuple(ops.where(masks[t], a, b) for a, b in zip(new, state))
                    outputs[t] = ops.where(masks[t], new[0], 0.0)
                else:
                    outputs[t] = new[0]
                state = new
            outs.append(ops.stack(outputs, 0))
            finals.append(state)
        x = outs[0] if dirs == 1 else ops.concat(outs, -1)
    return (x,) + tuple(ops.stack([f[i] for f in finals], 0) for i in range(n_states))


def fused(kind, x, w, hx=None, *, layers, bidirectional, bias, lengths=None):
    op = ops.lstm if kind == "lstm" else ops.gru
    state = None if hx is None else (tuple(hx) if kind == "lstm" else hx[0])
    y, h = op(x, w, state, num_layers=layers, bidirectional=bidirectional, has_bias=bias,
              seq_length=lengths)
    return (y,) + (tuple(h) if kind == "lstm" else (h,))


def problem(kind, steps=4, n=3, size=3, hidden=2, layers=2, bidirectional=True, bias=True,
            state=True, lengths=None, dtype=np.float64):
    dirs = 2 if bidirectional else 1
    x = rng.standard_normal((steps, n, size)).astype(dtype)
    hx = None if not state else [rng.standard_normal((layers * dirs, n, hidden)).astype(dtype)
                                 for _ in range(2 if kind == "lstm" else 1)]
    return x, weights(kind, layers, dirs, size, hidden, bias, dtype), hx, \
        dict(layers=layers, bidirectional=bidirectional, bias=bias, lengths=lengths)


CONFIGS = [dict(), dict(layers=1, bidirectional=False), dict(bias=False), dict(state=False),
           dict(lengths=np.array([4, 1, 0])), dict(layers=3, state=False, bias=False,
                                                   lengths=np.array([2, 5, 3]))]


def _close(got, want, **tol):
    assert len(got) == len(want)
    for a, b in zip(got, want):
        assert np.shape(a) == np.shape(b)
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), **(tol or TOL))


@pytest.mark.parametrize("kind", ["lstm", "gru"])
@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_forward_and_gradients_equal_the_step_by_step_reference(kind, config):
    x, w, hx, kw = problem(kind, **CONFIGS[config])
    args = [x, *w] + (list(hx) if hx is not None else [])
    nw = len(w)

    def split(fn):
        def f(x, *rest):
            return fn(kind, x, list(rest[:nw]), rest[nw:] or None, **kw)
        return f

    got, pull = vjp(split(fused), *args)
    want, pull_ref = vjp(split(reference), *args)
    _close(got, want)
    cts = tuple(rng.standard_normal(np.shape(o)) for o in got)
    _close(pull(cts), pull_ref(cts), rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("kind", ["lstm", "gru"])
@pytest.mark.parametrize("bias", [True, False])
def test_gradients_match_finite_differences(kind, bias):
    x, w, hx, kw = problem(kind, n=2, bias=bias)
    check_grads(lambda x, *rest: fused(kind, x, list(rest[:len(w)]), rest[len(w):], **kw),
                [x, *w, *hx], order=1)


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_unused_results_get_no_cotangent(kind):
    """Only ``y`` (or only ``h_n``) used: the other cotangents are not passed, and the
    gradients equal the reference's."""
    x, w, hx, kw = problem(kind, lengths=np.array([3, 4, 2]))
    for pick in (0, 1):
        def loss(fn, x, *w):
            return ops.sum(ops.tanh(fn(kind, x, list(w), hx, **kw)[pick]))
        got = grad(lambda *a: loss(fused, *a), argnums=tuple(range(1 + len(w))))(x, *w)
        want = grad(lambda *a: loss(reference, *a), argnums=tuple(range(1 + len(w))))(x, *w)
        _close(got, want, rtol=1e-11, atol=1e-12)
        gg = grad_graph(make_graph(lambda *a: loss(fused, *a), x, *w), argnums=0)
        (eq,) = [e for e in gg.equations if e.prim.name == kind + "_grad"]
        results = 2 if kind == "gru" else 3
        assert eq.params["cts"] == tuple(i == pick for i in range(results))


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_graph_mode_equals_eager(kind):
    x, w, hx, kw = problem(kind, lengths=np.array([4, 2, 3]))

    def loss(x, *w):
        return ops.sum(ops.mul(fused(kind, x, list(w), hx, **kw)[0], 0.5))

    g = make_graph(loss, x, *w)
    assert g.primitive_counts()[kind] == 1
    _close(compile_graph(g)(x, *w), [loss(x, *w)])
    gg = grad_graph(g, argnums=tuple(range(1 + len(w))))
    assert gg.primitive_counts()[kind + "_grad"] == 1
    _close(compile_graph(gg)(x, *w), grad(loss, argnums=tuple(range(1 + len(w))))(x, *w))
    _close(evaluate(gg, x, *w), grad(loss, argnums=tuple(range(1 + len(w))))(x, *w))


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_vmap_folds_the_mapped_axis_into_the_batch(kind):
    x, w, hx, kw = problem(kind, state=False)
    xs = np.stack([x, x * 0.5, -x], axis=2)  # mapped on axis 2 of (T, N, B, I)

    def f(x):
        return fused(kind, x, w, **kw)

    got = vmap(f, in_axes=2)(xs)
    want = [np.stack(o) for o in zip(*[f(xs[:, :, b]) for b in range(3)])]
    _close(got, want)
    g = make_graph(vmap(f, in_axes=2), xs)
    assert g.primitive_counts()[kind] == 1  # one call for the whole batch


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_float32_and_batch_first(kind):
    x, w, hx, kw = problem(kind, dtype=np.float32)
    op = ops.lstm if kind == "lstm" else ops.gru
    state = tuple(hx) if kind == "lstm" else hx[0]
    y, h = op(x.transpose(1, 0, 2), w, state, batch_first=True, bidirectional=True)
    assert y.dtype == np.float32 and y.shape == (3, 4, 4)
    want = reference(kind, x.astype(np.float64), [a.astype(np.float64) for a in w],
                     [a.astype(np.float64) for a in hx], **kw)
    np.testing.assert_allclose(y.transpose(1, 0, 2), want[0], rtol=1e-5, atol=1e-6)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(kind=st.sampled_from(["lstm", "gru"]), steps=st.integers(1, 4),
       n=st.integers(1, 3), size=st.integers(1, 3), hidden=st.integers(1, 3),
       layers=st.integers(1, 2), bidirectional=st.booleans(), bias=st.booleans(),
       state=st.booleans(), padded=st.booleans(), seed=st.integers(0, 2 ** 16))
def test_small_shapes_match_the_reference(kind, steps, n, size, hidden, layers,
                                          bidirectional, bias, state, padded, seed):
    local = np.random.default_rng(seed)
    lengths = local.integers(0, steps + 2, n) if padded else None
    x, w, hx, kw = problem(kind, steps, n, size, hidden, layers, bidirectional, bias, state,
                           lengths)
    args = [x, *w] + (list(hx) if hx is not None else [])
    nw = len(w)

    def split(fn):
        return lambda x, *rest: fn(kind, x, list(rest[:nw]), rest[nw:] or None, **kw)

    got, pull = vjp(split(fused), *args)
    want, pull_ref = vjp(split(reference), *args)
    _close(got, want)
    cts = tuple(local.standard_normal(np.shape(o)) for o in got)
    _close(pull(cts), pull_ref(cts), rtol=1e-10, atol=1e-12)


def test_grad_of_grad_and_jvp_are_refused_by_name():
    x, w, hx, kw = problem("lstm", layers=1, bidirectional=False)

    def g(x):
        return ops.sum(grad(lambda x: ops.sum(fused("lstm", x, w, hx, **kw)[0]))(x))

    with pytest.raises(MissingRuleError, match="lstm_grad"):
        grad(g)(x)
    with pytest.raises(MissingRuleError, match="lstm_grad"):  # jvp transposes the VJP
        jvp(lambda x: fused("lstm", x, w, hx, **kw)[0], [x], [np.ones_like(x)])


def test_errors_name_the_op_and_the_shapes():
    x, w, hx, kw = problem("lstm", layers=1, bidirectional=False)
    with pytest.raises(ShapeError, match=r"lstm.*w_hh of layer 0.*4 \* hidden_size.*\(8, 3\)"):
        ops.lstm(x, [w[0], np.zeros((8, 3)), w[2], w[3]])
    with pytest.raises(ShapeError, match=r"lstm.*b_hh of layer 0.*\(8,\).*\(7,\)"):
        ops.lstm(x, [w[0], w[1], w[2], np.zeros(7)])
    with pytest.raises(ShapeError, match="lstm.*wrong number of weights"):
        ops.lstm(x, w[:3])
    with pytest.raises(ShapeError, match=r"gru.*input must be 3-d.*\(4, 9\)"):
        ops.gru(np.zeros((4, 9)), weights("gru", 1, 1, 9, 2, True))
    with pytest.raises(ShapeError, match=r"initial state.*\(1, 3, 2\).*\(2, 3, 2\)"):
        ops.lstm(x, w, (np.zeros((2, 3, 2)), np.zeros((2, 3, 2))))
    with pytest.raises(ShapeError, match=r"seq_length.*\(3,\).*\(2,\)"):
        ops.gru(x, weights("gru", 1, 1, 3, 2, True), seq_length=[1, 2])
    with pytest.raises(ShapeError, match=r"w_ih of layer 1 \(reverse\).*\(8, 4\)"):
        ops.lstm(x, weights("lstm", 2, 2, 3, 2, True)[:12] + [np.zeros((8, 3))]
                 + weights("lstm", 1, 1, 3, 2, True)[1:], bidirectional=True)
    with pytest.raises(DTypeError, match="lstm"):
        from sporeling.compiler.ops.nn.rnn import lstm_p
        lstm_p.abstract(x, *[a.astype(np.float32) for a in w], num_layers=1,
                        bidirectional=False, has_bias=True, has_state=False,
                        has_lengths=False)


def test_one_length_for_every_sample_and_float_lengths():
    x, w, _, kw = problem("gru", layers=1, bidirectional=False, state=False)
    y, _ = ops.gru(x, w, seq_length=2)
    want = reference("gru", x, w, layers=1, bidirectional=False, bias=True,
                     lengths=np.array([2, 2, 2]))
    _close([y], want[:1])
    y2, _ = ops.gru(x, w, seq_length=np.array([2.0, 2.0, 2.0]))
    _close([y2], want[:1])
