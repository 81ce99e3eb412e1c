"""Run by test_mpi_jobs.py: rank 1 raises while rank 0 waits in a collective."""
import numpy as np

import sporeling.parallel as sp

sp.init()
if sp.get_rank() == 1:
    raise ValueError("rank one fails on purpose")
sp.current().all_reduce(np.ones(4))  # comm_timeout is long: the abort must end this rank
print("rank 0 should not get here", flush=True)
