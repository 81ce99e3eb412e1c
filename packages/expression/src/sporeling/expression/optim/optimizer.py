"""``Optimizer``: the base of every optimiser (MindSpore's ``nn.Optimizer``).

An optimiser owns the parameters it updates, their learning rates and weight decays
(possibly per parameter group), and one step counter. ``optimizer(grads)`` applies one
update, with ``grads`` in the order of ``optimizer.parameters``:

    >>> import numpy as np
    >>> from sporeling.expression.optim import SGD
    >>> w = np.array([1.0, 2.0])                 # any Parameter, or a NumPy array
    >>> opt = SGD([w], learning_rate=0.5)
    >>> opt((np.array([1.0, -1.0]),))
    True
    >>> w, opt.global_step
    (array([0.5, 2.5]), 1)

Where MindSpore's conventions surprise a PyTorch user (all followed here):

* ``weight_decay`` set on the optimiser (not in a group) skips parameters whose name
  contains ``"beta"`` or ``"gamma"`` (the norm layers' shift and scale); a group's own
  ``weight_decay`` applies to every parameter of that group.
* Weight decay is L2 added to the gradient (``g + wd * w``) as in PyTorch's SGD/Adam, except
  in ``AdamW`` (decoupled: ``w *= 1 - lr * wd``).
* ``loss_scale`` divides the gradients before anything else (set it to the loss scale of a
  fixed loss scaler that does not unscale by itself).
* ``learning_rate`` may be per-step values (a list/array/Tensor: step ``i`` uses value ``i``;
  past the end the last value stays) or a ``LearningRateSchedule`` called with the step.
* ``get_lr()`` has no side effect here (MindSpore's advances the step counter); the step
  counter advances once per ``optimizer(grads)``.
* A gradient given as ``None`` leaves its parameter (and its state) untouched.

The update rule of each optimiser is written once, with operators and ops (``_update``):
the same code runs eagerly (on NumPy arrays, PyNative) and, called inside a Graph-mode
trace (``@jit`` around ``optimizer(grads)``, or a ``TrainOneStepCell`` in Graph mode), is
recorded into the graph -- the update follows the backward pass in one compiled step and
is written by ``assign``. Its state is Parameters (:mod:`._state`): ``state_parameters()``
lists them.
"""
from __future__ import annotations

import contextlib

import numpy as np

from sporeling.core import SporelingError, dtypes
from sporeling.core.errors import ShapeError

from ..tensor.parameter import Parameter
from ..tensor.tensor import Tensor
from ._arrays import assign, compute_dtype, operand, to_numpy, write
from ._learning_rate import as_learning_rate
from ._state import state_parameters

__all__ = ["Optimizer"]

_GROUP_KEYS = ("params", "lr", "weight_decay")


def _default_decay(param) -> bool:
    name = getattr(param, "name", None) or ""
    return "beta" not in name and "gamma" not in name


def _label(param, index: int) -> str:
    return getattr(param, "name", None) or f"parameter {index}"


def _refuse_non_finite(optimizer) -> None:
    """A ``ValueError`` naming the first hyperparameter (a float attribute, or a learning
    rate's value) that is NaN or infinite."""
    name = type(optimizer).__name__
    for attr, value in vars(optimizer).items():
        if isinstance(value, (float, np.floating)) and not np.isfinite(value):
            raise ValueError(f"{name}: {attr.lstrip('_')} must be finite, got {value}")
        rates = [value.constant] if getattr(value, "constant", None) is not None else \
            getattr(value, "values", None)
        if attr.endswith(("learning_rate", "lrs")) and rates is not None and \
                not np.all(np.isfinite(np.asarray(rates, np.float64))):
            raise ValueError(f"{name}: {attr.lstrip('_')} must be finite, got {value!r}")


def _no_decay(wd) -> bool:
    return isinstance(wd, (int, float)) and wd == 0


