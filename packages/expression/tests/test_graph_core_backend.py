"""Issue 21: a backend that implements only the core set trains in Graph mode -- every other
primitive of the step (softmax cross entropy and its gradient, ReLU's gradient, the fused
elementwise chains, ...) is lowered through its decomposition -- to the NumPy backend's
numbers."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler.core.core_set import core_primitives
from sporeling.compiler.testing import core_only_backend
from sporeling.expression import nn


def mlp():
    return nn.SequentialCell(nn.Dense(6, 16), nn.ReLU(), nn.Dense(16, 8), nn.Sigmoid(),
                             nn.Dense(8, 4))


def lenet():
    return nn.SequentialCell(nn.Conv2d(1, 4, 3, pad_mode="valid"), nn.ReLU(),
                             nn.MaxPool2d(2, 2), nn.Flatten(), nn.Dense(4 * 3 * 3, 10),
                             nn.GELU(approximate=False), nn.Dense(10, 4))


MODELS = {"mlp": (mlp, (8, 6)), "lenet": (lenet, (8, 1, 8, 8))}


def _train(name, **backend):
    build, shape = MODELS[name]
    sx.set_seed(0)
    net = build()
    rng = np.random.default_rng(1)
    x = sx.Tensor(rng.standard_normal(shape).astype(np.float32))
    y = sx.Tensor(rng.integers(0, 4, shape[0]))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    with sx.context(mode=sx.GRAPH_MODE, **backend):
        losses = [float(step(x, y).asnumpy()) for _ in range(3)]
    return losses, [p.asnumpy().copy() for p in net.get_parameters()]


class Served:
    """Records which primitives a backend's kernels were asked for."""

    def __init__(self, backend):
        self.names: set = set()
        kernel = backend.kernel

        def recording(primitive):
            self.names.add(primitive)
            return kernel(primitive)
        backend.kernel = recording


@pytest.mark.parametrize("name", sorted(MODELS))
def test_a_core_only_backend_trains_to_numpys_numbers(name):
    want_losses, want_params = _train(name, device_target="CPU", backend="numpy")
    with core_only_backend() as backend:
        served = Served(backend)
        losses, params = _train(name, device_target=backend.device_target)
    assert served.names and served.names <= core_primitives()  # it ran there, core kernels only
    assert {"matmul", "exp", "log"} <= served.names  # cross entropy from its decomposition
    np.testing.assert_allclose(losses, want_losses, rtol=1e-5)
    assert losses[-1] < losses[0]
    for got, want in zip(params, want_params):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
