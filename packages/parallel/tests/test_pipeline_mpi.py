"""Pipeline on real MPI ranks (the MPICH wheel's mpiexec; 4 ranks oversubscribed): three
1F1B training steps equal to one device."""
import re
import subprocess
from pathlib import Path

import pytest

from sporeling.parallel.launch import mpiexec_command

JOB = Path(__file__).parent / "_pipeline_mpi_job.py"


@pytest.mark.parametrize("n", [2, 4])
def test_pipeline_on_mpi_ranks(n):
    done = subprocess.run(mpiexec_command(n, str(JOB), []), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(re.findall(r"rank \d of \d: ok", done.stdout)) == \
        [f"rank {r} of {n}: ok" for r in range(n)], done.stdout
