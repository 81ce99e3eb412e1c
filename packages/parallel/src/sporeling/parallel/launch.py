"""``sporeling run -n N [--backend mpi|local] script.py args...``.

``mpi`` (the default) runs ``mpiexec -n N python script.py args...`` with the ``mpiexec`` of
the MPICH wheel installed beside this Python; ``--hostfile`` is passed to it (``-f``), and
going past one machine is MPI's job (the same Python environment must exist on every host).
``local`` runs the script on N thread-ranks of this process (no MPI needed; slower, as the
ranks share one interpreter).

A rank that raises prints its traceback once and ends every rank (see
:mod:`sporeling.parallel.failure`); the command exits non-zero.
"""
from __future__ import annotations

import os
import runpy
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import traceback
from pathlib import Path

from .errors import ParallelError
from .shm import remove_orphaned_segments

__all__ = ["add_run_command", "find_mpiexec", "mpiexec_command", "TIMEOUT_ENV"]

TIMEOUT_ENV = "SPORELING_COMM_TIMEOUT"
"""Environment variable giving the ranks' default ``comm_timeout`` (``--timeout`` sets it)."""


def find_mpiexec() -> str:
    """The ``mpiexec`` beside this Python (the MPICH wheel's), else the first on ``PATH``."""
    for folder in (Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))):
        candidate = folder / "mpiexec"
        if candidate.exists():
            return str(candidate)
    found = shutil.which("mpiexec")
    if found is None:
        raise ParallelError("no mpiexec found", op="sporeling run",
                            expected="the MPICH wheel's mpiexec (pip install mpich mpi4py, or "
                                     "sporeling-parallel[mpi])", got=f"none beside "
                            f"{sys.executable} or on PATH", hint="--backend local needs no MPI")
    return found


def mpiexec_command(n: int, script: str, args: list[str], hostfile: str | None = None) -> list[str]:
    """The ``mpiexec`` command line that ``sporeling run`` executes."""
    command = [find_mpiexec(), "-n", str(n)]
    if hostfile:
        command += ["-f", hostfile]
    return command + [sys.executable, script, *args]


def _configure(parser) -> None:
    parser.add_argument("-n", "--np", dest="n", type=int, required=True, help="number of ranks")
    parser.add_argument("--backend", choices=("mpi", "local"), default="mpi",
                        help="mpi: one process per rank under mpiexec (default); "
                             "local: ranks as threads of this process")
    parser.add_argument("--hostfile", help="MPI hostfile (mpiexec -f), for several machines")
    parser.add_argument("--timeout", type=float,
                        help="seconds any collective may wait (the ranks' comm_timeout)")
    parser.add_argument("script", help="the Python script every rank runs")
    parser.add_argument("args", nargs="...", help="arguments passed to the script")


def _run(args) -> int:
    if args.n < 1:
        raise ParallelError("bad rank count", op="sporeling run", expected="-n >= 1",
                            got=args.n)
    if not Path(args.script).is_file():
        raise ParallelError("no such script", op="sporeling run", expected="a Python file",
                            got=args.script)
    if args.timeout is not None and not args.timeout > 0:
        raise ParallelError("bad timeout", op="sporeling run", expected="--timeout > 0 seconds",
                            got=args.timeout)
    if args.backend == "local":
        return _run_local(args.n, args.script, args.args, args.timeout)
    return _run_mpi(args.n, args.script, args.args, args.hostfile, args.timeout)


def _run_mpi(n: int, script: str, script_args: list[str], hostfile: str | None,
             timeout: float | None) -> int:
    env = dict(os.environ)
    if timeout is not None:
        env[TIMEOUT_ENV] = repr(float(timeout))
    started = time.time() - 1.0  # file times have a coarse grain on some file systems
    process = subprocess.Popen(mpiexec_command(n, script, script_args, hostfile), env=env,
                               start_new_session=True)
    try:
        return process.wait()
    except KeyboardInterrupt:  # Ctrl-C: end the whole job, launcher and ranks
        os.killpg(process.pid, signal.SIGINT)
        try:
            return process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            return process.wait()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        remove_orphaned_segments(started)  # an aborted job's /dev/shm files (shm.py)


def _run_local(n: int, script: str, script_args: list[str], timeout: float | None) -> int:
    from sporeling.core import context

    from .testing import run_local

    def rank_main():
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as exc:
            if exc.code not in (None, 0):
                raise
    argv, sys.argv = sys.argv, [script, *script_args]
    try:
        with context(**({} if timeout is None else {"comm_timeout": timeout})):
            run_local(n, rank_main)
    except BaseException as exc:  # noqa: BLE001 - printed once, as a rank's failure
        rank = getattr(exc, "__notes__", [""])[-1]
        print(f"sporeling: a rank raised {rank}; every rank ended", file=sys.stderr)
        traceback.print_exception(exc)
        return 1
    finally:
        sys.argv = argv
    return 0


def add_run_command(commands) -> None:
    commands.add_command("run", help="run a script on N ranks (mpiexec, or thread-ranks)",
                         run=_run, configure=_configure)
