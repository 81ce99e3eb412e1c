"""The ELBO of a Bayesian network (Bayes by backprop): MindSpore's ``WithBNNLossCell``.

For ``N`` training examples, ``-ELBO / N = mean NLL(y | x, w) + KL(q(w) || p(w)) / N``
with ``w ~ q`` drawn once per step (the layers' reparameterised weights). With
``loss_fn`` the mean negative log-likelihood of a batch, ``bnn_factor = 1 / N`` makes the
cell's output that estimate (``dnn_factor`` scales the likelihood term)."""
from __future__ import annotations

from sporeling.compiler import ops
from sporeling.expression.nn import Cell

from .layers import BayesianLayer

__all__ = ["WithBNNLossCell", "kl_loss"]


def kl_loss(network):
    """The sum of ``compute_kl_loss()`` over the Bayesian layers in ``network`` (0.0 when
    there are none)."""
    total = 0.0
    for _, cell in network.cells_and_names():
        if isinstance(cell, BayesianLayer):
            total = ops.add(cell.compute_kl_loss(), total)
    return total


class WithBNNLossCell(Cell):
    """``dnn_factor * loss_fn(backbone(*data), label) + bnn_factor * KL`` for inputs
    ``(*data, label)``: the negative ELBO (see the module doc)."""

    def __init__(self, backbone, loss_fn, dnn_factor=1.0, bnn_factor=1.0):
        super().__init__(auto_prefix=False)
        from ..errors import ParameterError
        for name, value in (("dnn_factor", dnn_factor), ("bnn_factor", bnn_factor)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ParameterError(f"bad {name}", op="WithBNNLossCell",
                                     expected="a number >= 0", got=repr(value))
        self._backbone, self._loss_fn = backbone, loss_fn
        self.dnn_factor, self.bnn_factor = float(dnn_factor), float(bnn_factor)

    def construct(self, *inputs):
        data, label = inputs[:-1], inputs[-1]
        likelihood = self._loss_fn(self._backbone(*data), label)
        return ops.add(ops.mul(likelihood, self.dnn_factor),
                       ops.mul(kl_loss(self._backbone), self.bnn_factor))

    @property
    def backbone_network(self):
        return self._backbone
