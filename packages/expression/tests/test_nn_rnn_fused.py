"""``nn.LSTM`` / ``nn.GRU`` bind one fused primitive; they give what the former step-by-step
layers gave (kept below as the reference: the base class's ``_construct_steps`` with the old
cell steps), in float64 to 1e-12 -- outputs, final states and gradients -- in PyNative and
Graph mode, with states, padded batches, no biases, batch_first and dropout between
layers."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn, ops

RNG = np.random.default_rng(5)


class StepLSTM(nn.LSTM):
    """The former LSTM: ~36 recorded ops per cell step."""

    def construct(self, x, hx=None, seq_length=None):
        return self._construct_steps(x, hx, seq_length)

    def _input_bias(self, xw, b_ih, b_hh):
        return xw if b_ih is None else ops.add(xw, ops.add(b_ih, b_hh))

    def _step(self, xw_t, state, w_hh_t, b_hh):
        h, c = state
        gates = ops.add(xw_t, ops.matmul(h, w_hh_t))
        i, f, g, o = ops.split(gates, 4, -1)
        c = ops.add(ops.mul(ops.sigmoid(f), c), ops.mul(ops.sigmoid(i), ops.tanh(g)))
        return ops.mul(ops.sigmoid(o), ops.tanh(c)), c


class StepGRU(nn.GRU):
    """The former GRU."""

    def construct(self, x, hx=None, seq_length=None):
        return self._construct_steps(x, hx, seq_length)

    def _input_bias(self, xw, b_ih, b_hh):
        return xw if b_ih is None else ops.add(xw, b_ih)

    def _step(self, xw_t, state, w_hh_t, b_hh):
        (h,) = state
        hw = ops.matmul(h, w_hh_t)
        if b_hh is not None:
            hw = ops.add(hw, b_hh)
        xr, xz, xn = ops.split(xw_t, 3, -1)
        hr, hz, hn = ops.split(hw, 3, -1)
        r = ops.sigmoid(ops.add(xr, hr))
        z = ops.sigmoid(ops.add(xz, hz))
        n = ops.tanh(ops.add(xn, ops.mul(r, hn)))
        return (ops.add(n, ops.mul(z, ops.sub(h, n))),)


STEP = {"LSTM": StepLSTM, "GRU": StepGRU}

CONFIGS = [
    dict(num_layers=2, bidirectional=True),
    dict(num_layers=2, batch_first=True, has_bias=False),
    dict(num_layers=1, bidirectional=True, batch_first=True, hx=True),
    dict(num_layers=3, bidirectional=True, hx=True, lengths=True),
    dict(num_layers=2, batch_first=True, lengths=True),
]


def pair(kind, config, dtype="float64", dropout=0.0):
    """The fused layer and the step-by-step one with the same weights, and their inputs."""
    cfg = dict(config)
    hx, lengths = cfg.pop("hx", False), cfg.pop("lengths", False)
    sx.set_seed(0)
    fused = getattr(nn, kind)(3, 4, dropout=dropout, dtype=dtype, **cfg)
    sx.set_seed(0)
    step = STEP[kind](3, 4, dropout=dropout, dtype=dtype, **cfg)
    for a, b in zip(fused.get_parameters(), step.get_parameters()):
        assert a.name == b.name and a.shape == b.shape
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    t, n = 5, 3
    shape = (n, t, 3) if fused.batch_first else (t, n, 3)
    x = sx.Tensor(RNG.standard_normal(shape).astype(dtype))
    args = [x]
    if hx:
        rows = fused.num_layers * fused.num_directions
        states = [sx.Tensor(RNG.standard_normal((rows, n, 4)).astype(dtype))
                  for _ in range(2 if kind == "LSTM" else 1)]
        args.append(tuple(states) if kind == "LSTM" else states[0])
    else:
        args.append(None)
    args.append(np.array([5, 2, 0]) if lengths else None)
    return fused, step, args


def flat(result):
    out, states = result
    return [out] + (list(states) if isinstance(states, tuple) else [states])


def close(a, b, tol=1e-12):
    a = a.asnumpy() if hasattr(a, "asnumpy") else np.asarray(a)
    b = b.asnumpy() if hasattr(b, "asnumpy") else np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


def outputs_and_grads(cell, args, mode):
    weights = [RNG.standard_normal(o.shape) for o in flat(cell(*args))]

    def loss(x):
        return sum((o * sx.Tensor(w)).sum() for o, w in zip(flat(cell(x, *args[1:])), weights))

    vg = sx.value_and_grad(loss, 0, cell.trainable_params())
    with sx.context(mode=mode):
        outs = flat(cell(*args)) if mode == sx.PYNATIVE_MODE else \
            flat(sx.jit(lambda x: cell(x, *args[1:]))(args[0]))
        value, (gx, gw) = (sx.jit(vg) if mode == sx.GRAPH_MODE else vg)(args[0])
    return outs, value, [gx, *gw], weights


@pytest.fixture(autouse=True)
def pynative():
    sx.set_context(mode=sx.PYNATIVE_MODE)
    yield
    sx.set_context(mode=sx.PYNATIVE_MODE)


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_fused_equals_the_step_by_step_layer(kind, config):
    fused, step, args = pair(kind, CONFIGS[config])
    rng_state = RNG.bit_generator.state
    got = outputs_and_grads(fused, args, sx.PYNATIVE_MODE)
    RNG.bit_generator.state = rng_state  # the same output weights for both
    want = outputs_and_grads(step, args, sx.PYNATIVE_MODE)
    for a, b in zip(got[0], want[0]):
        close(a, b)
    close(got[1], want[1])
    assert len(got[2]) == len(want[2]) == 1 + len(fused.trainable_params())
    for a, b in zip(got[2], want[2]):
        close(a, b, 1e-11)


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
@pytest.mark.parametrize("config", [0, 3])
def test_graph_mode_equals_pynative(kind, config):
    fused, _, args = pair(kind, CONFIGS[config])
    rng_state = RNG.bit_generator.state
    eager = outputs_and_grads(fused, args, sx.PYNATIVE_MODE)
    RNG.bit_generator.state = rng_state
    graph = outputs_and_grads(fused, args, sx.GRAPH_MODE)
    for a, b in zip(eager[0], graph[0]):
        close(a, b)
    close(eager[1], graph[1])
    for a, b in zip(eager[2], graph[2]):
        close(a, b)


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_one_primitive_per_network_and_one_gradient(kind):
    fused, _, args = pair(kind, CONFIGS[3])
    name = kind.lower()

    def loss(x):
        return flat(fused(x, *args[1:]))[0].sum()

    jitted = sx.jit(sx.value_and_grad(loss, 0, fused.trainable_params()))
    with sx.context(mode=sx.GRAPH_MODE):
        jitted(args[0])
    counts = jitted.last_graph.primitive_counts()
    assert counts[name] == 1 and counts[name + "_grad"] == 1
    assert "sigmoid" not in counts and "tanh" not in counts


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_dropout_between_layers_draws_the_same_masks(kind):
    """In training with dropout, one primitive per layer: the same numbers as before."""
    fused, step, args = pair(kind, dict(num_layers=3, bidirectional=True, batch_first=True,
                                        hx=True), dropout=0.4)
    fused.set_train()
    step.set_train()
    sx.set_seed(11)
    got = flat(fused(*args))
    sx.set_seed(11)
    want = flat(step(*args))
    for a, b in zip(got, want):
        close(a, b)
    sx.set_seed(11)
    again = flat(fused.set_train(False)(*args))  # inference: no dropout, one primitive
    assert not np.allclose(again[0].asnumpy(), got[0].asnumpy())


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_float32_matches_in_both_modes(kind):
    fused, step, args = pair(kind, CONFIGS[3], dtype="float32")
    for a, b in zip(flat(fused(*args)), flat(step(*args))):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
    with sx.context(mode=sx.GRAPH_MODE):
        graph = flat(sx.jit(lambda x: fused(x, *args[1:]))(args[0]))
    for a, b in zip(graph, flat(fused(*args))):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)


def test_seq_length_as_a_tensor_in_graph_mode():
    fused, step, args = pair("LSTM", CONFIGS[4])
    lengths = sx.Tensor(np.array([5, 3, 1], np.int32))
    want = flat(step(args[0], None, np.array([5, 3, 1])))
    with sx.context(mode=sx.GRAPH_MODE):
        got = flat(sx.jit(lambda x, n: fused(x, None, n))(args[0], lengths))
    for a, b in zip(got, want):
        close(a, b)


def test_partial_initial_state():
    fused, step, args = pair("LSTM", CONFIGS[2])
    h0 = args[1][0]
    for a, b in zip(flat(fused(args[0], (h0, None))), flat(step(args[0], (h0, None)))):
        close(a, b)
