"""``Cell.set_comm_fusion`` (2.10): the trainable parameters' ``comm_fusion`` groups, which
data parallel's gradient buckets follow."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import nn


class _Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 2)


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = nn.Dense(3, 4)
        self.b = _Head()
        self.b.dense.bias.requires_grad = False


def test_set_comm_fusion_sets_the_trainable_parameters_groups():
    net = _Net()
    assert net.set_comm_fusion(2) is net
    assert [p.comm_fusion for p in net.trainable_params()] == [2, 2, 2]
    assert net.b.dense.bias.comm_fusion == 1  # not trainable: MindSpore's default kept
    net.b.set_comm_fusion(0)
    assert [p.comm_fusion for p in net.trainable_params()] == [2, 2, 0]
    with pytest.raises(ValueError, match="fusion_type"):
        net.set_comm_fusion(-1)


def test_comm_fusion_decides_data_parallel_buckets():
    pytest.importorskip("sporeling.parallel")
    from sporeling.parallel.data_parallel import plan_buckets
    net = _Net()
    params = list(net.trainable_params())
    assert len(plan_buckets(params, 1 << 20)) == 1
    net.b.set_comm_fusion(3)
    assert [b.indices for b in plan_buckets(params, 1 << 20)] == [(2,), (1, 0)]
    assert ms.Parameter(np.zeros(1), name="p").comm_fusion == 1
