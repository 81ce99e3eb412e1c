"""Run by test_mpi_jobs.py under mpiexec: every collective through sporeling.parallel on real
MPI ranks, checked on each rank against NumPy; prints 'rank R of N: ok' at the end."""
import sys

import numpy as np

import sporeling.expression as sx
import sporeling.parallel as sp
from sporeling.core.errors import DTypeError, ShapeError

sp.init()
comm = sp.current()
rank, n = sp.get_rank(), sp.get_group_size()
assert comm.backend == "mpi", comm


def data(r, shape=(4, 6), dtype=np.float64):
    return (np.arange(np.prod(shape)).reshape(shape) % 7 + r + 1).astype(dtype)


everyone = [data(r) for r in range(n)]
for op, ref in [("sum", np.sum), ("mean", np.mean), ("max", np.max), ("min", np.min),
                ("prod", np.prod)]:
    np.testing.assert_allclose(comm.all_reduce(data(rank), op), ref(everyone, axis=0))
in_place = data(rank)
assert comm.all_reduce(in_place, out=in_place) is in_place  # MPI.IN_PLACE
np.testing.assert_allclose(in_place, np.sum(everyone, axis=0))
# blocking all_reduce's short checked path (signatures, then MPI's blocking Allreduce) for
# plain arrays; the others (converted, float16, mean of ints) go the nonblocking way
short_calls = []
blocking_allreduce = comm._all_reduce_now
comm._all_reduce_now = lambda *args: (short_calls.append(1), blocking_allreduce(*args))
other = np.empty((4, 6))
assert comm.all_reduce(data(rank), "max", out=other) is other
np.testing.assert_array_equal(other, np.max(everyone, axis=0))
for dtype in (np.int32, np.uint8):
    got = comm.all_reduce(data(rank, dtype=dtype), "max")
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, np.max([d.astype(dtype) for d in everyone], axis=0))
assert len(short_calls) == 3, short_calls
flags = np.array([rank == 0, True, False])  # bools reduce by or / and, as NumPy's ufuncs
assert comm.all_reduce(flags, "sum").tolist() == [True, True, False]
assert comm.all_reduce(flags, "min").tolist() == [n == 1, True, False]
np.testing.assert_allclose(comm.all_reduce(data(rank, dtype=np.complex128)),
                           np.sum(everyone, axis=0))
strided = data(rank, (4, 12))[:, ::2]  # not contiguous: converted first
np.testing.assert_allclose(comm.all_reduce(strided), sum(data(r, (4, 12))[:, ::2]
                                                         for r in range(n)))
np.testing.assert_allclose(comm.all_reduce(data(rank).tolist(), "mean"), np.mean(everyone, 0))
try:
    comm.all_reduce(data(rank, dtype=np.int64), "mean")
    raise AssertionError("mean of ints was accepted")
except DTypeError:
    pass
read_only = data(rank)
read_only.flags.writeable = False
try:
    comm.all_reduce(read_only, out=read_only)
    raise AssertionError("a read-only out= was written")
except ShapeError:
    pass
queued = comm.iall_reduce(np.full(2, 1.0))  # a checked collective still queued: in order
np.testing.assert_array_equal(comm.all_reduce(np.full(2, 2.0)), np.full(2, 2.0 * n))
np.testing.assert_array_equal(queued.wait(), np.full(2, 1.0 * n))
assert len(short_calls) == 3, short_calls
comm._all_reduce_now = blocking_allreduce
half = comm.all_reduce(data(rank, dtype=np.float16))
assert half.dtype == np.float16
np.testing.assert_allclose(half, np.sum(everyone, axis=0).astype(np.float16))
np.testing.assert_array_equal(comm.all_gather(data(rank), axis=1),
                              np.concatenate(everyone, axis=1))
shape = (4 * n, 3)
np.testing.assert_array_equal(comm.reduce_scatter(data(rank, shape)),
                              np.split(sum(data(r, shape) for r in range(n)), n)[rank])
np.testing.assert_array_equal(comm.broadcast(data(rank), root=n - 1), data(n - 1))
blocks = comm.all_to_all(data(rank, shape), split_axis=0, concat_axis=1)
np.testing.assert_array_equal(blocks, np.concatenate(
    [np.split(data(r, shape), n)[rank] for r in range(n)], axis=1))
comm.send(data(rank), (rank + 1) % n, tag=5)
np.testing.assert_array_equal(comm.recv((4, 6), np.float64, (rank - 1) % n, tag=5),
                              data((rank - 1) % n))
handles = [comm.iall_reduce(np.full(3, rank + 1.0)), comm.iall_gather(np.array([rank])),
           comm.ibarrier()]
assert handles[1].wait(timeout=30).tolist() == list(range(n))
np.testing.assert_array_equal(handles[0].wait(), np.full(3, n * (n + 1) / 2))
handles[2].wait()

sp.create_group("evens", list(range(0, n, 2)))
if rank % 2 == 0:
    assert sp.get_group_size("evens") == (n + 1) // 2 and sp.get_rank("evens") == rank // 2
    total = sp.current("evens").all_reduce(np.array([rank + 1.0]))
    assert total[0] == sum(r + 1 for r in range(0, n, 2)), total

# the primitives, differentiated, in PyNative and Graph mode
x = sx.Tensor(data(rank))
loss = lambda x: (sp.all_reduce(x, "mean") * sp.all_gather(x, axis=0)[:4]).sum()
g_eager, g_graph = sx.grad(loss)(x).asnumpy(), sx.jit(sx.grad(loss))(x).asnumpy()
np.testing.assert_allclose(g_eager, g_graph)
comm.barrier()
sp.release()
sys.stdout.write(f"rank {rank} of {n}: ok\n")  # one write: ranks interleave writes
sys.stdout.flush()
