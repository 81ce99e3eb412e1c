import numpy as np
import pytest

from sporeling.core import reset_context
from sporeling.runtime import events


@pytest.fixture(autouse=True)
def _fresh_context_no_listeners():
    reset_context()
    yield
    reset_context()
    # a failed test must not leave a profiler listening to the next one
    events.kernel_listeners.clear()
    events.memory_listeners.clear()


@pytest.fixture
def mlp_step():
    """``(step, cell)``: one training step of a small MLP (Dense 32-16-4, batch 8)."""
    import sporeling.expression as sx
    from sporeling.expression import nn
    sx.set_seed(0)
    net = nn.SequentialCell(nn.Dense(32, 16), nn.ReLU(), nn.Dense(16, 4))
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               nn.SGD(net.trainable_params(), learning_rate=0.1,
                                      momentum=0.9)).set_train()
    rng = np.random.default_rng(0)
    x = sx.Tensor(rng.standard_normal((8, 32)).astype(np.float32))
    y = sx.Tensor(rng.integers(0, 4, 8).astype(np.int32))

    def step(mode):
        with sx.context(mode=mode):
            return float(cell(x, y).asnumpy())
    return step, cell
