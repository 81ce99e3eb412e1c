"""Extension points owned by ``sporeling.expression``.

Packages above expression (``sporeling.parallel``) plug into training through these, so
that expression never imports them.
"""
from __future__ import annotations

from sporeling.core import hookspec


@hookspec(firstresult=True)
def sporeling_grad_reducer(train_cell):
    """Return the gradient reducer of a new ``TrainOneStepCell`` (``train_cell``, whose
    ``weights`` are the optimizer's Parameters), or None to leave gradients as they are.

    The first non-None answer becomes ``train_cell.grad_reducer``, called as
    ``grad_reducer(grads) -> grads`` on the tuple of gradients (one per weight) each step:
    on Tensors of NumPy arrays in PyNative mode, and while tracing in Graph mode -- its ops
    (collective primitives included) then join the compiled step. A reducer with a
    ``gradient_ready(parameter, gradient)`` method gets it called in PyNative mode the
    moment each weight's gradient is final during backward
    (:func:`sporeling.expression.autograd.on_gradient_ready`), to start communicating
    while backward goes on. ``sporeling.parallel`` answers in ``data_parallel`` mode
    (MindSpore's ``DistributedGradReducer``).
    """


@hookspec(firstresult=True)
def sporeling_shard(fn, in_strategy, out_strategy, options):
    """Return ``fn`` split over the ranks (operator parallel), or None to leave it to
    another plugin.

    Called by :func:`sporeling.expression.shard` and ``Cell.shard``. ``fn`` is a function
    or a :class:`~sporeling.expression.nn.Cell`; ``in_strategy`` / ``out_strategy``: blocks
    per dimension of each input / output (MindSpore's strategies, None: decided by the
    plugin); ``options``: a dict of the caller's other keywords (e.g. ``parameter_plan``,
    ``device_num``). The answer for a function is a callable running it split; for a Cell,
    the Cell itself, whose calls now run split. With no answer, expression raises an error
    saying to install ``sporeling-parallel``, which answers.
    """


@hookspec(firstresult=True)
def sporeling_rank():
    """Return this process's (or thread-rank's) rank in the world of ranks it trains in, or
    None when it trains alone. ``BackupAndRestore`` names each rank's backups by it;
    ``sporeling.parallel`` answers once communication is initialised."""
