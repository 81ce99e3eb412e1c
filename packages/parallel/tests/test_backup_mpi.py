"""``BackupAndRestore`` on 2 real MPI ranks (data parallel): after one rank is SIGKILLed
(between the two ranks' backups of a step) the job started again resumes every rank from the
newest step both saved and ends with the weights of an uninterrupted run; likewise in Graph
mode after a failure. Each rank names its files by the ``sporeling_rank`` hook's answer."""
import re
import subprocess
from pathlib import Path

from sporeling.parallel.launch import mpiexec_command
from sporeling.parallel.testing import run_local

JOB = Path(__file__).parent / "mpi_jobs" / "backup_job.py"


def test_a_killed_two_rank_job_resumes_to_the_uninterrupted_weights(tmp_path):
    killed = subprocess.run(mpiexec_command(2, str(JOB), ["kill", str(tmp_path)]),
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode != 0, killed.stdout
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names, killed.stderr[-3000:]
    assert "backup-rank0-step4.safetensors" in names and \
        "backup-rank1-step4.safetensors" in names, names
    assert "backup-rank1-step6.safetensors" not in names, names  # killed before saving it
    done = subprocess.run(mpiexec_command(2, str(JOB), ["check", str(tmp_path)]),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(re.findall(r"rank \d of \d: ok", done.stdout)) == \
        ["rank 0 of 2: ok", "rank 1 of 2: ok"], done.stdout


def test_sporeling_rank_names_each_thread_rank_s_backups(tmp_path):
    from sporeling.core import get_plugin_host
    from sporeling.expression.train import BackupAndRestore

    assert get_plugin_host().hook.sporeling_rank() is None  # no communication: alone
    ranks = run_local(2, lambda: (get_plugin_host().hook.sporeling_rank(),
                                  BackupAndRestore(tmp_path).rank))
    assert ranks == [(0, 0), (1, 1)]