def decays_at(decays: tuple, step) -> tuple:
    """``decays`` (one weight decay per parameter: a number, or a schedule -- MindSpore's
    Cell called with the global step as an int32 Tensor) for step ``step``: a schedule's
    value is a float eagerly and a Tensor inside a Graph-mode trace (``step`` is then the
    step's Parameter); each schedule is called once."""
    if not any(map(callable, decays)):  # numbers only: each step's are the same
        return decays
    from .. import ops
    from ..graph.tracing import is_tracing
    values: dict = {}
    out = []
    for wd in decays:
        if callable(wd):
            if id(wd) not in values:
                if is_tracing():
                    values[id(wd)] = wd(ops.cast(step, dtypes.int32))
                else:
                    value = wd(Tensor(np.array(int(step), np.int32)))
                    values[id(wd)] = float(to_numpy(value))
            wd = values[id(wd)]
        out.append(wd)
    return tuple(out)


class Optimizer:
    """Base class: subclasses define

    * ``_init_state(w) -> {name: NumPy array}``, the initial state of a weight ``w`` (zeros
      of its shape, in the compute dtype: float32 for float16/bfloat16 parameters);
    * ``_update(w, g, state, lr, weight_decay) -> (new w, {name: new value})``: the update
      rule, a function (``state`` maps names to the current values; a name left out keeps
      its value) written with operators and ``sporeling.expression.ops``, which take NumPy
      arrays and Tensors alike: eagerly it gets NumPy arrays, in a compiled step Tensors.
      ``lr`` is a Python float, or (compiled, per-step or scheduled) a 0-d Tensor in
      ``w``'s dtype.

    Args:
        learning_rate: a float, per-step values, or a ``LearningRateSchedule``.
        parameters: a list of Parameters, or of parameter groups -- dicts with ``"params"``
            and optionally ``"lr"`` and ``"weight_decay"`` overriding the defaults.
        weight_decay: L2 coefficient (see the module notes).
        loss_scale: gradients are divided by it first.
    """

    #: AdamW sets this: the optimiser applies the decay itself instead of adding it to g.
    _decoupled_weight_decay = False

    def __init_subclass__(cls, **kwargs):
        # every optimiser's constructor ends with a check that no hyperparameter it stored
        # is NaN or infinite: `x < 0` is False for NaN, so range checks let it through and
        # training would turn every weight into NaN
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return

        def checked_init(self, *args, _init=init, **kw):
            _init(self, *args, **kw)
            if type(self).__init__ is checked_init:  # the outermost constructor checks
                _refuse_non_finite(self)

        checked_init.__doc__, checked_init.__wrapped__ = init.__doc__, init
        cls.__init__ = checked_init

    def __init__(self, learning_rate, parameters, weight_decay: float = 0.0,
                 loss_scale: float = 1.0):
        name = type(self).__name__
        if isinstance(parameters, dict):
            parameters = [parameters]
        parameters = list(parameters) if parameters is not None else []
        if not parameters:
            raise ValueError(f"{name}: expected a non-empty list of parameters or "
                             "parameter groups, got an empty one")
        if loss_scale <= 0:
            raise ValueError(f"{name}: loss_scale must be > 0, got {loss_scale}")
        weight_decay = self._check_decay(weight_decay)
        self.loss_scale = float(loss_scale)
        self.weight_decay = weight_decay
        self.learning_rate = as_learning_rate(learning_rate, f"{name}.learning_rate")
        self.is_group = isinstance(parameters[0], dict)
        params, self._group_of, lrs, decays = [], [], [], []
        if self.is_group:
            for gi, group in enumerate(parameters):
                if not isinstance(group, dict):
                    raise TypeError(f"{name}: mix of parameter groups and parameters; "
                                    f"item {gi} is a {type(group).__name__}")
                unknown = set(group) - set(_GROUP_KEYS)
                if unknown:
                    raise ValueError(f"{name}: parameter group {gi} has unsupported keys "
                                     f"{sorted(unknown)}; expected some of {_GROUP_KEYS}")
                if "params" not in group:
                    raise ValueError(f"{name}: parameter group {gi} has no 'params'")
                lrs.append(as_learning_rate(group["lr"], f"{name} group {gi} lr")
                           if "lr" in group else self.learning_rate)
                wd = self._check_decay(group.get("weight_decay", weight_decay))
                for p in list(group["params"]):
                    params.append(p)
                    self._group_of.append(gi)
                    decays.append(wd)
        else:
            lrs.append(self.learning_rate)
            for p in parameters:
                params.append(p)
                self._group_of.append(0)
                decays.append(weight_decay if _default_decay(p) else 0.0)
        seen = {}
        for i, p in enumerate(params):
            if isinstance(p, dict):
                raise TypeError(f"{name}: mix of parameter groups and parameters; "
                                f"item {i} is a dict")
            if id(p) in seen:
                raise ValueError(f"{name}: {_label(p, i)} appears twice (items "
                                 f"{seen[id(p)]} and {i}); give each parameter once")
            seen[id(p)] = i
        self._parameters = tuple(params)
        self._group_lrs = tuple(lrs)
        self._decays = tuple(decays)
        self._states: list[dict | None] = [None] * len(params)
        self._state_params: list[dict | None] = [None] * len(params)  # (Graph mode)
        # a Parameter, so that a compiled step advances it too
        self._step_param = Parameter(np.zeros((), np.int64), name=f"{name}.global_step",
                                     requires_grad=False)

    @property
    def global_step(self):
        """How many steps were applied (inside a Graph-mode trace: the step's Parameter,
        so ``self.global_step += 1`` in a ``construct`` written with ops is compiled)."""
        data = self._step_param._data
        return int(data) if isinstance(data, np.ndarray) else self._step_param

    @global_step.setter
    def global_step(self, value) -> None:
        data = self._step_param._data
        if isinstance(data, np.ndarray) and not hasattr(value, "_data"):
            data[...] = int(value)
        else:  # a traced value: assigned by the compiled graph
            self._step_param.set_data(value.astype(np.int64) if value.dtype != np.int64
                                      else value)

    @staticmethod
    def _check_decay(value):
        if callable(value):  # MindSpore's Cell of the global step (see decays_at)
            return value
        value = float(value)
        if not value >= 0:  # NaN too
            raise ValueError(f"weight_decay must be a finite number >= 0, got {value}")
        return value

    def _decays_at(self, step) -> tuple:
        """Each parameter's weight decay for step ``step`` (see :func:`decays_at`)."""
        return decays_at(self._decays, step)

    # ---- MindSpore's accessors ----------------------------------------------------------

    @property
    def parameters(self) -> tuple:
        """The parameters updated, in the order gradients are expected."""
        return self._parameters

    def get_lr(self):
        """The learning rate the next step uses: a float, or (parameter groups) a tuple
        with one value per parameter, as MindSpore returns it."""
        step = self.global_step
        if not self.is_group:
            return self.learning_rate.at(step)
        per_group = [lr.at(step) for lr in self._group_lrs]
        return tuple(per_group[g] for g in self._group_of)

    def get_lr_parameter(self, param):
        """The learning rate of the next step for one parameter (or a list of them)."""
        if isinstance(param, (list, tuple)):
            return [self.get_lr_parameter(p) for p in param]
        for i, p in enumerate(self._parameters):
            if p is param:
                return self._group_lrs[self._group_of[i]].at(self.global_step)
        raise ValueError(f"{type(self).__name__}.get_lr_parameter: "
                         f"{_label(param, -1)} is not one of this optimizer's parameters")

    # ---- the step -------------------------------------------------------------------------

    def __call__(self, gradients) -> bool:
        """Apply one update with ``gradients`` (one per parameter, in order); returns True."""
        params = self._parameters
        name = type(self).__name__
        if len(gradients) != len(params):
            raise ValueError(f"{name}: expected {len(params)} gradients (one per parameter, "
                             f"in optimizer.parameters order), got {len(gradients)}")
        from ..graph.tracing import Retrace, full_precision, is_tracing
        traced = is_tracing()
        made = False
        for i, (p, g) in enumerate(zip(params, gradients)):
            if g is None:
                continue
            if traced and not isinstance(p, Parameter):
                raise SporelingError("a compiled optimiser step updates Parameters only",
                                     op=f"{name} (Graph mode)", expected="Parameters",
                                     got=f"{type(p).__name__} at position {i}")
            made |= self._state_params[i] is None
            state_parameters(self, i, p)
        if traced and made:  # new Parameters: the trace must lift them
            raise Retrace(f"{name} made its state")
        step = self._step_param if traced else self.global_step
        # compiled at amp_level O2/O3, the update keeps the master weights' float32
        with full_precision() if traced else contextlib.nullcontext():
            lrs = [lr.at(step) for lr in self._group_lrs]
            decays = self._decays_at(step)
            for i, (p, g) in enumerate(zip(params, gradients)):
                if g is not None:
                    self._step_one(i, p, g, lrs[self._group_of[i]], decays[i], traced)
            if traced:
                self._step_param.set_data(self._step_param + 1)
        if not traced:
            self.global_step = step + 1
        return True

    construct = __call__

    def _step_one(self, i: int, p, g, lr, wd, traced: bool) -> None:
        """The update of parameter ``i`` (see the class doc), written back. Eagerly the rule
        runs on NumPy arrays (its ops take them: a few big elementwise ops cost less so than
        as Tensors) and the results go into the buffers in place; in a trace it runs on
        Tensors and ``set_data`` makes the compiled step ``assign`` them."""
        cdt = compute_dtype(np.dtype(p.dtype))
        if traced:
            w, g = operand(p, cdt), operand(g, cdt)
        else:
            w, g = to_numpy(p).astype(cdt, copy=False), to_numpy(g).astype(cdt, copy=False)
        if tuple(g.shape) != tuple(w.shape):
            raise ShapeError("gradient shape differs from its parameter's",
                             op=type(self).__name__, expected=f"{tuple(w.shape)}",
                             got=f"{tuple(g.shape)}", where=_label(p, i))
        if self.loss_scale != 1.0:
            g = g * (1.0 / self.loss_scale)
        if isinstance(wd, Tensor):  # a schedule's value in a trace, in the compute dtype
            wd = wd.astype(cdt)
        if not _no_decay(wd) and not self._decoupled_weight_decay:
            g = g + wd * w
        if not traced:
            write(p, self._update_arrays(w, g, self._states[i], lr, wd))
            return
        if isinstance(lr, Tensor):  # a per-step value or a schedule's, in the compute dtype
            lr = lr.astype(cdt)
        held = self._state_params[i]
        new_w, new_state = self._update(w, g, dict(held), lr, wd)
        assign(p, new_w)
        for key, value in new_state.items():
            assign(held[key], value)

    def _init_state(self, w: np.ndarray) -> dict:
        return {}

    def _update_arrays(self, w, g, state: dict, lr: float, weight_decay: float):
        """The update rule on NumPy arrays, ``state`` (``{name: array}``) updated in place;
        returns the new weight (the eager step, and code keeping its own state: a shard's)."""
        new_w, new_state = self._update(w, g, dict(state), lr, weight_decay)
        for key, value in new_state.items():
            np.copyto(state[key], to_numpy(value), casting="unsafe")
        return to_numpy(new_w)

    def _update(self, w, g, state, lr, weight_decay):  # pragma: no cover - abstract
        raise NotImplementedError(f"{type(self).__name__} does not define _update")

    def state_parameters(self) -> tuple:
        """The optimiser's state as Parameters, for checkpoints: the step counter, then each
        parameter's state (made on its first step; names ``optimizer.state.param``)."""
        held = [s for s in self._state_params if s is not None]
        return (self._step_param,) + tuple(p for state in held for p in state.values())

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({len(self._parameters)} parameters, "
                f"lr={self.learning_rate}, global_step={self.global_step})")
