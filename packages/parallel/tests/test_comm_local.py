"""The communicator contract on the local transport (thread-ranks): every collective against
its NumPy definition, nonblocking handles, send/recv, groups."""
import ml_dtypes
import numpy as np
import pytest

from sporeling.core import context

from sporeling.core.errors import DTypeError, ShapeError
from sporeling.parallel import CommunicatorError, current, get_group_size, get_rank
from sporeling.parallel.testing import run_local



@pytest.fixture(autouse=True)
def _short_timeout():
    with context(comm_timeout=20):  # a broken test fails in seconds, not minutes
        yield


REFERENCE = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min, "prod": np.prod}


def _data(rank, shape=(3, 4), dtype=np.float64):
    return (np.arange(np.prod(shape)).reshape(shape) % 5 + rank + 1).astype(dtype)


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("op", sorted(REFERENCE))
def test_all_reduce_matches_numpy(n, op):
    results = run_local(n, lambda: current().all_reduce(_data(get_rank()), op))
    expected = REFERENCE[op](np.stack([_data(r) for r in range(n)]), axis=0)
    for got in results:
        np.testing.assert_allclose(got, expected)
        assert got.dtype == np.float64


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32, np.int32])
def test_all_reduce_keeps_the_dtype(dtype):
    results = run_local(2, lambda: current().all_reduce(_data(get_rank(), dtype=dtype)))
    expected = (_data(0) + _data(1)).astype(dtype)
    assert results[0].dtype == np.dtype(dtype)
    np.testing.assert_array_equal(results[0].astype(np.float64), expected.astype(np.float64))


def test_mean_of_integers_is_a_dtype_error():
    with pytest.raises(DTypeError, match="mean needs a floating dtype"):
        run_local(2, lambda: current().all_reduce(np.arange(3), "mean"))


@pytest.mark.parametrize("op", ["max", "min"])
def test_max_of_complex_numbers_is_a_dtype_error(op):
    # MPI has no order of complex numbers: every transport refuses them alike
    with pytest.raises(DTypeError, match=f"{op} of complex numbers"):
        run_local(2, lambda: current().all_reduce(np.ones(3, np.complex64), op))


def test_unknown_reduction_lists_the_accepted_ones():
    with pytest.raises(CommunicatorError, match="sum, mean, max, min, prod"):
        run_local(2, lambda: current().all_reduce(np.ones(2), "median"))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_all_gather_concatenates_in_rank_order(axis):
    results = run_local(3, lambda: current().all_gather(_data(get_rank()), axis))
    expected = np.concatenate([_data(r) for r in range(3)], axis=axis)
    for got in results:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("axis", [0, 1])
def test_reduce_scatter_keeps_this_ranks_block_of_the_sum(axis):
    shape = (4, 6)
    results = run_local(2, lambda: current().reduce_scatter(_data(get_rank(), shape), "sum",
                                                            axis))
    total = _data(0, shape) + _data(1, shape)
    for r, got in enumerate(results):
        np.testing.assert_array_equal(got, np.split(total, 2, axis=axis)[r])


def test_reduce_scatter_needs_a_divisible_axis():
    with pytest.raises(ShapeError, match="divisible by the group size 2"):
        run_local(2, lambda: current().reduce_scatter(np.ones((3, 2))))


def test_broadcast_gives_roots_array_to_everyone():
    results = run_local(3, lambda: current().broadcast(_data(get_rank()), root=2))
    for got in results:
        np.testing.assert_array_equal(got, _data(2))


@pytest.mark.parametrize("split_axis, concat_axis", [(0, 0), (0, 1), (1, 0)])
def test_all_to_all_exchanges_blocks(split_axis, concat_axis):
    n, shape = 2, (4, 6)
    results = run_local(n, lambda: current().all_to_all(_data(get_rank(), shape), split_axis,
                                                        concat_axis))
    for r, got in enumerate(results):
        blocks = [np.split(_data(s, shape), n, axis=split_axis)[r] for s in range(n)]
        np.testing.assert_array_equal(got, np.concatenate(blocks, axis=concat_axis))


def test_send_recv_in_a_ring():
    def ring():
        comm = current()
        right, left = (comm.rank + 1) % comm.size, (comm.rank - 1) % comm.size
        comm.send(_data(comm.rank), right, tag=7)
        return comm.recv((3, 4), np.float64, left, tag=7)
    results = run_local(3, ring)
    for r, got in enumerate(results):
        np.testing.assert_array_equal(got, _data((r - 1) % 3))


