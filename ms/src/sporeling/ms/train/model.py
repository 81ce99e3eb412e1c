"""``ms.train.Model``: sporeling's ``Model`` with MindSpore 2.x's ``amp_level``/``boost_level``
and ``loss_scale_manager`` arguments."""
from __future__ import annotations

from sporeling.core.errors import SporelingError
from sporeling.expression.train import Model as _Model

__all__ = ["Model"]


class Model(_Model):
    """``Model(network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
    eval_indexes=None, amp_level="O0", boost_level="O0", **kwargs)``.

    ``amp_level`` other than "O0" converts ``network`` with ``ms.amp.auto_mixed_precision``
    first (as MindSpore does); ``boost_level`` (Ascend training boosts) must stay "O0".
    ``loss_scale_manager`` (a ``FixedLossScaleManager`` / ``DynamicLossScaleManager``) is
    accepted for training with loss scaling when an optimizer is given.
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
        super().__init__(network, loss_fn, optimizer, metrics, eval_network, eval_indexes)
