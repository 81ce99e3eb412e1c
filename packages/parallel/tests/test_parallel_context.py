"""The parallel context keys, through core's hook, and init's device_num check."""
import pytest

import sporeling.parallel as sp
from sporeling.core import ContextError, get_context, reset_context, set_context
from sporeling.parallel import ParallelError
from sporeling.parallel.testing import run_local


@pytest.fixture(autouse=True)
def _clean():
    yield
    sp.reset_auto_parallel_context()
    sp.release()


def test_defaults():
    assert {k: sp.get_auto_parallel_context(k) for k in (
        "parallel_mode", "device_num", "gradients_mean", "search_mode", "pipeline_stages",
        "enable_parallel_optimizer")} == {
        "parallel_mode": "stand_alone", "device_num": None, "gradients_mean": False,
        "search_mode": "dynamic_programming", "pipeline_stages": 1,
        "enable_parallel_optimizer": False}
    assert sp.get_auto_parallel_context("comm_timeout") > 0


def test_set_get_and_reset():
    sp.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=4,
                                 gradients_mean=True, search_mode="sharding_propagation",
                                 pipeline_stages=2, enable_parallel_optimizer=True,
                                 comm_timeout=5)
    assert get_context("parallel_mode") == "semi_auto_parallel"  # core's context holds them
    assert sp.get_auto_parallel_context("comm_timeout") == 5.0
    set_context(mode=0)
    sp.reset_auto_parallel_context()
    assert sp.get_auto_parallel_context("pipeline_stages") == 1
    assert get_context("mode") == 0  # other keys untouched
    reset_context()


def test_unknown_mode_lists_the_accepted_ones():
    with pytest.raises(ContextError) as info:
        sp.set_auto_parallel_context(parallel_mode="hybrid")
    for mode in sp.PARALLEL_MODES:
        assert repr(mode) in str(info.value)
    assert "got 'hybrid'" in str(info.value)


@pytest.mark.parametrize("key, value", [
    ("search_mode", "greedy"), ("device_num", 0), ("pipeline_stages", 1.5),
    ("gradients_mean", 1), ("enable_parallel_optimizer", "yes"), ("comm_timeout", 0),
    ("comm_timeout", -1)])
def test_bad_values_are_refused_before_any_is_applied(key, value):
    with pytest.raises(ContextError, match=f"bad value for '{key}'"):
        sp.set_auto_parallel_context(parallel_mode="data_parallel", **{key: value})
    assert sp.get_auto_parallel_context("parallel_mode") == "stand_alone"


def test_only_parallel_keys():
    with pytest.raises(ContextError, match="unknown key 'mode'"):
        sp.set_auto_parallel_context(mode=0)
    with pytest.raises(ContextError, match="unknown key 'nope'"):
        sp.get_auto_parallel_context("nope")


def test_init_single_process_is_one_local_rank():
    sp.init()
    assert (sp.get_rank(), sp.get_group_size(), sp.current().backend) == (0, 1, "local")
    assert sp.get_rank("hccl_world_group") == 0  # MindSpore's world names work
    sp.release()
    assert not sp.is_initialized()


def test_init_with_device_num_different_from_the_world_fails_at_init():
    sp.set_auto_parallel_context(device_num=4)
    with pytest.raises(ParallelError, match=r"init: device_num differs from the world size; "
                                            r"expected device_num=1.*got device_num=4"):
        sp.init()
    assert not sp.is_initialized()


def test_device_num_checked_on_thread_ranks_too():
    sp.set_auto_parallel_context(device_num=2)
    assert run_local(2, lambda: (sp.init(), sp.get_rank())[1]) == [0, 1]
    with pytest.raises(ParallelError, match="device_num=3"):
        run_local(3, sp.init)


def test_unknown_backend_lists_the_installed_ones():
    with pytest.raises(sp.CommunicatorError, match="local, mpi"):
        sp.init("gloo")


def test_not_initialised():
    with pytest.raises(sp.CommunicatorError, match=r"get_rank: communication is not "
                                                   r"initialised"):
        sp.get_rank()
