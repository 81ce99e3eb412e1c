"""``ms.nn.Optimizer``: sporeling's optimizer base, plus MindSpore's way of writing one --
a subclass whose ``construct(gradients)`` updates ``self.parameters`` with ops (``ops.assign``
on Parameters and their ``self.parameters.clone(prefix, init="zeros")`` state).

The built-in optimizers define the base's update rule (``_init_state``/``_update``: ops on
Tensors, run eagerly and compiled into a Graph-mode step alike); a subclass that overrides
``construct`` gets it called by ``optimizer(grads)``, after which ``global_step`` advances,
and may use ``get_lr()``, ``decay_weight`` and ``scale_grad``."""
from __future__ import annotations

import sporeling.expression as sx
from sporeling.expression.optim import Optimizer as _SxOptimizer

__all__ = ["Optimizer"]


class Optimizer(_SxOptimizer):
    """``Optimizer(learning_rate, parameters, weight_decay=0.0, loss_scale=1.0)``."""

    @property
    def parameters(self):
        """The parameters updated, in gradient order (a ``ParameterTuple``: ``clone``
        makes state of the same shapes)."""
        return sx.ParameterTuple(self._parameters)

    def __call__(self, gradients):
        if type(self).construct is _SxOptimizer.construct:
            return super().__call__(gradients)
        if len(gradients) != len(self._parameters):
            raise ValueError(f"{type(self).__name__}: expected {len(self._parameters)} "
                             f"gradients (one per parameter), got {len(gradients)}")
        result = self.construct(gradients)
        self.global_step += 1
        return result

    def decay_weight(self, gradients):
        """``g + weight_decay * w`` for the parameters that decay (MindSpore's helper)."""
        decays = self._decays_at(self.global_step)
        return tuple(g if g is None or isinstance(wd, float) and not wd else
                     sx.ops.add(g, sx.ops.mul(p, wd))
                     for p, g, wd in zip(self._parameters, gradients, decays))

    def scale_grad(self, gradients):
        """Gradients divided by ``loss_scale`` (MindSpore's helper)."""
        if self.loss_scale == 1.0:
            return tuple(gradients)
        return tuple(g if g is None else sx.ops.mul(g, 1.0 / self.loss_scale)
                     for g in gradients)
