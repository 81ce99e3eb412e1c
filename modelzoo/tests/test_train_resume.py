"""`sporeling train --backup-dir`: a run killed with SIGKILL (no chance to clean up) and
started again with the same command ends with the checkpoint of an uninterrupted run, bit
for bit, in PyNative and Graph mode."""
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from sporeling.core.cli import main
from sporeling.expression.serialization import load_checkpoint

_RUN = ["train", "--model", "mlp", "--epochs", "2", "--batch-size", "64", "--no-progress"]
_CHECKPOINT = "mlp_digits.safetensors"


def _weights(folder):
    return {k: v.asnumpy() for k, v in load_checkpoint(str(folder / _CHECKPOINT)).items()}


def _kill_after_a_backup(args, backups, least_step: int):
    """Start the command, SIGKILL it once a backup of step >= ``least_step`` is written."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "from sporeling.core.cli import main; raise SystemExit(main())",
         *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline:
            steps = [int(m.group(1)) for name in os.listdir(backups) if
                     (m := re.fullmatch(r"backup-rank0-step(\d+)\.safetensors", name))] \
                if backups.is_dir() else []
            if steps and max(steps) >= least_step:
                proc.send_signal(signal.SIGKILL)
                break
            time.sleep(0.005)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, err


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_a_killed_run_resumes_to_the_uninterrupted_weights(tmp_path, capsys, mode):
    run = _RUN + ["--mode", mode]
    assert main(run + ["--output", str(tmp_path / "alone")]) == 0
    want = _weights(tmp_path / "alone")
    backups, out = tmp_path / "backup", tmp_path / "resumed"
    resumable = run + ["--output", str(out), "--backup-dir", str(backups),
                       "--backup-steps", "4"]
    code, err = _kill_after_a_backup(resumable, backups, least_step=8)
    assert code == -signal.SIGKILL, err  # killed mid-run, not finished
    assert not (out / _CHECKPOINT).exists()
    capsys.readouterr()
    assert main(resumable) == 0
    printed = capsys.readouterr().out
    assert re.search(r"resumed after step (\d+) from ", printed), printed
    got = _weights(out)
    assert got.keys() == want.keys()
    assert all(np.array_equal(got[k], want[k]) for k in want)
    assert os.listdir(backups) == []  # the finished run removed its backups


def test_backup_steps_must_be_a_positive_integer(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(_RUN + ["--output", str(tmp_path), "--backup-steps", "0"])
    assert "argument --backup-steps" in capsys.readouterr().err


def test_ctrl_c_says_the_backup_resumes_the_run(tmp_path, capsys, monkeypatch):
    import sporeling.zoo.train_digits as job

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(job, "_train", interrupted)
    code = main(_RUN + ["--output", str(tmp_path), "--backup-dir", str(tmp_path / "b")])
    assert code == 130
    assert f"the same command resumes from the backup in {tmp_path / 'b'}" in \
        capsys.readouterr().err
