"""Run by test_mpi_jobs.py: rank 0 creates a group with rank 1, which never joins."""
import time

import sporeling.parallel as sp

sp.init()
sp.set_auto_parallel_context(comm_timeout=1.0)
if sp.get_rank() == 0:
    sp.create_group("pair", [0, 1])
    print("rank 0 created the group alone?!", flush=True)
else:
    time.sleep(30)  # ended by rank 0's abort long before this
