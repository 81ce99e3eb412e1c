"""A split-phase all-reduce for compiled graphs: ``all_reduce_start`` begins a nonblocking
all-reduce and yields a token; ``all_reduce_wait(token, x)`` waits and gives the result.

Graph mode runs equations in order, so a blocking ``all_reduce`` placed after backward
cannot overlap it. Data parallelism instead binds ``all_reduce_start`` during the traced
backward, the moment a bucket's gradients are final (``on_gradient_ready`` fires on tracers
too), and ``all_reduce_wait`` where the reduced gradients are first needed: between the two
the rest of backward runs while the reduction progresses (on the ``local`` communicator's
threads at once; on MPI, which progresses when polled, each later start and the wait poll
the earlier ones).

``all_reduce_wait`` takes ``x`` as well: the communicator may read ``x`` until the reduction
is done, so ``x`` must stay alive, and the memory planner keeps a value alive until its
last reader. Neither primitive is differentiable (they reduce gradients), and the passes
never merge or fold them (``nondeterministic``).

    >>> import numpy as np
    >>> from sporeling.parallel.testing import run_local
    >>> def rank():
    ...     from sporeling.parallel import get_rank
    ...     x = np.full(3, get_rank() + 1.0)
    ...     return all_reduce_wait(all_reduce_start(x, "sum"), x).tolist()
    >>> run_local(2, rank)
    [[3.0, 3.0, 3.0], [3.0, 3.0, 3.0]]
"""
from __future__ import annotations

import itertools

import numpy as np

from sporeling.compiler import Primitive, def_nondifferentiable
from sporeling.compiler.core import Aval
from sporeling.compiler.ops._util import as_operand
from sporeling.core import dtypes

from .comm.base import REDUCE_OPS
from .comm.registry import current
from .errors import CommunicatorError
from .primitives import _bind

__all__ = ["all_reduce_start", "all_reduce_wait", "SPLIT_PHASE", "KERNELS"]


class _SplitPhase(Primitive):
    """Talks to other ranks: never merged, folded or reordered."""

    def __init__(self, name: str, **traits):
        super().__init__(name, nondeterministic=True, **traits)


all_reduce_start_p = _SplitPhase("all_reduce_start")
all_reduce_wait_p = _SplitPhase("all_reduce_wait")
SPLIT_PHASE = (all_reduce_start_p, all_reduce_wait_p)
def_nondifferentiable(*SPLIT_PHASE)


@all_reduce_start_p.def_abstract_eval
def _start_aval(x, *, op, group):
    return Aval((), dtypes.int64)


@all_reduce_wait_p.def_abstract_eval
def _wait_aval(token, x, *, op, group):
    return Aval(tuple(x.shape), np.dtype(x.dtype))


def all_reduce_start(x, op: str = "sum", group: str | None = None):
    """Start reducing ``x`` over ``group`` by ``op``; a 0-d int64 token for
    :func:`all_reduce_wait`."""
    if op not in REDUCE_OPS:
        raise CommunicatorError("unknown reduction", op="all_reduce_start",
                                expected=f"one of {', '.join(REDUCE_OPS)}", got=repr(op))
    return _bind(all_reduce_start_p, as_operand(x), op=op, group=group)


def all_reduce_wait(token, x, op: str = "sum", group: str | None = None):
    """The reduction :func:`all_reduce_start` began on ``x`` (pass the same ``x``)."""
    from sporeling.compiler import bind
    return bind(all_reduce_wait_p, as_operand(token), as_operand(x), op=op, group=group)


# ---- kernels: the handles live here between start and wait, by token ------------------------
_PENDING: dict[int, object] = {}
_TOKENS = itertools.count(1)


def _k_start(backend, x, out=None, *, op, group):
    comm = current(group, op="all_reduce_start")
    for handle in list(_PENDING.values()):  # MPI progresses only when polled
        if handle.comm is comm:
            handle.test()
    token = next(_TOKENS)
    _PENDING[token] = comm.iall_reduce(x, op)
    return np.array(token, np.int64)


def _k_wait(backend, token, x, out=None, *, op, group):
    handle = _PENDING.pop(int(token), None)
    if handle is None:
        raise CommunicatorError("no all-reduce started with this token",
                                op="all_reduce_wait", expected="a token of all_reduce_start "
                                "not waited for yet", got=int(token))
    return handle.wait()


KERNELS = {"all_reduce_start": _k_start, "all_reduce_wait": _k_wait}
