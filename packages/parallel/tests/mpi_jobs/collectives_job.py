"""Run by test_mpi_jobs.py under mpiexec: every collective through sporeling.parallel on real
MPI ranks, checked on each rank against NumPy; prints 'rank R of N: ok' at the end."""
import sys

import numpy as np

import sporeling.expression as sx
import sporeling.parallel as sp

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
