"""comm_check (issue 10): collectives that do not match across ranks raise
CollectiveMismatchError on every rank, naming what each rank called, before any data moves
(thread-ranks here; test_comm_check_mpi.py runs a real MPI job)."""
import inspect
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes

import sporeling.parallel as sp
from sporeling.core import ContextError, context
from sporeling.parallel import (CollectiveMismatchError, CollectiveTimeoutError,
                                CommunicatorError, current, get_rank)
from sporeling.parallel.comm.check import COMPARED, describe, encode
from sporeling.parallel.split_phase import all_reduce_start, all_reduce_wait
from sporeling.parallel.testing import run_local


@pytest.fixture(autouse=True)
def _short_timeout():
    with context(comm_timeout=10):  # a broken test fails in seconds, not minutes
        yield


def _each_rank(n, fn):
    """``fn(comm)`` on ``n`` thread-ranks; what each returned or raised (so every rank's
    error is seen, not only the first)."""
    def job():
        try:
            return fn(current())
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            return exc
    return run_local(n, job)


F32 = np.float32
MISMATCHES = {  # name -> (rank 0's call, rank 1's call, rank 0's text, rank 1's text, differ)
    "kind": (lambda c: c.all_reduce(np.ones(4, F32)),
             lambda c: c.all_gather(np.ones(4, F32)),
             "all_reduce(sum) float32[4]", "all_gather(axis 0) float32[4]",
             ["collective", "op", "root/axis"]),
    "op": (lambda c: c.all_reduce(np.ones(4, F32), "sum"),
           lambda c: c.all_reduce(np.ones(4, F32), "max"),
           "all_reduce(sum) float32[4]", "all_reduce(max) float32[4]", ["op"]),
    "shape": (lambda c: c.all_reduce(np.ones((2, 3), F32)),
              lambda c: c.all_reduce(np.ones((3, 2), F32)),
              "all_reduce(sum) float32[2, 3]", "all_reduce(sum) float32[3, 2]", ["shape"]),
    "dtype": (lambda c: c.all_reduce(np.ones(4, np.float64)),
              lambda c: c.all_reduce(np.ones(8, F32)),  # the same bytes: MPI would mix them
              "all_reduce(sum) float64[4]", "all_reduce(sum) float32[8]", ["dtype", "shape"]),
    "root": (lambda c: c.broadcast(np.ones(4, F32), root=0),
             lambda c: c.broadcast(np.ones(4, F32), root=1),
             "broadcast(root 0) float32[4]", "broadcast(root 1) float32[4]", ["root/axis"]),
    "axis": (lambda c: c.all_gather(np.ones((2, 2), F32), axis=0),
             lambda c: c.all_gather(np.ones((2, 2), F32), axis=1),
             "all_gather(axis 0) float32[2, 2]", "all_gather(axis 1) float32[2, 2]",
             ["root/axis"]),
    "reduce_scatter op": (lambda c: c.reduce_scatter(np.ones(4, F32), "sum"),
                          lambda c: c.reduce_scatter(np.ones(4, F32), "min"),
                          "reduce_scatter(sum, axis 0) float32[4]",
                          "reduce_scatter(min, axis 0) float32[4]", ["op"]),
    "all_to_all axes": (lambda c: c.all_to_all(np.ones((2, 2), F32), 0, 0),
                        lambda c: c.all_to_all(np.ones((2, 2), F32), 0, 1),
                        "all_to_all(split_axis 0, concat_axis 0) float32[2, 2]",
                        "all_to_all(split_axis 0, concat_axis 1) float32[2, 2]",
                        ["root/axis"]),
    "barrier": (lambda c: c.barrier(), lambda c: c.all_reduce(np.ones(1, F32)),
                "barrier()", "all_reduce(sum) float32[1]",
                ["collective", "op", "dtype", "shape"]),
}


