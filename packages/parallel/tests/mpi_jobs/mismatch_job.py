"""Run by test_mpi_jobs.py: the ranks call different collectives; both end in the timeout."""
import numpy as np

import sporeling.parallel as sp

sp.init()
sp.set_auto_parallel_context(comm_timeout=1.0, comm_check="off")  # the transport alone
if sp.get_rank() == 0:
    sp.current().all_reduce(np.ones(1000))
else:
    sp.current().all_gather(np.ones(1000))
# MPI matches collectives by order, not kind: rank 1 may even complete (with wrong data)
# and exit; rank 0 times out and its abort ends the job
print(f"rank {sp.get_rank()}: mismatched collective returned", flush=True)
