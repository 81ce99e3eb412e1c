"""Data parallel on 2 real MPI ranks (mpiexec from the MPICH wheel): the same weights as
one rank with the whole batch, PyNative and Graph mode (a few seconds, mostly start-up)."""
import re
import subprocess
from pathlib import Path

from sporeling.parallel.launch import mpiexec_command

JOB = Path(__file__).parent / "mpi_jobs" / "data_parallel_job.py"


def test_data_parallel_on_two_mpi_ranks_matches_one_rank():
    done = subprocess.run(mpiexec_command(2, str(JOB), []), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(re.findall(r"rank \d of \d: ok", done.stdout)) == \
        ["rank 0 of 2: ok", "rank 1 of 2: ok"], done.stdout