@pytest.mark.parametrize("case", sorted(MISMATCHES))
def test_every_rank_raises_naming_what_each_rank_called(case):
    first, second, text0, text1, differ = MISMATCHES[case]
    errors = _each_rank(2, lambda c: (first if c.rank == 0 else second)(c))
    for rank, err in enumerate(errors):
        assert isinstance(err, CollectiveMismatchError), err
        assert isinstance(err, CommunicatorError)
        assert (err.rank, err.group, err.number) == (rank, "world", 0)
        assert err.calls[0].startswith(text0 + " at test_comm_check.py:")
        assert err.calls[1].startswith(text1 + " at test_comm_check.py:")
        assert err.differ == differ
        assert f"rank 0: {text0} at test_comm_check.py:" in str(err)
        assert f"rank 1: {text1} at test_comm_check.py:" in str(err)


def test_the_message_names_the_users_lines_and_the_sequence_number():
    def job(comm):
        comm.all_reduce(np.ones(2))             # collective #0 matches
        if comm.rank == 0:
            comm.all_reduce(np.ones(2), "max")  # line A
        else:
            comm.all_reduce(np.ones(2), "min")  # line B
    errors = _each_rank(2, job)
    lines, start = inspect.getsourcelines(
        test_the_message_names_the_users_lines_and_the_sequence_number)
    a = start + next(i for i, text in enumerate(lines) if "# line A" in text)
    b = start + next(i for i, text in enumerate(lines) if "# line B" in text)
    for err in errors:
        assert err.number == 1
        assert "collective #1 of the group" in str(err)
        assert f"rank 0: all_reduce(max) float64[2] at test_comm_check.py:{a} in job" in str(err)
        assert f"rank 1: all_reduce(min) float64[2] at test_comm_check.py:{b} in job" in str(err)


def test_no_rank_starts_a_mismatched_collective_so_the_next_ones_still_work():
    def job(comm):
        try:
            comm.all_reduce(np.ones(2), "sum" if comm.rank == 0 else "prod")
        except CollectiveMismatchError:
            pass
        return comm.all_reduce(np.full(2, comm.rank + 1.0)).tolist()
    assert _each_rank(3, job) == [[6.0, 6.0]] * 3


def test_matching_collectives_give_their_results_with_the_check_on():
    def job(comm):
        r = comm.rank
        return (comm.all_reduce(np.full(2, r + 1.0), "mean").tolist(),
                comm.all_gather(np.array([r]), 0).tolist(),
                comm.reduce_scatter(np.arange(4.0) * (r + 1), "sum").tolist(),
                comm.broadcast(np.array([r * 10]), root=1).tolist(),
                comm.all_to_all(np.arange(2) + 2 * r).tolist())
    assert sp.get_auto_parallel_context("comm_check") == "on"  # the default
    got = _each_rank(2, job)
    assert got[0] == ([1.5, 1.5], [0, 1], [0.0, 3.0], [10], [0, 2])
    assert got[1] == ([1.5, 1.5], [0, 1], [6.0, 9.0], [10], [1, 3])


def test_nonblocking_starts_do_not_wait_for_the_peers_and_start_in_call_order():
    started = threading.Event()

    def job(comm):
        if comm.rank == 1:
            assert started.wait(10)  # rank 0 starts both before rank 1 arrives
        a = comm.iall_reduce(np.full(2, comm.rank + 1.0))
        b = comm.iall_gather(np.array([comm.rank]))
        if comm.rank == 0:
            assert a.test() is False and b.test() is False  # rank 1 has not come
            started.set()
        if comm.rank == 0:  # rank 0 waits in the other order: the starts keep call order
            return b.wait().tolist(), a.wait().tolist()
        return a.wait().tolist() and (b.wait().tolist(), a.wait().tolist())
    assert _each_rank(2, job) == [([0, 1], [3.0, 3.0])] * 2


def test_an_all_reduce_stages_its_own_share_while_the_signatures_travel():
    """The check's round trip overlaps the all-reduce's local work (issue 23 §14): the
    result buffer holds this rank's own input as soon as the call returns, before any peer
    has called; the peers' data moves only once the signatures match."""
    arrived = threading.Event()

    def job(comm):
        if comm.rank == 1:
            assert arrived.wait(10)  # rank 0 starts before rank 1 arrives
        out = np.zeros(4)
        handle = comm.iall_reduce(np.full(4, comm.rank + 1.0), out=out)
        staged = out.tolist(), handle.test()
        if comm.rank == 0:
            arrived.set()
        return staged, handle.wait().tolist()
    (staged, result), (_, result1) = _each_rank(2, job)
    assert staged == ([1.0] * 4, False)  # rank 0's own share, staged; no signature back yet
    assert result == result1 == [3.0] * 4


