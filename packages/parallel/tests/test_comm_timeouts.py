"""Every wait is bounded by comm_timeout: a missing or mismatched peer ends in
CollectiveTimeoutError naming the collective, the rank, the group and the elapsed time."""
import time

import numpy as np
import pytest

from sporeling.core import context
from sporeling.parallel import CollectiveTimeoutError, current, get_rank
from sporeling.parallel.testing import run_local


def test_a_missing_peer_times_out_naming_collective_rank_group_and_elapsed():
    def job():
        if get_rank() == 0:
            current().all_reduce(np.ones(2), timeout=0.3)
    start = time.monotonic()
    with pytest.raises(CollectiveTimeoutError) as info:
        run_local(2, job)
    err = info.value
    assert (err.collective, err.rank, err.group) == ("all_reduce", 0, "world")
    assert 0.3 <= err.elapsed < 5 and time.monotonic() - start < 5
    text = str(err)
    assert "rank 0 of group 'world' waited 0.3" in text and "all_reduce" in text
    assert "not called by rank(s) 1" in text


def test_mismatched_collectives_end_in_the_timeout_error_not_a_hang():
    # comm_check="off": the transport alone (test_comm_check.py: the named error)
    def job():
        comm = current()
        if comm.rank == 0:
            comm.all_reduce(np.ones(2))
        else:
            comm.all_gather(np.ones(2))
    with context(comm_timeout=0.3, comm_check="off"):
        with pytest.raises(CollectiveTimeoutError, match="called different collectives"):
            run_local(2, job)


def test_the_same_collective_on_different_shapes_does_not_match_either():
    def job():
        current().all_reduce(np.ones(2 + get_rank()))
    with context(comm_timeout=0.3, comm_check="off"):
        with pytest.raises(CollectiveTimeoutError, match=r"rank 0: all_reduce.*rank 1: "
                                                          r"all_reduce"):
            run_local(2, job)


def test_recv_without_a_send_times_out():
    # both ranks wait for the other: whichever times out first reports (a race)
    with pytest.raises(CollectiveTimeoutError, match="no message from rank [01] with tag 3"):
        run_local(2, lambda: current().recv((1,), np.float32, 1 - get_rank(), tag=3,
                                            timeout=0.2))


def test_nonblocking_wait_uses_its_own_timeout():
    def job():
        if get_rank() == 0:
            handle = current().ibarrier()
            assert handle.test() is False
            handle.wait(timeout=0.2)
    with pytest.raises(CollectiveTimeoutError, match="barrier"):
        run_local(2, job)
