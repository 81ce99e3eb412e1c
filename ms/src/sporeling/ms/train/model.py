"""``ms.train.Model``: sporeling's ``Model`` with MindSpore 2.x's ``amp_level``/``boost_level``
and ``loss_scale_manager`` arguments, its metric names and ``build``."""
from __future__ import annotations

from sporeling.core.errors import SporelingError
from sporeling.expression.train import Model as _Model
from sporeling.expression.train.batches import check_dataset

from .metrics import get_metrics

__all__ = ["Model"]


def _loss_scaled_step(network, loss_fn, optimizer, manager):
    """MindSpore's training step for a loss-scale manager: the scale and overflow check of
    its update cell, or (``FixedLossScaleManager(drop_overflow_update=False)``) a plain step
    whose gradients are scaled by the fixed scale (the optimizer's ``loss_scale`` undoes it)."""
    from ..nn import TrainOneStepCell, TrainOneStepWithLossScaleCell, WithLossCell
    with_loss = WithLossCell(network, loss_fn) if loss_fn is not None else network
    update_cell = manager.get_update_cell()
    if update_cell is None:
        return TrainOneStepCell(with_loss, optimizer, sens=manager.get_loss_scale())
    return TrainOneStepWithLossScaleCell(with_loss, optimizer, scale_sense=update_cell)


class Model(_Model):
    """``Model(network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
    eval_indexes=None, amp_level="O0", boost_level="O0", **kwargs)``.

    ``metrics``: a set of MindSpore's metric names (``ms.train.names()``) or a dict of
    metrics. ``amp_level`` other than "O0" converts ``network`` with
    ``ms.amp.auto_mixed_precision`` first (as MindSpore does); ``boost_level`` (Ascend
    training boosts) must stay "O0". ``loss_scale_manager`` (a ``FixedLossScaleManager`` /
    ``DynamicLossScaleManager``) trains with loss scaling when an optimizer is given.
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
                 eval_indexes=None, amp_level="O0", boost_level="O0", **kwargs):
        unknown = set(kwargs) - {"loss_scale_manager", "keep_batchnorm_fp32"}
        if unknown:
            raise SporelingError("unknown keyword arguments", op="Model",
                                 expected="loss_scale_manager, keep_batchnorm_fp32",
                                 got=sorted(unknown))
        if boost_level != "O0":
            raise SporelingError("boost_level has no effect without Ascend boosts", op="Model",
                                 expected="'O0'", got=repr(boost_level))
        if amp_level != "O0":
            from sporeling.amp import auto_mixed_precision
            network = auto_mixed_precision(network, amp_level)
        self.amp_level, self.boost_level = amp_level, boost_level
        self.loss_scale_manager = kwargs.get("loss_scale_manager")
        super().__init__(network, loss_fn, optimizer, get_metrics(metrics), eval_network,
                         eval_indexes)
        if self.loss_scale_manager is not None and optimizer is not None:
            self._train_network = _loss_scaled_step(network, loss_fn, optimizer,
                                                    self.loss_scale_manager)

    def build(self, train_dataset=None, valid_dataset=None, sink_size=-1, epoch=1):
        """MindSpore compiles the training and evaluation graphs ahead of ``train``; Sporeling
        compiles (in Graph mode) at the first step, so this checks the datasets only."""
        for dataset in (train_dataset, valid_dataset):
            if dataset is not None:
                check_dataset(dataset, 1, "Model.build")
