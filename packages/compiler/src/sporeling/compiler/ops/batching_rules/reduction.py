"""Batching rules of reductions, scans, softmax and normalisation: the per-example axes
shift past the batch axis, which stays where it is (or moves left past reduced axes)."""
from __future__ import annotations

from ...core import bind, defined_primitives
from ...core.batching import def_batching
from ._util import reshape, shift_axes, shift_axis, to_front

_P = defined_primitives()


def _reduction_rule(prim):
    def rule(args, dims, *, axis, keepdims, **params):
        (x,), (d,) = args, dims
        axes = shift_axes(axis, d)
        out_dim = d if keepdims else d - sum(1 for a in axes if a < d)
        return bind(prim, x, axis=axes, keepdims=keepdims, **params), out_dim
    return rule


for _name in ("sum", "mean", "prod", "max", "min", "logsumexp", "var", "std", "norm", "all",
              "any"):
    def_batching(_P[_name])(_reduction_rule(_P[_name]))


def _arg_rule(prim):
    def rule(args, dims, *, axis, keepdims):
        (x,), (d,) = args, dims
        if axis is not None:
            a = shift_axis(axis, d)
            out = bind(prim, x, axis=a, keepdims=keepdims)
            return out, (d if keepdims or d < a else d - 1)
        x = to_front(x, d)  # over the flattened example: flatten all but the batch
        rank = len(x.shape) - 1
        out = bind(prim, reshape(x, (x.shape[0], -1) if rank else (x.shape[0], 1)), axis=1,
                   keepdims=False)
        return (reshape(out, (x.shape[0],) + (1,) * rank) if keepdims else out), 0
    return rule


for _name in ("argmax", "argmin"):
    def_batching(_P[_name])(_arg_rule(_P[_name]))


def _one_axis_rule(prim):
    def rule(args, dims, *, axis, **params):
        (x,), (d,) = args, dims
        return bind(prim, x, axis=shift_axis(axis, d), **params), d
    return rule


for _name in ("cumsum", "softmax", "log_softmax"):
    def_batching(_P[_name])(_one_axis_rule(_P[_name]))


@def_batching(_P["normalize"])
def _normalize_rule(args, dims, *, axis, eps):
    (x,), (d,) = args, dims
    return bind(_P["normalize"], x, axis=shift_axes(axis, d), eps=eps), (d, d, d)
