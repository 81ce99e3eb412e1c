"""Adversarial training (Madry et al., 2018): each step trains on adversarial examples made
by an attack (PGD by default) against the current weights.

    >>> train_cell = AdversarialTrainOneStepCell(net, loss, optimizer,
    ...                                          attack=ProjectedGradientDescent(net, eps=0.1))
    >>> model = adversarial_model(net, loss, optimizer, attack, metrics={"acc"})
    >>> model.train(5, batches)      # Model drives it like any training cell
"""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.expression.nn import Cell
from sporeling.expression.train import TrainOneStepCell, WithEvalCell, WithLossCell

from ._checks import AttackConfigError
from .gradient_attacks import ProjectedGradientDescent

__all__ = ["AdversarialTrainOneStepCell", "adversarial_model"]


def _numpy(a):
    return np.asarray(a.asnumpy() if hasattr(a, "asnumpy") else a)


class AdversarialTrainOneStepCell(Cell):
    """One training step on a batch whose first ``adv_ratio`` fraction of samples is replaced
    by ``attack.generate`` of them (``adv_ratio=1``: Madry's pure adversarial training;
    0.5: Goodfellow's mix). Returns the loss, like ``TrainOneStepCell``.

    The attack runs eagerly with the network in inference mode (dropout off, BatchNorm
    frozen); the update is an ordinary ``TrainOneStepCell`` step, so it compiles in Graph
    mode. ``attack`` defaults to PGD-L∞ with ε = 0.1, 10 steps of 0.025, random start."""

    def __init__(self, network, loss_fn, optimizer, attack=None, adv_ratio: float = 1.0):
        super().__init__(auto_prefix=False)
        if not 0.0 <= float(adv_ratio) <= 1.0:
            raise AttackConfigError("adv_ratio out of range", op="AdversarialTrainOneStepCell",
                                    expected="0 <= adv_ratio <= 1", got=repr(adv_ratio))
        self.network = network
        self.attack = attack or ProjectedGradientDescent(network, eps=0.1, eps_iter=0.025,
                                                         nb_iter=10, seed=0)
        self.adv_ratio = float(adv_ratio)
        self.step = TrainOneStepCell(WithLossCell(network, loss_fn), optimizer)

    def __call__(self, inputs, labels):
        # the attack reads tensor data, so this cell runs as Python in both modes; the
        # training step inside it compiles in Graph mode
        x, y = _numpy(inputs), _numpy(labels)
        k = int(round(self.adv_ratio * len(x)))
        if k:
            was_training = getattr(self.network, "training", True)
            self.network.set_train(False)
            try:
                x = x.copy()
                x[:k] = self.attack.generate(x[:k], y[:k])
            finally:
                self.network.set_train(was_training)
        return self.step(sx.Tensor(x), sx.Tensor(y))

    construct = __call__


def adversarial_model(network, loss_fn, optimizer, attack=None, adv_ratio: float = 1.0,
                      metrics=None):
    """A ``Model`` that trains adversarially and evaluates ``network`` on clean data."""
    train_cell = AdversarialTrainOneStepCell(network, loss_fn, optimizer, attack, adv_ratio)
    return sx.Model(train_cell, eval_network=WithEvalCell(network, loss_fn),
                    eval_indexes=[0, 1, 2], metrics=metrics)
