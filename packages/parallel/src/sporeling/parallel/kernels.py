"""Kernels of the collective primitives (:mod:`.primitives`): each calls this rank's current
communicator when it runs. Kept apart from the primitives so that registering kernels (which
every process running an op does) defines no primitive."""
from __future__ import annotations

import numpy as np

from .comm.registry import current

__all__ = ["add_kernels", "KERNELS"]


def _k_all_reduce(backend, x, out=None, *, op, group):
    return current(group, op="all_reduce").all_reduce(x, op)


def _k_all_gather(backend, x, out=None, *, axis, size, group):
    return current(group, op="all_gather").all_gather(x, axis)


def _k_reduce_scatter(backend, x, out=None, *, op, axis, size, group):
    return current(group, op="reduce_scatter").reduce_scatter(x, op, axis)


def _k_broadcast(backend, x, out=None, *, root, group):
    return current(group, op="broadcast").broadcast(x, root)


def _k_reduce(backend, x, out=None, *, root, group):
    comm = current(group, op="reduce")
    total = comm.all_reduce(x, "sum")  # one collective; non-roots keep zeros
    return total if comm.rank == root else np.zeros_like(total)


def _k_all_to_all(backend, x, out=None, *, split_axis, concat_axis, size, group):
    return current(group, op="all_to_all").all_to_all(x, split_axis, concat_axis)


def _k_send(backend, x, out=None, *, dest, tag, group):
    current(group, op="send").send(x, dest, tag)
    return np.zeros((), np.asarray(x).dtype)


def _k_recv(backend, like, out=None, *, source, tag, group):
    return current(group, op="recv").recv(np.shape(like), np.asarray(like).dtype, source, tag)


KERNELS = {"all_reduce": _k_all_reduce, "all_gather": _k_all_gather,
            "reduce_scatter": _k_reduce_scatter, "broadcast": _k_broadcast,
            "reduce": _k_reduce, "all_to_all": _k_all_to_all, "send": _k_send,
            "recv": _k_recv}


def add_kernels(kernels) -> None:
    """The collectives' kernels for the NumPy backend (called by the plugin)."""
    from sporeling.runtime.numpy_backend import NumpyBackend
    from .split_phase import KERNELS as SPLIT_PHASE_KERNELS
    for name, fn in {**KERNELS, **SPLIT_PHASE_KERNELS}.items():
        kernels.add_kernel(NumpyBackend.name, name, fn)
