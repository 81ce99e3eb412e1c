"""``TrainOneStepCell`` drives operator parallel: in ``semi_auto_parallel`` mode a sharded
Cell's rank program is recorded by the PyNative tape (blocks cut by recorded slices,
redistributions as collective primitives), the reducer averages the ranks' gradients, and
N ranks end 5 SGD steps with one device's weights."""
import numpy as np
import pytest

import sporeling.expression as sx
import sporeling.parallel as sp
from sporeling.expression import Tensor, nn, ops
from sporeling.expression.optim import Momentum
from sporeling.expression.train import TrainOneStepCell, WithLossCell
from sporeling.parallel.operator import api as operator_api
from sporeling.parallel.testing import run_local

STEPS = 5


@pytest.fixture(autouse=True)
def _stand_alone_after():
    yield
    sp.reset_auto_parallel_context()


def _data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((STEPS, 6, 8))
    return x, np.sin(x.sum(axis=2, keepdims=True)) * np.ones((1, 1, 4))


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(1)
        self.w1 = sx.Parameter(rng.standard_normal((8, 16)) * 0.5, name="w1")
        self.b1 = sx.Parameter(np.zeros(16), name="b1")
        self.w2 = sx.Parameter(rng.standard_normal((16, 4)) * 0.5, name="w2")

    def construct(self, x):
        return ops.matmul(ops.tanh(ops.matmul(x, self.w1) + self.b1), self.w2)


def _train(shard: bool):
    net = MLP()
    if shard:  # Megatron: the first layer split by output features, the second by input
        net.shard(((1, 1),), parameter_plan={"w1": (1, 2), "b1": (2,), "w2": (2, 1)})
    step = TrainOneStepCell(WithLossCell(net, nn.MSELoss()),
                            Momentum(net.trainable_params(), 0.1, 0.9))
    xs, ys = _data()
    for x, y in zip(xs, ys):
        step(Tensor(x), Tensor(y))
    return {p.name: p.asnumpy().copy() for p in net.trainable_params()}


@pytest.mark.parametrize("ranks", [2, 4])
def test_train_one_step_cell_with_a_sharded_cell_equals_one_device(ranks, monkeypatch):
    reference = _train(shard=False)
    recorded = []
    real = operator_api.Shard._recorded

    def spy(self, *args):
        recorded.append(True)
        return real(self, *args)
    monkeypatch.setattr(operator_api.Shard, "_recorded", spy)
    sp.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
    results = run_local(ranks, _train, True)
    assert len(recorded) == ranks * STEPS  # every step ran the sharded program, recorded
    for got in results:
        for name, want in reference.items():
            np.testing.assert_allclose(got[name], want, rtol=1e-10, atol=1e-12, err_msg=name)
