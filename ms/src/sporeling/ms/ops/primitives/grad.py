"""``GradOperation``: MindSpore's higher-order gradient primitive over ``sx.grad``."""
from __future__ import annotations

import sporeling.expression as sx
from sporeling.core.errors import ArgumentError, SporelingError

from ..functional_math.differential import _total
from .base import Primitive

__all__ = ["GradOperation"]


class GradOperation(Primitive):
    """``GradOperation(get_all=False, get_by_list=False, sens_param=False)(fn, weights)``
    gives a function returning gradients of ``fn``'s (scalar, or ``sens``-weighted) output:

    * neither flag: the gradient of the first input;
    * ``get_all``: a tuple, one per input;
    * ``get_by_list``: a tuple, one per Parameter of ``weights``;
    * both: ``(input_gradients, weight_gradients)``.

    ``sens_param=True``: the gradient function takes the output's cotangent as an extra last
    argument (MindSpore's ``sens``); without it the cotangent is all ones, as in MindSpore (a
    non-scalar output is differentiated as its sum)."""

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        super().__init__("GradOperation")
        self.get_all, self.get_by_list, self.sens_param = (bool(get_all), bool(get_by_list),
                                                           bool(sens_param))
        self.attrs.update(get_all=self.get_all, get_by_list=self.get_by_list,
                          sens_param=self.sens_param)

    def __call__(self, fn, weights=None):
        if not callable(fn):  # refused now, not at the first call of the gradient
            raise ArgumentError("bad fn", op="ops.GradOperation", expected="a function or Cell",
                                got=f"{type(fn).__name__} {fn!r}"[:80])
        if self.get_by_list:
            if weights is None:
                raise SporelingError("get_by_list needs the weights", op="ops.GradOperation",
                                     expected="GradOperation(get_by_list=True)(fn, weights)",
                                     got="no weights")
            weights = list(weights) if not isinstance(weights, sx.Parameter) else [weights]
        else:
            weights = None

        def grad_fn(*args):
            n = len(args) - (1 if self.sens_param else 0)
            if self.get_all:
                position = tuple(range(n))
            elif self.get_by_list:
                position = None
            else:
                position = 0
            if n == 0 and position is not None:
                raise SporelingError("no input to differentiate", op="ops.GradOperation",
                                     expected="at least one input", got="none")
            target = fn if self.sens_param else _summed(fn)
            out = sx.grad(target, position, weights, sens_param=self.sens_param)(*args)
            if self.get_by_list and not self.get_all:
                return tuple(out) if isinstance(out, (tuple, list)) else (out,)
            if self.get_all and self.get_by_list:
                inputs, params = out
                return (tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,),
                        tuple(params) if isinstance(params, (tuple, list)) else (params,))
            return out
        grad_fn.__name__ = f"grad_of_{getattr(fn, '__name__', type(fn).__name__)}"
        return grad_fn


def _summed(fn):
    """``fn`` with its outputs summed: differentiating it applies a cotangent of ones."""
    def total(*args):
        return _total(fn(*args))
    return total
