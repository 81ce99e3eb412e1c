"""Optimiser state: one Parameter per entry of ``_init_state``, made on a parameter's first
step and shared by both modes.

``opt._state_params[i]`` maps each state name to its Parameter (None before parameter
``i``'s first step); ``opt._states[i]`` maps the same names to those Parameters' own NumPy
arrays (one buffer: what the eager step writes, a compiled step's ``assign`` writes too).
Being Parameters, they are lifted into a Graph-mode trace like the weights. State made on the
first call inside a trace did not exist when the trace began: the step makes it and asks the
tracer to trace again (:class:`~sporeling.expression.graph.tracing.Retrace`); a
``TrainOneStepCell`` makes it before tracing (:func:`prepare_state`).
"""
from __future__ import annotations

import numpy as np

from ..tensor.parameter import Parameter
from ._arrays import compute_dtype

__all__ = ["state_parameters", "prepare_state"]


def state_parameters(opt, index: int, param) -> dict:
    """The state of parameter ``index`` (``{name: Parameter}``), made on first use from the
    parameter's shape and dtype (in a trace the weight has no data to read)."""
    held = opt._state_params[index]
    if held is not None:
        return held
    dtype = compute_dtype(np.dtype(param.dtype))
    initial = opt._init_state(np.zeros(tuple(param.shape), dtype))
    label = getattr(param, "name", None) or f"parameter{index}"
    held, arrays = {}, {}
    for key, value in initial.items():
        state = Parameter(np.array(value), name=f"{type(opt).__name__.lower()}.{key}.{label}",
                          requires_grad=False)
        held[key], arrays[key] = state, state.asnumpy()
    opt._state_params[index], opt._states[index] = held, arrays
    return held


def prepare_state(opt) -> None:
    """Make the state of every parameter of ``opt``, so that a trace of its step needs no
    retrace. Anything but an ``Optimizer`` (a wrapper: ``LARS``, ZeRO's sharded one, which
    keeps its own state) is left alone; a wrapped optimiser makes its state in the trace."""
    from .optimizer import Optimizer
    if not isinstance(opt, Optimizer):
        return
    for i, p in enumerate(opt._parameters):
        if opt._state_params[i] is None:
            state_parameters(opt, i, p)
