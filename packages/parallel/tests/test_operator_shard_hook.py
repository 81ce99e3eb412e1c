"""sporeling.parallel answers expression's ``sporeling_shard`` hook: ``sx.shard`` and
``Cell.shard`` run split over the ranks, with no class patched from outside."""
import numpy as np
import pytest

import sporeling.expression as sx
import sporeling.parallel as sp
from sporeling.expression import Tensor, nn, ops
from sporeling.expression.nn import Cell
from sporeling.parallel.testing import run_local


def _mlp():
    w1 = sx.Parameter(np.random.default_rng(1).standard_normal((8, 32)), name="w1")
    w2 = sx.Parameter(np.random.default_rng(2).standard_normal((32, 4)), name="w2")

    def mlp(x):
        return ops.matmul(ops.relu(ops.matmul(x, w1)), w2)
    return mlp


def test_sx_shard_on_an_mlp_at_two_ranks_equals_one_device():
    mlp = _mlp()
    x = np.random.default_rng(0).standard_normal((6, 8))
    ref = mlp(Tensor(x)).asnumpy()
    sharded = sx.shard(mlp, in_strategy=((2, 1),), out_strategy=None)
    assert isinstance(sharded, sp.operator.Shard)
    outs = run_local(2, lambda: sharded(Tensor(x)))
    assert len(outs) == 2
    for out in outs:
        np.testing.assert_allclose(np.asarray(out.asnumpy()), ref, rtol=1e-10, atol=1e-12)
    # the row split really happened: the first matmul ran on halves of the batch
    assert any(row["op"] == "matmul" and row["strategy"][0][0] == 2
               for row in sharded.table(x, device_num=2))


def test_net_shard_still_works_and_cell_is_not_patched():
    assert Cell.shard.__module__ == "sporeling.expression.nn.cell"
    net = nn.SequentialCell(nn.Dense(8, 16), nn.ReLU(), nn.Dense(16, 4))
    x = np.random.default_rng(3).standard_normal((4, 8)).astype(np.float32)
    ref = net(x).asnumpy()
    assert net.shard(((2, 1),), parameter_plan={"0.weight": (1, 2)}) is net
    for out in run_local(2, lambda: net(Tensor(x))):
        np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-6, atol=1e-6)
    assert sx.shard(nn.Dense(2, 2), ((1, 1),)).sharded is not None  # sx.shard on a Cell


def test_unknown_keyword_names_what_shard_accepts():
    with pytest.raises(sp.ShardingError, match="parameter_plan") as err:
        sx.shard(_mlp(), ((2, 1),), bogus=1)
    assert "bogus" in str(err.value)
