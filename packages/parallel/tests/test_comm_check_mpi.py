"""comm_check on 2 real MPI ranks (the MPICH wheel's mpiexec): a mismatched pair is
CollectiveMismatchError on both ranks and a non-zero exit, where the check off lets the
all_gather rank complete with wrong data."""
import re
import subprocess
import time
from pathlib import Path

import numpy as np

from sporeling.parallel.launch import mpiexec_command

JOB = Path(__file__).parent / "mpi_jobs" / "check_mismatch_job.py"


def _run(mode: str, pair: str = "collectives", timeout_s: float = 5.0):
    """The job on 2 ranks with ``comm_check=mode`` and ``comm_timeout=timeout_s``."""
    return subprocess.run(mpiexec_command(2, str(JOB), [mode, pair, str(timeout_s)]),
                          capture_output=True, text=True, timeout=120)


def test_both_mpi_ranks_raise_the_mismatch_and_the_job_fails_without_wrong_data():
    done = _run("on")
    assert done.returncode != 0, done.stdout
    for rank, called in ((0, "all_reduce"), (1, "all_gather")):
        line = re.search(rf"rank {rank}: CollectiveMismatchError: {called}: .*", done.stdout)
        assert line, done.stdout + done.stderr[-3000:]
        assert "rank 0: all_reduce(sum) float32[4] at check_mismatch_job.py:" in line[0]
        assert "rank 1: all_gather(axis 0) float32[2] at check_mismatch_job.py:" in line[0]
    assert "returned" not in done.stdout  # no rank got data
    # no rank started the mismatched collective, so the next one matches as usual
    assert sorted(re.findall(r"rank \d: next all_reduce \[3.0\]", done.stdout)) == \
        ["rank 0: next all_reduce [3.0]", "rank 1: next all_reduce [3.0]"], done.stdout


def test_with_the_check_off_mpi_lets_a_mismatched_rank_complete_with_wrong_data():
    done = _run("off", timeout_s=2)  # what comm_check prevents: MPI matches by order
    assert done.returncode != 0
    assert "CollectiveTimeoutError: all_reduce: rank 0 of group 'world' waited 2" in \
        done.stderr, done.stderr[-3000:]
    assert "CollectiveMismatchError" not in done.stdout + done.stderr


def test_ranks_all_reducing_different_sizes_raise_on_mpi_without_hanging():
    """4 float32 on rank 0, 1 Mi on rank 1, into out=: the check names it on both ranks
    before any data moves (the blocking all_reduce reduces only after the signatures
    matched: out is as it was), and the next one works."""
    done = _run("on", "sizes")
    assert done.returncode != 0
    for rank, n in ((0, 4), (1, 1 << 20)):
        line = re.search(rf"rank {rank}: CollectiveMismatchError: all_reduce: .*", done.stdout)
        assert line, done.stdout + done.stderr[-3000:]
        assert "they differ in shape)" in line[0]
        assert f"rank {rank}: all_reduce(sum) float32[{n}] at check_mismatch_job.py:" in line[0]
        assert f"rank {rank}: out holds [0.0]" in done.stdout  # untouched: nothing moved
    assert "returned" not in done.stdout
    assert sorted(re.findall(r"rank \d: next all_reduce \[3.0\]", done.stdout)) == \
        ["rank 0: next all_reduce [3.0]", "rank 1: next all_reduce [3.0]"], done.stdout


def test_a_recv_that_does_not_fit_its_send_on_mpi():
    done = _run("on", "send")
    assert done.returncode != 0
    assert "rank 1: CollectiveMismatchError: recv: " in done.stdout, done.stderr[-3000:]
    assert "rank 0: send(dest 1, tag 4) float32[4] at check_mismatch_job.py:" in done.stdout
    assert "rank 1: recv(source 0, tag 4) float64[2] at check_mismatch_job.py:" in done.stdout
    assert "returned" not in done.stdout
    done = _run("off", "send")  # the same 16 bytes: MPI hands float32 bits over as float64
    assert done.returncode == 0, done.stderr[-3000:]
    wrong = np.full(4, 1.0, np.float32).view(np.float64).tolist()  # float32 1.0s as float64
    assert f"rank 1: mismatched collective returned {wrong}" in done.stdout, done.stdout


def test_a_rank_that_never_reaches_the_check_is_the_timeout_error_on_mpi():
    start = time.monotonic()
    done = _run("on", "missing", timeout_s=2)
    assert done.returncode != 0
    assert "CollectiveTimeoutError: all_reduce: rank 0 of group 'world' waited 2" in \
        done.stderr, done.stderr[-3000:]
    assert "in the signature check (comm_check='on'): this rank called all_reduce(sum) " \
           "float32[4]; a rank has not reached it" in done.stderr
    assert time.monotonic() - start < 50  # rank 0's abort cut rank 1's 60 s sleep short
