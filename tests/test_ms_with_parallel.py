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
