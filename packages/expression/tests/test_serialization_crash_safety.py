"""Saving a checkpoint: one temporary file per save, named after its target, cleaned up by
the next save after a crash, created with the umask's mode, fsynced with its directory."""
import os
import signal
import stat
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from sporeling.expression.serialization import load_checkpoint, save_checkpoint

# A child that saves a 64 MB checkpoint. KILL_AT=fsync makes it wait when the temporary
# file is complete (the worst moment for a kill: all bytes on disk, no rename yet);
# KILL_AT=early has the parent kill it as soon as the save starts (no save of 64 MB ends
# within the millisecond the kill takes to arrive).
_CHILD = textwrap.dedent("""
    import os, stat, sys, time
    import numpy as np
    from sporeling.expression.serialization import save_checkpoint
    target, value, kill_at = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    real_fsync = os.fsync
    def fsync(fd):
        if kill_at == "fsync" and stat.S_ISREG(os.fstat(fd).st_mode):
            print("fsync", flush=True)
            time.sleep(60)
        real_fsync(fd)
    os.fsync = fsync
    weights = np.full(16 * 1024 * 1024, value, np.float32)   # 64 MB
    print("saving", flush=True)
    save_checkpoint({"w": weights}, target)
    print("saved", flush=True)
""")


def _start_save(target, value, kill_at):
    return subprocess.Popen([sys.executable, "-c", _CHILD, str(target), str(value), kill_at],
                            stdout=subprocess.PIPE, text=True)


def _wait_for(proc, line):
    got = proc.stdout.readline().strip()
    assert got == line, f"child said {got!r}, expected {line!r}"


def test_kill_9_during_saves_leaves_one_file_after_the_next_save(tmp_path):
    target = tmp_path / "big.safetensors"
    small = np.arange(5, dtype=np.float32)
    save_checkpoint({"w": small}, str(target))
    before = target.read_bytes()
    for i, kill_at in enumerate(["fsync", "fsync", "early", "fsync"]):
        proc = _start_save(target, float(i + 1), kill_at)
        try:
            _wait_for(proc, "saving")
            if kill_at == "fsync":
                _wait_for(proc, "fsync")
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            proc.stdout.close()
        # the previous checkpoint is intact after every kill
        assert target.read_bytes() == before
        np.testing.assert_array_equal(load_checkpoint(str(target))["w"].asnumpy(), small)
        temps = [f for f in os.listdir(tmp_path) if f != target.name]
        assert all(f.startswith(".big.safetensors.tmp-") for f in temps), temps
        # the killed save's own temporary at most: each save removed the dead ones before it
        assert len(temps) == 1 if kill_at == "fsync" else len(temps) <= 1, temps
    # a normal save removes the dead saves' temporaries: exactly one file remains
    save_checkpoint({"w": small * 2}, str(target))
    assert os.listdir(tmp_path) == [target.name]
    np.testing.assert_array_equal(load_checkpoint(str(target))["w"].asnumpy(), small * 2)


def test_one_temporary_per_save_named_after_the_target(tmp_path, monkeypatch):
    seen = []
    real_replace = os.replace

    def replace(src, dst):
        seen.append(sorted(os.listdir(tmp_path)))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    save_checkpoint({"w": np.ones(4, np.float32)}, str(tmp_path / "m"))
    assert len(seen) == 1 and len(seen[0]) == 1, seen
    name = seen[0][0]
    prefix = f".m.safetensors.tmp-{os.getpid()}-"
    assert name.startswith(prefix) and len(name) > len(prefix), name
    assert os.listdir(tmp_path) == ["m.safetensors"]


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_file_mode_follows_the_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        save_checkpoint({"w": np.ones(2, np.float32)}, str(tmp_path / "m"))
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "m.safetensors").st_mode) == mode


def _dead_pid():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid  # reaped: no process has this id now (reuse within a test is unlikely)


def test_next_save_removes_stale_temporaries_of_its_own_target_only(tmp_path):
    dead, alive = _dead_pid(), os.getppid()
    stale = tmp_path / f".m.safetensors.tmp-{dead}-abc123"
    live = tmp_path / f".m.safetensors.tmp-{alive}-def456"  # another process still writing
    other = tmp_path / f".n.safetensors.tmp-{dead}-abc123"  # another target's
    unrelated = tmp_path / ".m.safetensors.tmp-notapid"
    for f in (stale, live, other, unrelated):
        f.write_bytes(b"partial")
    save_checkpoint({"w": np.ones(2, np.float32)}, str(tmp_path / "m"))
    assert sorted(os.listdir(tmp_path)) == sorted(
        ["m.safetensors", live.name, other.name, unrelated.name])


def test_save_fsyncs_the_file_and_its_directory(tmp_path, monkeypatch):
    kinds = []
    real = os.fsync

    def fsync(fd):
        mode = os.fstat(fd).st_mode
        kinds.append("dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else "?")
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    save_checkpoint({"w": np.ones(2, np.float32)}, str(tmp_path / "m"))
    assert kinds == ["file", "dir"]
