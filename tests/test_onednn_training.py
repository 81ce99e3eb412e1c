"""A LeNet trains on the oneDNN backend as on NumPy's, in PyNative and Graph mode."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import reset_context, set_context
from sporeling.expression import nn


@pytest.fixture(autouse=True)
def _fresh_context():
    reset_context()
    yield
    reset_context()


def _lenet_steps(mode, backend, steps=3):
    set_context(mode=mode, backend=backend)
    np.random.seed(0)
    sx.set_seed(0)
    net = nn.SequentialCell(nn.Conv2d(1, 6, 5, pad_mode="pad", padding=2), nn.ReLU(),
                            nn.MaxPool2d(2, 2), nn.Conv2d(6, 16, 5, pad_mode="valid"),
                            nn.ReLU(), nn.AvgPool2d(2, 2), nn.Flatten(),
                            nn.Dense(16 * 25, 10))
    opt = nn.SGD(net.trainable_params(), 0.05)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), opt)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((16, 1, 28, 28)).astype(np.float32)
    y = rng.integers(0, 10, 16).astype(np.int32)
    return [float(step(x, y).asnumpy()) for _ in range(steps)]


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_lenet_trains_as_on_numpy(mode):
    mode = sx.PYNATIVE_MODE if mode == "pynative" else sx.GRAPH_MODE
    np.testing.assert_allclose(_lenet_steps(mode, "onednn"), _lenet_steps(mode, "numpy"),
                               rtol=2e-5)
