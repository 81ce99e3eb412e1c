"""One stage's forwards and backwards over the micro-batches of a step.

A forward of a middle stage is recorded for autodiff and the record is kept until that
micro-batch's backward (its activations stay alive meanwhile: at most ``S - k``
micro-batches on stage ``k`` under 1F1B). With ``recompute=True`` the forward runs
unrecorded and the backward runs it again from the stashed input activation (MindSpore's
``recompute``): less memory, one more forward. The last stage runs forward and backward
together.
"""
from __future__ import annotations

import numpy as np

from sporeling.expression import Tensor, no_grad, value_and_grad
from sporeling.expression.autograd.session import GradSession

from .errors import PipelineError
from .p2p import StageLink
from .stages import StagePlan

__all__ = ["StageRunner"]


def _numpy(x) -> np.ndarray:
    return x.asnumpy() if hasattr(x, "asnumpy") else np.asarray(x)


class _Recorded:
    """A forward recorded on its own autodiff session, differentiated later. Sessions of
    several micro-batches coexist: each keeps its own leaves for the input and weights."""

    def __init__(self, fn, x, weights: list, differentiate_input: bool):
        self.session = session = GradSession()
        with session:
            self.x = session.input(x) if differentiate_input else x
            for p in weights:
                session.watch(p)
            self.out = fn(self.x)
        self.targets = ([self.x] if differentiate_input else []) + list(weights)

    def backward(self, ct: np.ndarray) -> list:
        """The gradients of the targets (input first, when differentiated) for ``ct``."""
        with self.session:  # back on this record's tape, as at the end of grad's forward
            grads = self.session.backward([(self.out, ct.astype(self.out.dtype, copy=False))],
                                          self.targets)
        self.out = self.x = None
        return grads


class StageRunner:
    """Stage ``stage``'s half of the 1F1B step: ``forward(i)`` and ``backward(i)`` in the
    schedule's order, then ``gradients(scale)`` and ``losses``."""

    def __init__(self, plan: StagePlan, stage: int, weights: list, link: StageLink, micro,
                 recompute: bool = False):
        self.plan, self.stage, self.weights, self.link, self.micro = plan, stage, weights, \
            link, micro
        self.recompute = recompute
        self.last = stage == len(plan.stages) - 1
        self.first = stage == 0
        self.stash: dict[int, object] = {}      # micro-batch -> what its backward needs
        self.most_in_flight = 0                 # the most micro-batches stashed at once
        self.out_meta = None                    # (shape, dtype) of this stage's activation
        self.sums = [None] * len(weights)
        self.losses: list = []
        self.run = lambda x: plan.run(stage, x)  # noqa: E731
        self.vg = None
        if self.last:
            if plan.loss_fn is None:
                fn = self.run
            else:
                fn = lambda x, y: plan.loss_fn(self.run(x), y)  # noqa: E731
            if self.first and not weights:
                raise PipelineError("the network has no trainable parameter",
                                    op="PipelineCell", expected="parameters to differentiate",
                                    got="none")
            self.vg = value_and_grad(fn, None if self.first else 0, weights or None)
        elif recompute and (weights or not self.first):
            self.vg = value_and_grad(self.run, None if self.first else 0, weights or None,
                                     sens_param=True)

    def _accumulate(self, grads) -> None:
        for j, g in enumerate(grads):
            g = _numpy(g)
            self.sums[j] = g.copy() if self.sums[j] is None else self.sums[j] + g

    def _split(self, grads):
        """``(input gradient or None, weight gradients)`` from value_and_grad's result."""
        if self.first:
            return None, grads
        if not self.weights:
            return grads, ()
        return grads[0], grads[1]

    def forward(self, i: int) -> None:
        x = self.micro[0][i] if self.first else Tensor(self.link.recv_activation(i))
        if self.last:
            args = (x,) if self.plan.loss_fn is None else (x, self.micro[1][i])
            loss, grads = self.vg(*args)
            self.losses.append(loss)
            gx, gw = self._split(grads)
            self._accumulate(gw)
            self.stash[i] = gx
            self.most_in_flight = max(self.most_in_flight, len(self.stash))
            return
        if self.recompute or (self.first and not self.weights):
            with no_grad():
                out = _numpy(self.run(x))
            self.stash[i] = x
        else:
            record = _Recorded(self.run, x, self.weights, not self.first)
            out = _numpy(record.out)
            self.stash[i] = record
        self.most_in_flight = max(self.most_in_flight, len(self.stash))
        self.out_meta = (out.shape, out.dtype)
        self.link.send_activation(i, out)

    def backward(self, i: int) -> None:
        if self.last:
            gx = self.stash.pop(i)
            if not self.first:
                self.link.send_gradient(i, _numpy(gx))
            return
        kept = self.stash.pop(i)
        ct = self.link.recv_gradient(i, *self.out_meta)
        if isinstance(kept, _Recorded):
            grads = kept.backward(ct)
            gx, gw = (None, grads) if self.first else (grads[0], grads[1:])
        elif self.vg is not None:
            _out, grads = self.vg(kept, Tensor(ct))
            gx, gw = self._split(grads)
        else:
            return  # a first stage without parameters: nothing to differentiate
        self._accumulate(gw)
        if not self.first:
            self.link.send_gradient(i, _numpy(gx))

    def gradients(self, scale: float) -> list:
        return [s * scale if scale != 1.0 else s for s in self.sums]
