"""The experimental optimizers' base: PyTorch's ``param_groups`` over Sporeling's
optimizers.

Each group is a dict of ``params`` and the optimizer's hyperparameters (its defaults where
the group does not set them); its ``lr`` is a float32 Parameter, read at every step --
eagerly and inside a compiled step -- so a scheduler's ``step()`` (or ``group["lr"].
set_data(...)``) takes effect at the next update. Every group runs its own
``ms.mint.optim`` optimizer built from its hyperparameters when the group is added: a
later change to a group's other entries (``betas``, ``weight_decay``...) is not seen
(PyTorch reads them at each step; only ``lr`` is live here).
"""
from __future__ import annotations

import numpy as np

from sporeling.core import ArgumentError
from sporeling.expression import Parameter, Tensor

from ... import mint, nn
from ...mint.optim import _Maximize
from ...nn.cell import Cell

__all__ = ["Optimizer", "Adam", "AdamW", "SGD"]


class _GroupRate:
    """A group's learning rate as Sporeling's optimizers take a schedule: the Parameter,
    whatever the step."""

    def __init__(self, parameter):
        self.parameter = parameter

    def __call__(self, step):
        return self.parameter


class Optimizer(Cell):
    """``Optimizer(params, defaults)``: ``params`` an iterable of Parameters or of dicts
    (groups) with ``"params"``; ``defaults`` the hyperparameters a group inherits."""

    def _build(self, group: dict):  # pragma: no cover - each optimizer builds its own
        """The Sporeling optimizer that updates ``group``'s parameters."""
        raise NotImplementedError

    def __init__(self, params, defaults: dict):
        super().__init__()
        self.defaults = dict(defaults)
        self.param_groups: list[dict] = []
        self._optimizers: list = []
        groups = _groups(params)
        if not groups:
            raise ArgumentError("optimizer got an empty parameter list", op=type(self).__name__,
                                expected="Parameters or parameter groups", got="[]")
        for group in groups:
            self.add_param_group(group)

    @property
    def parameters(self) -> tuple:
        """Every group's parameters, in order (what ``value_and_grad`` differentiates)."""
        return tuple(p for group in self.param_groups for p in group["params"])

    def add_param_group(self, param_group: dict) -> None:
        """A new group: its parameters, the defaults for what it does not set."""
        if not isinstance(param_group, dict) or "params" not in param_group:
            raise ArgumentError("a parameter group is a dict with 'params'",
                                op=type(self).__name__, expected="{'params': [...], ...}",
                                got=type(param_group).__name__)
        params = param_group["params"]
        params = [params] if isinstance(params, Parameter) else list(params)
        seen = {id(p) for p in self.parameters}
        if any(id(p) in seen for p in params):
            raise ArgumentError("a parameter appears in more than one group",
                                op=type(self).__name__, expected="disjoint groups",
                                got=[p.name for p in params if id(p) in seen])
        unknown = set(param_group) - set(self.defaults) - {"params", "initial_lr"}
        if unknown:
            raise ArgumentError("unknown keys in a parameter group", op=type(self).__name__,
                                expected=sorted(set(self.defaults) | {"params"}),
                                got=sorted(unknown))
        group = {**self.defaults, **param_group, "params": params}
        index = len(self.param_groups)
        lr = group["lr"]
        group["lr"] = lr if isinstance(lr, Parameter) else Parameter(
            Tensor(np.asarray(float(lr), np.float32)), name=f"learning_rate_group_{index}",
            requires_grad=False)
        self.param_groups.append(group)
        self._optimizers.append(self._build(group))

    def construct(self, gradients):
        gradients = tuple(gradients)
        if len(gradients) != len(self.parameters):
            raise ArgumentError("one gradient per parameter", op=type(self).__name__,
                                expected=len(self.parameters), got=len(gradients))
        start = 0
        for group, optimizer in zip(self.param_groups, self._optimizers):
            count = len(group["params"])
            optimizer(gradients[start:start + count])
            start += count
        return True


def _groups(params) -> list:
    if isinstance(params, dict):
        return [params]
    params = list(params)
    return params if params and isinstance(params[0], dict) else \
        ([{"params": params}] if params else [])


def _hyper(group: dict) -> dict:
    return {k: v for k, v in group.items() if k not in ("params", "lr", "initial_lr")}


class _KernelAdam(_Maximize, nn.Adam):
    """``ms.nn.Adam`` (MindSpore's kernel numerics) that ``maximize`` turns around, as
    ``ms.mint.optim``'s optimizers."""


class Adam(Optimizer):
    """``Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
    *, maximize=False)``. Its numerics are MindSpore's Adam kernel's, as 2.10's
    ``experimental.optim.Adam`` runs it (``ms.nn.Adam``'s: ``eps`` outside the bias
    correction, ``w -= lr sqrt(bc2) / bc1 * m / (sqrt(v) + eps)``; PyTorch puts it inside:
    ``ms.mint.optim.Adam``), L2 ``weight_decay`` on every parameter of the group."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize))

    def _build(self, group):
        hyper = _hyper(group)
        beta1, beta2 = hyper["betas"]
        inner = _KernelAdam([{"params": group["params"], "weight_decay": hyper["weight_decay"]}],
                            learning_rate=_GroupRate(group["lr"]), beta1=beta1, beta2=beta2,
                            eps=hyper["eps"], use_amsgrad=hyper["amsgrad"])
        inner.maximize = bool(hyper["maximize"])
        return inner


class AdamW(Optimizer):
    """``AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
    amsgrad=False, *, maximize=False)``: decoupled weight decay, then Adam's step, with
    ``ms.mint.optim.AdamW``'s numerics (PyTorch's; not compared with 2.10's)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize))

    def _build(self, group):
        return mint.optim.AdamW(group["params"], lr=_GroupRate(group["lr"]), **_hyper(group))


class SGD(Optimizer):
    """``SGD(params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
    maximize=False)``, with ``ms.mint.optim.SGD``'s numerics (PyTorch's; not compared with
    2.10's)."""

    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, *, maximize=False):
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize))

    def _build(self, group):
        return mint.optim.SGD(group["params"], lr=_GroupRate(group["lr"]), **_hyper(group))
