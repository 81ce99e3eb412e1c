"""`sporeling train` loses nothing: arguments and the output folder are checked before any
work, non-finite weights are never saved, Ctrl-C stops with one line and exit status 130."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import sporeling.zoo.datasets as zoo_datasets
from sporeling.core.cli import main

_SHORT = ["train", "--model", "mlp", "--no-progress"]


@pytest.fixture
def no_work(monkeypatch):
    """Loading the data (the first piece of work) fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("the command started working before refusing its arguments")
    monkeypatch.setattr(zoo_datasets, "load_digits_split", refuse)


@pytest.mark.parametrize("option, value, expected", [
    ("--epochs", "0", "an integer >= 1"), ("--epochs", "-3", "an integer >= 1"),
    ("--epochs", "two", "an integer >= 1"), ("--batch-size", "0", "an integer >= 1"),
    ("--lr", "nan", "a finite number > 0"), ("--lr", "inf", "a finite number > 0"),
    ("--lr", "0", "a finite number > 0"), ("--lr", "-0.001", "a finite number > 0"),
    ("--seed", "-1", "an integer >= 0"),
])
def test_bad_arguments_are_refused_before_any_work(no_work, tmp_path, capsys, option,
                                                   value, expected):
    with pytest.raises(SystemExit) as info:
        main(_SHORT + ["--output", str(tmp_path), option, value])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}" in err and repr(value) in err and expected in err, err
    assert os.listdir(tmp_path) == []


def test_an_output_that_is_a_file_is_refused_up_front(no_work, tmp_path, capsys):
    f = tmp_path / "f"
    f.write_bytes(b"")
    for output in (f, f / "sub"):
        with pytest.raises(SystemExit) as info:
            main(_SHORT + ["--output", str(output)])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert "argument --output" in err and str(f) in err and "not a folder" in err, err


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_output_folder_without_write_permission_is_refused_up_front(no_work, tmp_path,
                                                                       capsys):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    with pytest.raises(SystemExit):
        main(_SHORT + ["--output", str(locked / "ckpt")])
    assert "cannot write" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_a_folder_the_file_system_refuses_is_refused_up_front(no_work, capsys):
    """As root, os.access says yes to /proc/x; the run used to train, then die saving."""
    assert main(_SHORT + ["--output", "/proc/sporeling-no-such/out"]) == 2
    err = capsys.readouterr().err
    assert "argument --output: cannot write in '/proc/sporeling-no-such/out'" in err, err


def test_the_output_folder_is_created_before_any_work(no_work, tmp_path):
    with pytest.raises(AssertionError, match="started working"):
        main(_SHORT + ["--output", str(tmp_path / "a" / "b")])
    assert (tmp_path / "a" / "b").is_dir() and os.listdir(tmp_path / "a" / "b") == []


def test_a_folder_in_the_checkpoint_s_place_is_refused_up_front(no_work, tmp_path, capsys):
    (tmp_path / "mlp_digits.safetensors").mkdir()
    assert main(_SHORT + ["--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "mlp_digits.safetensors" in err and "is a folder" in err, err


def test_help_names_every_option_with_help_and_its_default(capsys):
    with pytest.raises(SystemExit) as info:
        main(["train", "--help"])
    assert info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines anywhere
    for piece in ("--model {lenet,mlp}", "(default: lenet)", "--epochs", "(default: 40)",
                  "--batch-size", "(default: 32)", "--lr", "(default: 0.002)", "--mode",
                  "(default: pynative)", "--seed", "(default: 0)", "--output",
                  "(default: checkpoints)", "--no-progress"):
        assert piece in text, piece
    import argparse

    from sporeling.zoo import train_digits
    parser = argparse.ArgumentParser()
    train_digits.configure(parser)
    for action in parser._actions:
        assert action.help, f"{action.option_strings} has no help text"


def test_a_diverging_run_saves_nothing_and_keeps_the_previous_checkpoint(tmp_path, capsys):
    previous = tmp_path / "mlp_digits.safetensors"
    previous.write_bytes(b"the previous, good checkpoint")
    code = main(_SHORT + ["--epochs", "3", "--lr", "1e30", "--output", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "non-finite" in err and "--lr" in err and str(previous) in err, err
    assert "test accuracy" not in out  # no accuracy reported for a diverged network
    assert previous.read_bytes() == b"the previous, good checkpoint"
    assert os.listdir(tmp_path) == [previous.name]


def test_progress_is_plain_lines_when_stderr_is_not_a_terminal(tmp_path, capsys):
    assert main(["train", "--model", "mlp", "--epochs", "2", "--output", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err
    assert [line.split(":")[0] for line in err.splitlines()] == ["Epoch 1/2", "Epoch 2/2"]


def _start_training(output: Path, epochs: int = 200):
    return subprocess.Popen(
        [sys.executable, "-c", "from sporeling.core.cli import main; raise SystemExit(main())",
         "train", "--model", "mlp", "--epochs", str(epochs), "--output", str(output)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # as a terminal's foreground job gets it (a shell's background job ignores SIGINT)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def test_ctrl_c_stops_with_one_line_exit_130_and_saves_nothing(tmp_path):
    previous = tmp_path / "mlp_digits.safetensors"
    previous.write_bytes(b"the previous checkpoint")
    proc = _start_training(tmp_path)
    try:
        first = proc.stderr.readline()  # the first epoch's progress line: training is on
        assert first.startswith("Epoch 1/200:"), first
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:  # the test failed: do not leave a 200-epoch run behind
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if not line.startswith("Epoch ")]
    assert len(lines) == 1, err
    assert lines[0].startswith("sporeling train: interrupted in epoch "), lines
    assert "/200" in lines[0] and "nothing saved" in lines[0] and str(previous) in lines[0]
    assert out == ""
    # what it says is true: the previous checkpoint is untouched, nothing else was written
    assert previous.read_bytes() == b"the previous checkpoint"
    assert os.listdir(tmp_path) == [previous.name]


@pytest.fixture
def python_sigint():
    """Python's own Ctrl-C handling, even when pytest runs where SIGINT is ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_during_the_save_finishes_the_save_and_says_so(tmp_path, capsys, monkeypatch,
                                                              python_sigint):
    import sporeling.expression as sx
    real_save = sx.save_checkpoint

    def save_interrupted(net, path):
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C arrives while the file is written
        real_save(net, path)

    monkeypatch.setattr(sx, "save_checkpoint", save_interrupted)
    code = main(_SHORT + ["--epochs", "1", "--output", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 130
    assert err.strip() == ("sporeling train: interrupted while saving the checkpoint; "
                           f"checkpoint saved: {tmp_path / 'mlp_digits.safetensors'}")
    from sporeling.expression.serialization import load_checkpoint
    assert len(load_checkpoint(str(tmp_path / "mlp_digits.safetensors"))) == 6
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


def test_the_default_output_folder_is_ignored_by_git():
    import shutil
    root = Path(__file__).resolve().parents[2]
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not in the project's git checkout")
    found = subprocess.run(["git", "-C", str(root), "check-ignore", "-q",
                            "checkpoints/lenet5_digits.safetensors"])
    assert found.returncode == 0, "checkpoints/ is not in .gitignore"


def test_the_first_ctrl_c_waits_for_a_safe_point_the_second_stops_at_once(python_sigint):
    from sporeling.zoo.train_digits import _CtrlC
    with _CtrlC() as ctrl_c:
        ctrl_c.check()  # nothing pending
        os.kill(os.getpid(), signal.SIGINT)  # latched, not raised here
        with pytest.raises(KeyboardInterrupt):
            ctrl_c.check()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # the handler runs between bytecodes
                pass
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
