"""Pipeline on real MPI ranks (the MPICH wheel's mpiexec): equal to one device."""
import re
import subprocess
from pathlib import Path

from sporeling.parallel.launch import mpiexec_command

JOB = Path(__file__).parent / "_pipeline_mpi_job.py"


def test_pipeline_on_two_mpi_ranks():
    done = subprocess.run(mpiexec_command(2, str(JOB), []), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(re.findall(r"rank \d of \d: ok", done.stdout)) == \
        ["rank 0 of 2: ok", "rank 1 of 2: ok"], done.stdout
