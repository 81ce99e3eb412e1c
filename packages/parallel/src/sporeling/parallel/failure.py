"""Failing together: an uncaught exception on one MPI rank ends every rank of the job.

MPI has no way to tell a peer "I died" other than ending the job, so the rank that raises
prints its traceback once (prefixed by its rank) and calls ``MPI_Abort``; ``mpiexec`` then
kills every other rank and exits non-zero. Ranks blocked in a collective with a dead peer would
otherwise wait out ``comm_timeout`` (and then raise too).
"""
from __future__ import annotations

import sys
import time
import traceback

__all__ = ["end_all_ranks_on_error", "EXIT_STATUS"]

EXIT_STATUS = 1
FORWARD_GRACE_S = 0.3  # before MPI_Abort: mpiexec forwards the traceback (see hook)


def end_all_ranks_on_error(comm) -> None:
    """Install a ``sys.excepthook`` that prints the traceback and aborts the MPI job."""
    previous = sys.excepthook
    rank, size = comm.rank, comm.size

    def hook(exc_type, exc, tb):
        if issubclass(exc_type, KeyboardInterrupt):
            return previous(exc_type, exc, tb)
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        sys.stderr.write(f"sporeling: rank {rank} of {size} raised; ending every rank\n{text}")
        sys.stderr.flush()
        sys.stdout.flush()
        # mpiexec's proxy forwards what a rank writes from a pipe; the abort kills it, and
        # on a busy machine it lost the traceback (an empty stderr, 2 CI runs in 3): give
        # it a moment to read what was just written
        time.sleep(FORWARD_GRACE_S)
        from mpi4py import MPI
        MPI.COMM_WORLD.Abort(EXIT_STATUS)

    sys.excepthook = hook
