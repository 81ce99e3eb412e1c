"""The optimiser step inside a Graph-mode trace (``@jit`` around ``optimizer(grads)``).

The update is written with ops on Tensors, so it is recorded into the graph being built,
after the backward pass; the new weights and states go through ``Parameter.set_data``,
which the tracer turns into ``assign`` equations at the end of the graph (the compiled
step writes them in place, after every read of the old values).

Optimiser state lives in Parameters (the eager NumPy path updates the same buffers in
place), so it is lifted into the graph like the weights. State made on the first call
inside a trace did not exist when the trace began: the step makes it eagerly and asks the
tracer to trace again (:class:`~sporeling.expression.graph.tracing.Retrace`).
"""
from __future__ import annotations

import numpy as np

from sporeling.core import SporelingError

from ..tensor.parameter import Parameter
from ..tensor.tensor import Tensor
from ._arrays import compute_dtype

__all__ = ["graph_step", "prepare_state", "scalar_as", "state_parameters",
           "traceable_learning_rate"]


def state_parameters(opt, index: int, param) -> dict:
    """The state of parameter ``index`` as Parameters, made on first use: each NumPy entry
    of ``_init_state`` is moved into a Parameter and the eager state dict keeps that
    Parameter's own array, so both paths update one buffer."""
    held = opt._state_params[index]
    if held is not None:
        return held
    state = opt._states[index]
    if state is None:  # from the shape and dtype only: in a trace the weight has no data
        dtype = compute_dtype(np.dtype(param.dtype))
        state = opt._states[index] = opt._init_state(np.zeros(tuple(param.shape), dtype))
    label = getattr(param, "name", None) or f"parameter{index}"
    held = {}
    for key, value in list(state.items()):
        array = np.asarray(value)
        p = Parameter(array, name=f"{type(opt).__name__.lower()}.{key}.{label}",
                      requires_grad=False)
        held[key] = p
        state[key] = p.asnumpy()  # the eager path now writes into the Parameter
    opt._state_params[index] = held
    return held


def prepare_state(opt) -> None:
    """Make the state of every Parameter ``opt`` updates (before a trace: no retrace)."""
    for i, p in enumerate(opt._parameters):
        if opt._state_params[i] is None and isinstance(p, Parameter):
            state_parameters(opt, i, p)


def graph_step(opt, gradients) -> bool:
    """One step of ``opt`` recorded into the current trace (see the module doc)."""
    from ..graph.tracing import Retrace
    name = type(opt).__name__
    params = opt._parameters
    made = False
    for i, (p, g) in enumerate(zip(params, gradients)):
        if g is None:
            continue
        if not isinstance(p, Parameter):
            raise SporelingError("a compiled optimiser step updates Parameters only",
                                 op=f"{name} (Graph mode)", expected="Parameters",
                                 got=f"{type(p).__name__} at position {i}")
        made |= opt._state_params[i] is None
        state_parameters(opt, i, p)
    if made:
        raise Retrace(f"{name} made its state")
    step = opt._step_param
    lrs = [_learning_rate(lr, step, name) for lr in opt._group_lrs]
    inv_scale = 1.0 / opt.loss_scale
    for i, (p, g) in enumerate(zip(params, gradients)):
        if g is None:
            continue
        if not isinstance(g, Tensor):
            g = Tensor(g)
        if tuple(g.shape) != tuple(p.shape):
            raise SporelingError("gradient shape differs from its parameter's",
                                 op=f"{name} (Graph mode)", expected=f"{tuple(p.shape)}",
                                 got=f"{tuple(g.shape)}", where=p.name)
        cdt = compute_dtype(p.dtype)
        w = p if p.dtype == cdt else p.astype(cdt)
        g = g.astype(cdt) if g.dtype != cdt else g
        if inv_scale != 1.0:
            g = g * inv_scale
        wd = opt._decays[i]
        if wd and not opt._decoupled_weight_decay:
            g = g + wd * w
        held = opt._state_params[i]
        new_w, new_state = opt._graph_update(w, g, held, lrs[opt._group_of[i]], wd)
        p.set_data(new_w.astype(p.dtype) if new_w.dtype != p.dtype else new_w)
        for key, value in new_state.items():
            target = held[key]
            target.set_data(value.astype(target.dtype) if value.dtype != target.dtype
                            else value)
    step.set_data(step + 1)
    return True


def traceable_learning_rate(lr) -> bool:
    """Whether a compiled step can read ``lr`` (a ``LearningRate``): a constant or
    per-step values; a schedule is Python called with an int."""
    return lr.constant is not None or lr.values is not None


def _learning_rate(lr, step, name: str):
    """The learning rate at ``step`` (the step's Parameter): a Python float, or a float64
    Tensor read from the per-step values (the last one past their end, as eagerly)."""
    if lr.constant is not None:
        return lr.constant
    if lr.values is None:
        raise SporelingError("a compiled optimiser step cannot call a learning-rate schedule",
                             op=f"{name} (Graph mode)",
                             expected="a float or per-step values", got=repr(lr),
                             hint="give the schedule's values per step (a list), or call "
                                  "the optimiser outside jit")
    from .. import ops
    table = Tensor(np.asarray(lr.values, np.float64))
    return table[ops.minimum(step, len(lr.values) - 1)]


def scalar_as(value, dtype):
    """A Python float as it is; a (float64) Tensor cast to ``dtype``, as NumPy casts a
    Python float against an array of ``dtype`` in the eager step."""
    return value if isinstance(value, float) else value.astype(dtype)
