"""Gradient clipping of ``mindspore.ops`` (r2.3): ``clip_by_value``, ``clip_by_norm``,
``clip_by_global_norm``; each takes a Tensor or a list/tuple of them (gradients)."""
from __future__ import annotations

from ._util import SporelingError, float_of, ops, result, tensor

__all__ = ["clip_by_value", "clip_by_norm", "clip_by_global_norm"]


def _each(x, fn):
    if isinstance(x, (list, tuple)):
        return type(x)(fn(v) for v in x)
    return fn(x)


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """Every element of ``x`` (a Tensor, or a list/tuple of them) clipped to
    ``[clip_value_min, clip_value_max]``."""
    if clip_value_min is None and clip_value_max is None:
        raise SporelingError("needs a bound", op="ops.clip_by_value",
                             expected="clip_value_min or clip_value_max", got="both None")
    lo = None if clip_value_min is None else tensor(clip_value_min)
    hi = None if clip_value_max is None else tensor(clip_value_max)
    return _each(x, lambda v: result(ops.clip(tensor(v), lo, hi)))


def _total_norm(tensors, norm_type):
    if norm_type in (float("inf"), "inf"):
        return ops.max(ops.stack([ops.max(ops.abs(t)) for t in tensors]))
    p = float(norm_type)
    powered = [ops.sum(ops.pow(ops.abs(t), p)) for t in tensors]
    return ops.pow(ops.sum(ops.stack(powered)), 1.0 / p)


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """``x`` scaled so that the ``norm_type``-norm of all its tensors together is at most
    ``max_norm`` (``x * max_norm / (norm + 1e-6)`` when above). ``error_if_nonfinite`` raises
    on a NaN/inf norm (PyNative)."""
    tensors = [float_of(v) for v in (x if isinstance(x, (list, tuple)) else [x])]
    total = _total_norm(tensors, norm_type)
    if error_if_nonfinite and not bool(ops.isfinite(total)):
        raise SporelingError("the total norm is not finite", op="ops.clip_by_norm",
                             expected="a finite norm", got=str(total))
    scale = ops.clip(ops.div(float(max_norm), ops.add(total, 1e-6)), None, 1.0)
    return _each(x, lambda v: result(ops.mul(float_of(v), scale)))


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """The tensors of ``x`` scaled by ``clip_norm / max(global_norm, clip_norm)`` where
    ``global_norm`` is the 2-norm of them all (``use_norm`` must be None, as MindSpore)."""
    if use_norm is not None:
        raise SporelingError("use_norm is not supported", op="ops.clip_by_global_norm",
                             expected="use_norm=None (MindSpore supports only None)",
                             got=repr(use_norm))
    tensors = [float_of(v) for v in (x if isinstance(x, (list, tuple)) else [x])]
    global_norm = _total_norm(tensors, 2.0)
    scale = ops.div(float(clip_norm), ops.maximum(global_norm, float(clip_norm)))
    return _each(x, lambda v: result(ops.mul(float_of(v), scale)))