def test_recv_of_a_different_shape_says_what_came():
    def job():
        comm = current()
        if comm.rank == 0:
            comm.send(np.ones(3), 1)
        else:
            comm.recv((4,), np.float64, 0)
    with pytest.raises(CommunicatorError, match=r"expected shape \(4,\) float64 from rank 0"):
        run_local(2, job)


def test_nonblocking_handles_wait_and_test():
    def job():
        comm = current()
        h1 = comm.iall_reduce(np.full(2, comm.rank + 1.0))
        h2 = comm.iall_gather(np.array([comm.rank]))
        h3 = comm.ibarrier()
        out = h2.wait(), h1.wait(timeout=5), h3.wait()
        assert h1.test() and h2.test() and h3.test()
        return out
    for gathered, reduced, barrier in run_local(2, job):
        np.testing.assert_array_equal(gathered, [0, 1])
        np.testing.assert_array_equal(reduced, [3.0, 3.0])
        assert barrier is None


def test_handle_test_is_false_until_every_rank_joined():
    def job():
        comm = current()
        if comm.rank == 0:
            handle = comm.iall_reduce(np.ones(1))
            early = handle.test()
            comm.send(np.zeros(1), 1)  # now rank 1 may join
            return early, handle.wait()
        comm.recv((1,), np.float64, 0)
        return None, comm.all_reduce(np.ones(1))
    (early, value), (_, other) = run_local(2, job)
    assert early is False and value[0] == 2.0 and other[0] == 2.0


def test_groups_reduce_among_their_members():
    def job():
        from sporeling.parallel import create_group
        create_group("evens", [0, 2])
        if get_rank() % 2:
            return None
        comm = current("evens")
        return comm.rank, get_group_size("evens"), get_rank("evens"), \
            comm.all_reduce(np.array([get_rank() + 1.0]))[0]
    assert run_local(4, job) == [(0, 2, 0, 4.0), None, (1, 2, 1, 4.0), None]


def test_a_non_member_asking_for_its_rank_in_a_group_is_told_it_is_not_a_member():
    def job():
        from sporeling.parallel import create_group
        create_group("first", [0])
        return get_rank("first")
    with pytest.raises(CommunicatorError, match="world rank 1 is not a member of group 'first'"):
        run_local(2, job)


def test_unknown_group_names_the_known_ones():
    with pytest.raises(CommunicatorError, match=r"unknown group.*got 'nope'"):
        run_local(1, lambda: get_rank("nope"))


def test_bad_peer_rank_names_the_group_range():
    with pytest.raises(CommunicatorError, match=r"a rank of group 'world' \(0..1\), got 5"):
        run_local(2, lambda: current().send(np.ones(1), 5))


def test_run_local_reraises_the_first_failure_naming_its_rank():
    def job():
        if get_rank() == 1:
            raise ValueError("boom")
        current().all_reduce(np.ones(1), timeout=60)  # ends at once, not after 60 s
    with pytest.raises(ValueError, match="boom") as info:
        run_local(2, job)
    assert "(raised on local rank 1 of 2)" in info.value.__notes__


@pytest.mark.parametrize("n", [1, 2])
def test_all_reduce_into_out_and_in_place(n):
    def job():
        comm = current()
        x = _data(comm.rank)
        out = np.empty_like(x)
        got = comm.all_reduce(x, "mean", out=out)
        y = _data(comm.rank, dtype=np.float16)
        same = comm.all_reduce(y, out=y)  # in place, through the float32 wire
        return got is out, out, same is y, y
    expected = np.mean([_data(r) for r in range(n)], axis=0)
    for is_out, out, is_y, y in run_local(n, job):
        assert is_out and is_y
        np.testing.assert_allclose(out, expected)
        np.testing.assert_array_equal(y, sum(_data(r, dtype=np.float16) for r in range(n)))


def test_a_bad_out_buffer_says_what_was_expected():
    with pytest.raises(ShapeError, match=r"expected a writeable C-contiguous float64 array of "
                                         r"shape \(3, 4\), got ndarray float32\[3, 4\]"):
        run_local(2, lambda: current().all_reduce(_data(0), out=np.empty((3, 4), np.float32)))


def test_receives_match_sends_in_posting_order():
    def job():
        comm = current()
        if comm.rank == 0:
            first, second = comm.irecv((1,), np.float64, 1), comm.irecv((1,), np.float64, 1)
            return second.wait()[0], first.wait()[0]
        comm.send(np.array([1.0]), 0)
        comm.send(np.array([2.0]), 0)
    assert run_local(2, job)[0] == (2.0, 1.0)
