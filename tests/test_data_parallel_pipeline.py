"""Data parallel with a sporeling.data pipeline (parallel + data + expression): in
data_parallel mode a source reads this rank's shard on its own (parallel answers data's
``sporeling_data_shard`` hook), so ``Model.train`` on 2 thread-ranks with batch B/2 ends
with one rank's weights for batch B."""
import numpy as np
import pytest

import sporeling.data as sd
import sporeling.parallel as sp
from sporeling.core import GRAPH_MODE, PYNATIVE_MODE, context
from sporeling.expression import Parameter, nn, ops
from sporeling.expression.optim import SGD
from sporeling.expression.train import Model
from sporeling.parallel.testing import run_local

BATCH, STEPS = 8, 10


@pytest.fixture(autouse=True)
def _stand_alone_after():
    yield
    sp.reset_auto_parallel_context()


def _rows(ranks, **kwargs):
    def read():
        ds = sd.NumpySlicesDataset((np.arange(10),), ["i"], shuffle=False, **kwargs)
        return [int(r[0]) for r in ds]
    return run_local(ranks, read)


def test_sources_shard_by_rank_in_data_parallel_mode_only():
    assert _rows(2) == [list(range(10))] * 2
    sp.set_auto_parallel_context(parallel_mode="data_parallel")
    assert _rows(2) == [[0, 2, 4, 6, 8], [1, 3, 5, 7, 9]]
    assert _rows(3) == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]  # padded: equal steps
    assert _rows(2, num_shards=5, shard_id=4) == [[4, 9]] * 2       # explicit shards win


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.w = Parameter(rng.standard_normal((4, 6)) * 0.5, name="w")
        self.v = Parameter(rng.standard_normal((6, 1)) * 0.5, name="v")

    def construct(self, x):
        return ops.matmul(ops.tanh(ops.matmul(x, self.w)), self.v)


def _train(batch, **shards):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((STEPS * BATCH, 4))
    y = np.cos(x.sum(axis=1, keepdims=True))
    data = sd.NumpySlicesDataset((x, y), ["x", "y"], shuffle=True, **shards).batch(batch)
    net = _Net()
    Model(net, lambda o, t: ops.mean((o - t) ** 2), SGD(net.trainable_params(), 0.3)).train(
        2, data)
    return {p.name: p.asnumpy().copy() for p in net.trainable_params()}


@pytest.mark.parametrize("mode", [PYNATIVE_MODE, GRAPH_MODE], ids=["pynative", "graph"])
def test_model_on_a_sharded_pipeline_matches_one_rank(mode):
    with context(mode=mode):
        # one shard of one: the permutation every rank's DistributedSampler shares
        reference = _train(BATCH, num_shards=1, shard_id=0)
        sp.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
        results = run_local(2, _train, BATCH // 2)
    for got in results:
        for name, want in reference.items():
            np.testing.assert_allclose(got[name], want, rtol=1e-10, atol=1e-10)
