"""Run by test_data_parallel_mpi.py under mpiexec: data-parallel training on real MPI ranks
(each process one rank, batch B/N) ends with the weights of one
process training alone with batch B, in PyNative and Graph mode; prints 'rank R of N: ok'."""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the shared model
import sporeling.parallel as sp  # noqa: E402
from sporeling.core import GRAPH_MODE, PYNATIVE_MODE, set_context  # noqa: E402

from _data_parallel_train import train  # noqa: E402

sp.init()
rank, n = sp.get_rank(), sp.get_group_size()
assert sp.current().backend == "mpi" and n > 1, sp.current()
for mode in (PYNATIVE_MODE, GRAPH_MODE):
    set_context(mode=mode)
    sp.reset_auto_parallel_context()
    alone = train(np.float64)  # every rank alone with the whole batch
    sp.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    together = train(np.float64, n, noise=0.1 * rank)  # rank 0's weights win
    for name, want in alone.items():
        np.testing.assert_allclose(together[name], want, rtol=1e-10, atol=1e-10,
                                   err_msg=f"{name} on rank {rank}, mode {mode}")
sys.stdout.write(f"rank {rank} of {n}: ok\n")
