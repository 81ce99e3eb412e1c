"""The MindSpore facade over sporeling.parallel (both installed: the `integration` env)."""
import pytest

import sporeling.ms as ms
from sporeling.ms import communication


def test_auto_parallel_context_roundtrip_through_sporeling_parallel():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True)
    try:
        assert ms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    finally:
        ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    with pytest.raises(Exception, match="everything"):
        ms.set_auto_parallel_context(parallel_mode="everything")


def test_communication_with_sporeling_parallel():
    communication.init()
    try:
        assert communication.get_rank() == 0 and communication.get_group_size() == 1
        assert communication.get_rank(communication.GlobalComm.WORLD_COMM_GROUP) == 0
    finally:
        communication.release()


def test_primitive_shard_splits_the_op_over_ranks():
    """``ops.MatMul().shard(...)`` in the facade drives sporeling.parallel's operator parallel."""
    import numpy as np

    from sporeling.parallel.operator import shard
    from sporeling.parallel.testing import run_local

    matmul, relu = ms.ops.MatMul().shard(((1, 1), (1, 2))), ms.ops.ReLU()
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((4, 6)), rng.standard_normal((6, 8))
    f = lambda x, w: relu(matmul(x, w))  # noqa: E731
    sharded = shard(f)
    table = sharded.table(x, w, device_num=2)
    assert [(r["op"], r["strategy"]) for r in table][0] == ("matmul", ((1, 1), (1, 2)))
    for out in run_local(2, lambda: sharded(x, w)):
        np.testing.assert_allclose(np.asarray(out), np.maximum(x @ w, 0), rtol=1e-12)
