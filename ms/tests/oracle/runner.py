"""Runs a ``Case`` against an ``ms`` module -- real ``mindspore`` when recording,
``sporeling.ms`` when replaying -- and returns what it produced as ``{key: ndarray}``:
``out.i`` (the flattened outputs), ``grad.i`` (gradients; ``wgrad.NAME`` the parameters'
ones by name, ``order.params`` their order), ``param.NAME`` (a cell's
initial parameters), ``after.NAME`` (its parameters after the run: moving statistics,
optimizer and training updates), ``loss.i`` (training losses), plus ``struct.out`` /
``struct.grad``: the nesting of the results (``T`` a Tensor, ``S`` a Python scalar,
``W`` a parameter's gradient, ``(..)`` a tuple, ``[..]`` a list)."""
from __future__ import annotations

import numpy as np

from .case import Attr, Case
from .inputs import Input, case_rng, draw, draw_all


def resolve(ms, path: str):
    obj = ms
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _value(ms, v):
    if isinstance(v, Attr):
        return resolve(ms, v.path)
    if isinstance(v, dict):
        return {k: _value(ms, x) for k, x in v.items()}
    return v


def _tensors(ms, arrays):
    def conv(a):
        if isinstance(a, np.ndarray):
            return ms.Tensor(a)
        if isinstance(a, (list, tuple)):
            return type(a)(conv(x) for x in a)
        return _value(ms, a)
    return [conv(a) for a in arrays]


def flatten(value, prefix: str, out: dict) -> str:
    """Adds ``value``'s arrays to ``out`` as ``prefix.0``, ``prefix.1``, ... and returns its
    structure string."""
    if isinstance(value, (tuple, list)):
        inner = ",".join(flatten(v, prefix, out) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    index = sum(1 for k in out if k.startswith(prefix + "."))
    if value is None:
        return "N"
    if isinstance(value, str):     # a placeholder: recorded elsewhere
        return value
    if hasattr(value, "asnumpy"):
        out[f"{prefix}.{index}"] = np.asarray(value.asnumpy())
        return "T"
    out[f"{prefix}.{index}"] = np.asarray(value)
    return "S"


def _float_kind(a) -> bool:
    return np.asarray(a).dtype.kind == "f"


def _params(cell):
    return list(cell.parameters_and_names())


def load_params(ms, cell, params: dict):
    """Sets each of ``cell``'s parameters to ``params[name]`` (MindSpore's recorded ones);
    a name on one side only is an error naming it."""
    ours = dict(_params(cell))
    if set(ours) != set(params):
        raise KeyError(f"parameter names differ: only MindSpore's {sorted(set(params) - set(ours))}, "
                       f"only ours {sorted(set(ours) - set(params))}")
    for name, p in ours.items():
        p.set_data(ms.Tensor(params[name]))


def initial_params(cell, params, out: dict) -> dict:
    """``params``, or (when None: recording) the cell's own initial values, added to
    ``out`` as ``param.NAME``. Both sides then load them explicitly: MindSpore initialises a
    parameter lazily, and the values ``asnumpy()`` shows before the first run are not always
    the ones the run uses."""
    if params is None:
        params = {name: p.asnumpy() for name, p in _params(cell)}
        out.update({f"param.{name}": a for name, a in params.items()})
    return params


def run_case(ms, case: Case, params: dict | None = None) -> dict:
    """The recorded arrays of ``case`` (``params``: a cell's or model's initial parameters
    to load, by name; None: keep the module's own and record them)."""
    if case.kind == "optim":
        return _run_optim(ms, case)
    if case.kind == "train":
        from .cases.training import run_training
        return run_training(ms, case, params)
    arrays = draw_all(case.name, case.inputs)
    args = _tensors(ms, arrays)
    kwargs = {k: _value(ms, v) for k, v in case.kwargs.items()}
    target = resolve(ms, case.api)
    if case.init is not None:
        target = target(**_value(ms, case.init))
    out: dict = {}
    weights = None
    if case.kind == "cell":
        target.set_train(case.train)
        params = initial_params(target, params, out)
        load_params(ms, target, params)
        weights = [p for p in target.trainable_params()] or None

    # a list/tuple argument (concat's tensors, LSTMCell's (h, c)) travels as its items, one
    # positional argument each, and is packed again inside: each item gets its gradient
    # (MindSpore's grad gives none for a list argument)
    flat_args, flat_specs, packing = [], [], []
    for spec, a in zip(case.inputs, args):
        if isinstance(a, (list, tuple)):
            packing.append((type(a), len(a)))
            flat_args += a
            flat_specs += spec
        else:
            packing.append(None)
            flat_args.append(a)
            flat_specs.append(spec)

    def fn(*flat):
        packed, i = [], 0
        for how in packing:
            if how is None:
                packed.append(flat[i])
                i += 1
            else:
                packed.append(how[0](flat[i:i + how[1]]))
                i += how[1]
        return target(*packed, **kwargs)
    out["struct.out"] = np.array(flatten(fn(*flat_args), "out", out))
    floats_out = any(_float_kind(v) for k, v in out.items() if k.startswith("out."))
    positions = tuple(i for i, spec in enumerate(flat_specs)
                      if isinstance(spec, Input) and spec.differentiable)
    if case.grad and floats_out and (positions or weights):
        grads = ms.grad(fn, grad_position=positions or None, weights=weights)(*flat_args)
        if weights:     # the parameters' gradients by name (their order is compared apart)
            names = {id(p): name for name, p in _params(target)}
            out["order.params"] = np.array([names[id(p)] for p in weights])
            for p, g in zip(weights, grads[-1] if positions else grads):
                out[f"wgrad.{names[id(p)]}"] = g.asnumpy()
            grads = (grads[0], ("W",) * len(weights)) if positions else ("W",) * len(weights)
        out["struct.grad"] = np.array(flatten(grads, "grad", out))
    if case.kind == "cell":
        for name, p in _params(target):
            out[f"after.{name}"] = p.asnumpy()
    return out


def _run_optim(ms, case: Case) -> dict:
    """``case.inputs``: the parameters' specs; each of ``case.steps`` steps applies gradients
    drawn with the parameters' shapes (same stream on both sides)."""
    rng = case_rng(case.name)
    params = [ms.Parameter(ms.Tensor(draw(s, rng)), name=f"w{i}")
              for i, s in enumerate(case.inputs)]
    opt = resolve(ms, case.api)(params, **_value(ms, case.init or {}))
    out: dict = {}
    for step in range(case.steps):
        grads = tuple(ms.Tensor(draw(Input(s.shape, s.dtype, "normal"), rng))
                      for s in case.inputs)
        opt(grads)
        for i, p in enumerate(params):
            out[f"after.{step}.w{i}"] = p.asnumpy()
    return out