@settings(max_examples=25, deadline=None)
@given(shapes=st.lists(array_shapes(max_dims=3, max_side=6), min_size=2, max_size=2,
                       unique=True),
       dtype=st.sampled_from([np.float16, np.float32, np.float64, np.int32]),
       out=st.sampled_from(["new array", "out=", "in place"]))
def test_an_all_reduce_of_other_sizes_is_named_on_every_rank_and_moves_no_data(shapes, dtype,
                                                                                out):
    """Ranks all-reducing different sizes (MPI would truncate or hang) raise on every rank;
    each rank's buffers hold nothing of a peer's (``out=`` may hold the rank's own input,
    staged while the signatures travelled); the next collective works."""
    def job(comm):
        x = np.full(shapes[comm.rank], comm.rank + 1, dtype)
        into = {"new array": None, "out=": np.zeros_like(x), "in place": x}[out]
        try:
            comm.all_reduce(x, out=into)
        except CollectiveMismatchError as err:
            after = comm.all_reduce(np.full(2, comm.rank + 1.0)).tolist()
            return err, x.tolist(), None if into is None else into.tolist(), after
        return "no error"
    for rank, got in enumerate(_each_rank(2, job)):
        err, x, into, after = got
        assert "shape" in err.differ and err.rank == rank
        own = np.full(shapes[rank], rank + 1, dtype).tolist()
        untouched = np.zeros(shapes[rank], dtype).tolist()
        assert x == own and into in (None, untouched, own)  # out=: maybe staged (own)
        assert after == [3.0, 3.0]


def test_the_mismatch_is_raised_by_wait_of_a_nonblocking_start():
    def job(comm):
        handle = comm.iall_reduce(np.ones(2 + comm.rank))
        return handle.wait()
    errors = _each_rank(2, job)
    assert all(isinstance(e, CollectiveMismatchError) and e.differ == ["shape"]
               for e in errors), errors


def test_split_phase_all_reduce_start_is_checked():
    def job(comm):
        x = np.ones(3, np.float64 if comm.rank == 0 else np.float32)
        return all_reduce_wait(all_reduce_start(x, "sum"), x)
    errors = _each_rank(2, job)
    for err in errors:
        assert isinstance(err, CollectiveMismatchError), err
        assert err.differ == ["dtype"]
        assert "rank 0: all_reduce(sum) float64[3]" in str(err)


def test_a_rank_that_never_arrives_is_still_the_timeout_error():
    def job(comm):
        if comm.rank == 0:
            comm.all_reduce(np.ones(2), timeout=0.3)
    with pytest.raises(CollectiveTimeoutError) as info:
        run_local(2, lambda: job(current()))
    err = info.value
    assert (err.collective, err.rank, err.group) == ("all_reduce", 0, "world")
    assert "in the signature check (comm_check='on')" in str(err)
    assert "rank 0: all_reduce(sum) float64[2]; not called by rank(s) 1" in str(err)


def test_different_groups_never_meet_they_time_out_without_wrong_data():
    def job(comm):
        group = comm.create_group("both", [0, 1])
        (group if comm.rank == 0 else comm).all_reduce(np.ones(2), timeout=0.3)
    errors = _each_rank(2, job)
    assert any(isinstance(e, CollectiveTimeoutError) for e in errors), errors


def test_off_keeps_the_transport_alone():
    def job(comm):
        return comm.all_reduce(np.ones(2)) if comm.rank == 0 else comm.all_gather(np.ones(2))
    with context(comm_timeout=0.3, comm_check="off"):
        errors = _each_rank(2, job)
    assert any(isinstance(e, CollectiveTimeoutError) and
               "called different collectives" in str(e) for e in errors), errors
    assert not any(isinstance(e, CollectiveMismatchError) for e in errors)


