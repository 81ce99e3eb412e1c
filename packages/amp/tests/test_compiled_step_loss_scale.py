"""A whole training step under ``jit`` with amp's static loss scaler matches PyNative."""
import numpy as np

import sporeling.expression as sx
from sporeling.amp import StaticLossScaler
from sporeling.expression import nn
from sporeling.expression.optim import Adam


def _setup():
    sx.set_seed(0)
    net = nn.SequentialCell(nn.Dense(6, 16), nn.ReLU(), nn.Dense(16, 3))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = Adam(net.trainable_params(), learning_rate=1e-2)
    scaler = StaticLossScaler(1024.0)
    grad_fn = sx.value_and_grad(lambda x, y: scaler.scale(loss_fn(net(x), y)), None,
                                opt.parameters)

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(scaler.unscale(grads))
        return scaler.unscale(loss)
    return net, train_step


def test_static_loss_scaled_step_compiles_once_and_matches_pynative():
    rng = np.random.default_rng(1)
    batches = [(sx.Tensor(rng.standard_normal((8, 6)).astype(np.float32)),
                sx.Tensor(rng.integers(0, 3, 8).astype(np.int32))) for _ in range(20)]
    eager_net, eager_step = _setup()
    eager = [float(eager_step(x, y).asnumpy()) for x, y in batches]
    net, step = _setup()
    jitted = sx.jit(step)
    compiled = [float(jitted(x, y).asnumpy()) for x, y in batches]
    assert jitted.compile_count == 1
    np.testing.assert_allclose(compiled, eager, rtol=1e-6, atol=1e-6)
    for a, b in zip(net.trainable_params(), eager_net.trainable_params()):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
