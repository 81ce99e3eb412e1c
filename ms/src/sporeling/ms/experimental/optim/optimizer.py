"""The experimental optimizers' base: PyTorch's ``param_groups`` over Sporeling's
optimizers.

Each group is a dict of ``params`` and the optimizer's hyperparameters (its defaults where
the group does not set them); its ``lr`` is a float32 Parameter, read at every step --
eagerly and inside a compiled step -- so a scheduler's ``step()`` (or ``group["lr"].
set_data(...)``) takes effect at the next update. Every group runs its own Sporeling
optimizer built from its hyperparameters when the group is added: a later change to a
group's other entries (``betas``, ``weight_decay``...) is not seen (PyTorch reads them at
each step; only ``lr`` is live here). A group's hyperparameters are checked when it is
added (each optimizer's ``_HYPER``: an interval, a pair of them, or ``"bool"``; ``lr`` a
finite number >= 0): a bad one is an ``ArgumentError``.
"""
from __future__ import annotations

import math
import numbers

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


def _interval(spec: str):
    """``"[0, 1)"`` -> (0.0, 1.0, True, False): the bounds and whether each is included."""
    low, high = spec[1:-1].split(",")
    return float(low), float(high), spec[0] == "[", spec[-1] == "]"


def _check(op: str, name: str, value, spec) -> None:
    """``value`` against ``spec``: ``"bool"``, an interval (``"[0, inf)"``) or a tuple of
    intervals (``betas``: one per entry); an ``ArgumentError`` when it does not fit."""
    if spec == "bool":
        if not isinstance(value, (bool, np.bool_)):
            raise ArgumentError(f"{name} must be a bool", op=op, expected="True or False",
                                got=repr(value)[:60])
        return
    if isinstance(spec, tuple):
        if not isinstance(value, (tuple, list)) or len(value) != len(spec):
            raise ArgumentError(f"{name} must be a pair of numbers", op=op,
                                expected=f"{len(spec)} numbers", got=repr(value)[:60])
        for k, (item, one) in enumerate(zip(value, spec)):
            _check(op, f"{name}[{k}]", item, one)
        return
    low, high, closed_low, closed_high = _interval(spec)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or \
            not math.isfinite(value) or not (low <= value if closed_low else low < value) or \
            not (value <= high if closed_high else value < high):
        raise ArgumentError(f"{name} must be a finite number in {spec}", op=op,
                            expected=spec, got=repr(value)[:60])


class Optimizer(Cell):
    """``Optimizer(params, defaults)``: ``params`` an iterable of Parameters or of dicts
    (groups) with ``"params"``; ``defaults`` the hyperparameters a group inherits."""

    #: hyperparameter -> what it may be (see :func:`_check`); ``lr`` is always checked
    _HYPER: dict = {}

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
        op = type(self).__name__
        for key, spec in self._HYPER.items():
            _check(op, key, group[key], spec)
        index = len(self.param_groups)
        lr = group["lr"]
        _check(op, "lr", _rate(lr), "[0, inf)")
        group["lr"] = lr if isinstance(lr, Parameter) else Parameter(
            Tensor(np.asarray(float(_rate(lr)), np.float32)),
            name=f"learning_rate_group_{index}", requires_grad=False)
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


def _rate(lr):
    """A learning rate as a Python float (a number, or a 0-d Tensor/Parameter); anything
    else as it is, for :func:`_check` to refuse."""
    if isinstance(lr, (bool, np.bool_)):
        return lr
    if hasattr(lr, "asnumpy"):
        value = lr.asnumpy()
        return float(value) if np.ndim(value) == 0 else lr
    return float(lr) if isinstance(lr, numbers.Real) else lr


def _hyper(group: dict) -> dict:
    return {k: v for k, v in group.items() if k not in ("params", "lr", "initial_lr")}


class _Built(Optimizer):
    """An optimizer whose every group runs ``_inner`` -- a Sporeling optimizer with
    ``_Maximize`` -- over the group's parameters: its learning rate the group's Parameter,
    its L2 ``weight_decay`` the group's (on every parameter), ``maximize`` the group's, and
    ``_arguments(hyperparameters)`` the rest of its arguments."""

    _inner: type

    def _arguments(self, hyper: dict) -> dict:
        return {}

    def _build(self, group):
        hyper = _hyper(group)
        inner = self._inner([{"params": group["params"],
                              "weight_decay": float(hyper.get("weight_decay", 0.0))}],
                            learning_rate=_GroupRate(group["lr"]), **self._arguments(hyper))
        inner.maximize = bool(hyper.get("maximize", False))
        return inner


class _KernelAdam(_Maximize, nn.Adam):
    """``ms.nn.Adam`` (MindSpore's kernel numerics) that ``maximize`` turns around, as
    ``ms.mint.optim``'s optimizers."""


_ADAM = {"betas": ("[0, 1)", "[0, 1)"), "eps": "(0, inf)", "weight_decay": "[0, inf)",
         "amsgrad": "bool", "maximize": "bool"}


class Adam(_Built):
    """``Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
    *, maximize=False)``. Its numerics are MindSpore's Adam kernel's, as 2.10's
    ``experimental.optim.Adam`` runs it (``ms.nn.Adam``'s: ``eps`` outside the bias
    correction, ``w -= lr sqrt(bc2) / bc1 * m / (sqrt(v) + eps)``; PyTorch puts it inside:
    ``ms.mint.optim.Adam``), L2 ``weight_decay`` on every parameter of the group."""

    _HYPER, _inner = _ADAM, _KernelAdam

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize))

    def _arguments(self, hyper):
        return dict(beta1=hyper["betas"][0], beta2=hyper["betas"][1], eps=hyper["eps"],
                    use_amsgrad=hyper["amsgrad"])


class AdamW(Optimizer):
    """``AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
    amsgrad=False, *, maximize=False)``: decoupled weight decay, then Adam's step, with
    ``ms.mint.optim.AdamW``'s numerics (PyTorch's; not compared with 2.10's)."""

    _HYPER = _ADAM

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

    _HYPER = {"momentum": "[0, inf)", "dampening": "(-inf, inf)", "weight_decay": "[0, inf)",
              "nesterov": "bool", "maximize": "bool"}

    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, *, maximize=False):
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize))

    def _build(self, group):
        return mint.optim.SGD(group["params"], lr=_GroupRate(group["lr"]), **_hyper(group))
