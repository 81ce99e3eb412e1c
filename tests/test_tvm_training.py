"""Graph mode on the TVM backend computes what NumPy's backend computes: a gradient of
elementwise ops sharing values (one generated loop there), and an MLP's training steps."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import set_context
from sporeling.expression import nn

pytest.importorskip("sporeling.tvm_backend")
from sporeling.tvm_backend.group import counts  # noqa: E402


pytestmark = pytest.mark.usefixtures("fresh_home_and_context")


def _chain(x):
    ops = sx.ops
    t = ops.tanh(ops.add(ops.mul(x, 1.5), 0.5))
    e = ops.exp(ops.mul(t, x))
    y = ops.sigmoid(ops.sub(e, x))
    return ops.sum(ops.add(ops.mul(y, y), x))


def test_a_gradient_of_shared_values_is_one_loop_and_equals_numpys():
    x = sx.Tensor(np.linspace(-0.8, 0.9, 24).reshape(4, 6).astype(np.float32))
    got = {}
    for backend in ("numpy", "tvm"):
        set_context(mode=sx.GRAPH_MODE, backend=backend)
        g = sx.jit(sx.grad(_chain))
        got[backend] = [g(x).asnumpy() for _ in range(2)]
        counts = g.last_executable.graph.primitive_counts()
    assert counts == {"fused_elementwise": 1}      # TVM's: every shared value recomputed
    np.testing.assert_allclose(got["tvm"], got["numpy"], rtol=2e-6, atol=1e-7)


def _mlp_losses(backend, steps=4):
    set_context(mode=sx.GRAPH_MODE, backend=backend)
    sx.set_seed(0)
    net = nn.SequentialCell(nn.Dense(20, 16), nn.Tanh(), nn.Dense(16, 5))
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), opt)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((8, 20)).astype(np.float32)
    y = rng.integers(0, 5, 8).astype(np.int32)
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    net.set_train(False)                            # a guard moved: compiled again, once
    return losses + [net(sx.Tensor(x)).asnumpy().sum() for _ in range(2)]


def test_an_mlp_trains_as_on_numpy():
    np.testing.assert_allclose(_mlp_losses("tvm"), _mlp_losses("numpy"), rtol=2e-5)


def _lstm_losses(backend, steps=3):
    set_context(mode=sx.GRAPH_MODE, backend=backend)
    sx.set_seed(0)
    lstm, head = nn.LSTM(6, 8, num_layers=2, batch_first=True), nn.Dense(8, 3)

    def loss_fn(x, y):
        out, _ = lstm(x)
        return nn.CrossEntropyLoss()(head(out[:, -1]), y)
    params = lstm.trainable_params() + head.trainable_params()
    opt = nn.SGD(params, 0.5, momentum=0.9)
    grad_fn = sx.value_and_grad(loss_fn, None, params)

    @sx.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss
    rng = np.random.default_rng(2)
    x = sx.Tensor(rng.standard_normal((2, 7, 6)).astype(np.float32))
    y = sx.Tensor(rng.integers(0, 3, 2).astype(np.int32))
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    counts = step.last_executable.graph.primitive_counts()
    return losses, counts


def test_an_lstm_trains_as_on_numpy():
    """Its lstm and lstm_grad run as generated functions."""
    got, counts = _lstm_losses("tvm")
    want, _ = _lstm_losses("numpy")
    assert counts["lstm"] == 1 and counts["lstm_grad"] == 1
    np.testing.assert_allclose(got, want, rtol=2e-5)


def test_jit_level_o2_selects_tvm_and_o1_does_not():
    x = sx.Tensor(np.linspace(-1, 1, 12).astype(np.float32))
    set_context(mode=sx.GRAPH_MODE)
    results = {}
    for level in ("O1", "O2"):
        f = sx.jit(sx.grad(_chain), jit_level=level)
        results[level] = f(x).asnumpy()
        results[level + " backend"] = f.last_executable.program.program.backend.name
    assert results["O2 backend"] == "tvm" and results["O1 backend"] != "tvm"
    np.testing.assert_allclose(results["O2"], results["O1"], rtol=2e-6, atol=1e-7)


def test_a_batch_norm_gradient_in_graph_mode_equals_numpys():
    """Its sums over (N, H, W) become fused_reduce loops (on oneDNN's blocked layout)."""
    backend = "tvm"
    x = sx.Tensor(np.random.default_rng(0).standard_normal((8, 32, 4, 4)).astype(np.float32))
    net = sx.nn.SequentialCell(sx.nn.Conv2d(32, 32, 3), sx.nn.BatchNorm2d(32), sx.nn.ReLU())
    grad = sx.grad(lambda x: net(x).sum(), weights=net.trainable_params())
    got = {}
    for name in ("numpy", backend):
        set_context(mode=sx.GRAPH_MODE, backend=name)
        step = sx.jit(grad)
        _, weights = step(x)  # (the input's gradient, the parameters')
        got[name] = [g.asnumpy() for g in weights]
    assert counts(step.last_executable.graph).get("fused_reduce", 0) >= 2
    for a, b in zip(got[backend], got["numpy"]):
        np.testing.assert_allclose(a, b, rtol=2e-4, atol=2e-4)


def _lenet_losses(backend, steps=3):
    set_context(mode=sx.GRAPH_MODE, backend=backend)
    sx.set_seed(0)
    net = nn.SequentialCell(nn.Conv2d(1, 4, 3, pad_mode="same"), nn.ReLU(), nn.MaxPool2d(2, 2),
                            nn.Conv2d(4, 6, 3, pad_mode="same"), nn.ReLU(), nn.MaxPool2d(2, 2),
                            nn.Flatten(), nn.Dense(36, 3))
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), opt)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 1, 8, 12)).astype(np.float32)
    y = rng.integers(0, 3, 5).astype(np.int32)
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    return losses, [p.asnumpy() for p in net.trainable_params()]