def test_the_context_key():
    assert "comm_check" in sp.context.PARALLEL_KEYS
    with pytest.raises(ContextError, match="'off', 'on'"):
        sp.set_auto_parallel_context(comm_check="yes")
    sp.set_auto_parallel_context(comm_check="off")
    try:
        assert sp.get_auto_parallel_context("comm_check") == "off"
    finally:
        sp.reset_auto_parallel_context()
    assert sp.get_auto_parallel_context("comm_check") == "on"


def test_the_environment_sets_the_default(monkeypatch):
    monkeypatch.setenv("SPORELING_COMM_CHECK", "off")
    try:
        sp.reset_auto_parallel_context()
        assert sp.get_auto_parallel_context("comm_check") == "off"
        monkeypatch.setenv("SPORELING_COMM_CHECK", "maybe")
        with pytest.raises(ContextError, match="SPORELING_COMM_CHECK"):
            sp.reset_auto_parallel_context()
    finally:
        monkeypatch.delenv("SPORELING_COMM_CHECK")
        sp.reset_auto_parallel_context()


def test_signatures_describe_many_dims_and_differ_only_in_what_is_compared():
    shape = tuple(range(1, 11))
    sig = encode("all_gather", 1, dtype=np.dtype("int8"), shape=shape, p1=0)
    assert describe(sig) == "all_gather(axis 0) int8[1, 2, 3, 4, 5, 6, 7, 8, ... (10 dims)]"
    other = encode("all_gather", 1, dtype=np.dtype("int8"), shape=shape[:9] + (99,), p1=0)
    assert not np.array_equal(sig[:COMPARED], other[:COMPARED])  # dims past 8: a checksum
    a = encode("barrier", 1, line="a.py:1 in f")
    b = encode("barrier", 1, line="b.py:2 in g")
    assert np.array_equal(a[:COMPARED], b[:COMPARED]) and not np.array_equal(a, b)


@pytest.mark.parametrize("sent, wanted, differ", [
    (np.ones(4, np.float32), ((4,), np.float64), ["dtype"]),
    (np.ones(4, np.float32), ((8,), np.float32), ["shape"]),
    (np.ones((2, 2), np.int64), ((4,), np.int64), ["shape"])])
def test_a_recv_that_does_not_fit_its_send_is_named_by_the_receiver(sent, wanted, differ):
    def job(comm):
        if comm.rank == 0:
            return comm.send(sent, 1, tag=5)
        return comm.recv(*wanted, 0, tag=5)
    assert sp.get_auto_parallel_context("comm_check") == "on"
    _, err = _each_rank(2, job)
    assert isinstance(err, CollectiveMismatchError), err
    assert err.differ == differ and err.number is None
    shape = ", ".join(map(str, sent.shape))
    assert f"rank 0: send(dest 1, tag 5) {sent.dtype}[{shape}] at test_comm_check.py:" in \
        str(err)
    assert f"rank 1: recv(source 0, tag 5) {np.dtype(wanted[1])}[{wanted[0][0]}] at " \
           f"test_comm_check.py:" in str(err)
    assert "sent and received different arrays" in str(err)


def test_matching_sends_and_receives_keep_their_order_and_exchange_without_deadlock():
    def job(comm):
        peer = 1 - comm.rank
        sends = [comm.isend(np.full(3, 10.0 * comm.rank + k), peer, tag=2) for k in range(3)]
        first, second = comm.irecv((3,), np.float64, peer, 2), \
            comm.irecv((3,), np.float64, peer, 2)
        got = [second.wait().tolist(), first.wait().tolist(),  # waited out of order
               comm.recv((3,), np.float64, peer, 2).tolist()]
        for handle in sends:
            handle.wait()
        return got
    r0, r1 = _each_rank(2, job)
    assert r0 == [[11.0] * 3, [10.0] * 3, [12.0] * 3]
    assert r1 == [[1.0] * 3, [0.0] * 3, [2.0] * 3]
