"""Real MPI jobs under the MPICH wheel's mpiexec: collectives at 2 ranks (through
``sporeling run``) and 4 ranks (oversubscribed), a failing rank, mismatched collectives.
Each job is a few seconds, most of it Python start-up."""
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from sporeling.core.cli import main
from sporeling.parallel.launch import find_mpiexec, mpiexec_command

JOBS = Path(__file__).parent / "mpi_jobs"
LIMIT_S = 120  # a hang would be a failure long before this


def _job(tmp_path, name) -> Path:
    """A private copy of the job script, so the process check below sees only ours."""
    target = tmp_path / name
    shutil.copy(JOBS / name, target)
    return target


def _run(command, timeout_s=LIMIT_S):
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
    return done, time.monotonic() - start


def _sporeling(capfd, *args):
    """``sporeling ARGS`` in this process (its plugins are loaded already): exit status,
    stdout, stderr and seconds; mpiexec's ranks write to the same file descriptors."""
    capfd.readouterr()
    start = time.monotonic()
    status = main(list(args))
    out, err = capfd.readouterr()
    return status, out, err, time.monotonic() - start


def _leftovers(tmp_path, grace_s=5.0) -> list[str]:
    """Processes still running anything from this test's folder (ranks, proxies) once the
    launcher has returned; a rank being killed gets ``grace_s`` to disappear."""
    deadline = time.monotonic() + grace_s
    while True:
        left = []
        for p in psutil.process_iter(["pid", "cmdline", "status"]):
            try:
                if p.info["status"] != psutil.STATUS_ZOMBIE and \
                        any(str(tmp_path) in part for part in p.info["cmdline"] or []):
                    left.append(f"{p.info['pid']}: {' '.join(p.info['cmdline'])}")
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                pass
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def test_mpiexec_is_the_wheels():
    assert Path(find_mpiexec()).parent == Path(sys.executable).parent


def test_collectives_on_two_mpi_ranks_through_sporeling_run(tmp_path, capfd):
    status, out, err, _ = _sporeling(capfd, "run", "-n", "2",
                                     str(_job(tmp_path, "collectives_job.py")))
    assert status == 0, err[-3000:]
    assert sorted(re.findall(r"rank \d of \d: ok", out)) == \
        ["rank 0 of 2: ok", "rank 1 of 2: ok"], out


def test_collectives_on_four_oversubscribed_mpi_ranks(tmp_path):
    done, _ = _run(mpiexec_command(4, str(_job(tmp_path, "collectives_job.py")), []))
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(re.findall(r"rank \d of \d: ok", done.stdout)) == \
        [f"rank {r} of 4: ok" for r in range(4)], done.stdout


def _segments() -> set:
    """MPICH's shared-memory files (an aborted job's ranks never remove theirs)."""
    return set(Path("/dev/shm").glob("mpich_shm_*")) if Path("/dev/shm").is_dir() else set()


def test_a_rank_that_raises_ends_every_rank_with_its_traceback_once(tmp_path, capfd):
    script = _job(tmp_path, "failing_job.py")
    before = _segments()
    # rank 0 waits in all_reduce with a 100 s comm_timeout: only the abort can end it soon
    status, out, err, elapsed = _sporeling(capfd, "run", "-n", "2", "--timeout", "100",
                                           str(script))
    assert status != 0
    assert err.count("ValueError: rank one fails on purpose") == 1, err
    assert err.count("Traceback (most recent call last)") == 1
    assert "sporeling: rank 1 of 2 raised; ending every rank" in err
    assert "should not get here" not in out
    assert elapsed < 60, elapsed  # start-up included; far below the 100 s timeout
    assert _leftovers(tmp_path) == []
    assert _segments() - before == set()  # sporeling run removed the job's /dev/shm files


def test_mismatched_collectives_end_in_the_timeout_error(tmp_path):
    done, elapsed = _run(mpiexec_command(2, str(_job(tmp_path, "mismatch_job.py")), []))
    assert done.returncode != 0
    assert "CollectiveTimeoutError: all_reduce: rank 0 of group 'world' waited 1.0" in \
        done.stderr, done.stderr[-3000:]
    assert "comm_timeout=1 s" in done.stderr
    assert elapsed < 60
    assert _leftovers(tmp_path) == []


def test_bad_arguments_of_sporeling_run(tmp_path, capfd):
    status, _, err, _ = _sporeling(capfd, "run", "-n", "0", str(JOBS / "failing_job.py"))
    assert status == 1 and "expected -n >= 1, got 0" in err
    status, _, err, _ = _sporeling(capfd, "run", "-n", "2", str(tmp_path / "missing.py"))
    assert status == 1 and "no such script" in err


def test_hostfile_is_passed_to_mpiexec():
    command = mpiexec_command(8, "train.py", ["--epochs", "2"], hostfile="hosts.txt")
    assert command[1:5] == ["-n", "8", "-f", "hosts.txt"]
    assert command[-3:] == ["train.py", "--epochs", "2"] and command[-4] == sys.executable


def test_local_backend_of_sporeling_run(tmp_path, capfd):
    script = tmp_path / "job.py"
    script.write_text("import sys, numpy as np, sporeling.parallel as sp\n"
                      "sp.init()\n"
                      "total = sp.all_reduce(np.array([sp.get_rank() + 1.0]))\n"
                      "sys.stdout.write(f'rank {sp.get_rank()} {sys.argv[1]} {total[0]}\\n')\n")
    status, out, err, _ = _sporeling(capfd, "run", "-n", "3", "--backend", "local",
                                     str(script), "hello")
    assert status == 0, err
    assert sorted(out.splitlines()) == [f"rank {r} hello 6.0" for r in range(3)]


def test_local_backend_failure_is_reported_once_with_its_rank(tmp_path, capfd):
    script = tmp_path / "job.py"
    script.write_text("import numpy as np, sporeling.parallel as sp\n"
                      "if sp.get_rank() == 2:\n"
                      "    raise KeyError('third rank')\n"
                      "sp.all_reduce(np.ones(1))\n")
    status, _, err, elapsed = _sporeling(capfd, "run", "-n", "3", "--backend", "local",
                                         "--timeout", "100", str(script))
    assert status == 1 and elapsed < 30
    assert err.count("KeyError: 'third rank'") == 1
    assert "(raised on local rank 2 of 3)" in err


def test_create_group_with_a_member_that_never_joins_times_out(tmp_path):
    done, elapsed = _run(mpiexec_command(2, str(_job(tmp_path, "missing_member_job.py")), []))
    assert done.returncode != 0
    assert "CollectiveTimeoutError: create_group: rank 0 of group 'world' waited 1.0" in \
        done.stderr, done.stderr[-3000:]
    assert "created the group alone" not in done.stdout
    assert elapsed < 25  # rank 1's 30 s sleep was cut short
    assert _leftovers(tmp_path) == []
