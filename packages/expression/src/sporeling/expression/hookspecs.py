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