def test_max_pooling_trains_as_on_numpy(monkeypatch):
    """Its max_pool2d and max_pool2d_scatter run as generated functions."""
    from sporeling.tvm_backend import kernels, pool_kernel
    ran, make = [], pool_kernel._make
    kernels.forget()
    monkeypatch.setattr(pool_kernel, "_make", lambda kind, *a: ran.append(kind) or make(kind, *a))
    got, got_weights = _lenet_losses("tvm")
    want, want_weights = _lenet_losses("numpy")
    assert set(ran) == {"max_pool2d", "max_pool2d_scatter"}
    np.testing.assert_allclose(got, want, rtol=2e-5)
    for a, b in zip(got_weights, want_weights):
        np.testing.assert_allclose(a, b, rtol=2e-4, atol=2e-5)


def _layer_norm_grads(backend):
    set_context(mode=sx.GRAPH_MODE, backend=backend)
    sx.set_seed(0)
    net = nn.SequentialCell(nn.Dense(12, 16), nn.LayerNorm((16,)), nn.ReLU(), nn.Dense(16, 4))
    x = sx.Tensor(np.random.default_rng(4).standard_normal((6, 12)).astype(np.float32))
    y = sx.Tensor(np.arange(6).astype(np.int32) % 4)
    step = sx.jit(sx.value_and_grad(lambda x, y: nn.CrossEntropyLoss()(net(x), y), None,
                                    net.trainable_params()))
    loss, grads = step(x, y)
    return [loss.asnumpy()] + [g.asnumpy() for g in grads], step


def test_a_layer_norm_and_cross_entropy_step_equals_numpys():
    """normalize and softmax_cross_entropy (and its gradient) run as generated functions."""
    got, step = _layer_norm_grads("tvm")
    rows = [row.split() for row in step.explain().splitlines()]
    for primitive in ("normalize", "softmax_cross_entropy", "softmax_cross_entropy_grad"):
        assert [primitive, "tvm:", "generated"] in [row[1:4] for row in rows], primitive
    want, _ = _layer_norm_grads("numpy")
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6)
