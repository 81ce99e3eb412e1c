"""``grad`` and ``value_and_grad`` with MindSpore's semantics, in PyNative mode.

``grad_position`` picks the differentiated positional arguments (an int gives one gradient,
a tuple a tuple of them, None none); ``weights`` (a Parameter, or a list/tuple of them) adds
gradients with respect to Parameters the function uses. With both, the gradients are
``(input_grads, weight_grads)``. With ``has_aux=True`` the function returns
``(out, aux...)``: only ``out`` is differentiated and the value is the whole tuple. The
output must be a float scalar unless a cotangent is given: with ``sens_param=True`` the
gradient function takes it as its last positional argument (MindSpore's ``sens_param``).
Integer and bool inputs get zero gradients of their own dtype.

    >>> import sporeling.expression as sx
    >>> w = sx.Parameter(sx.Tensor([1.0, 2.0]), name="w")
    >>> f = lambda x: (w * x * x).sum()
    >>> sx.grad(f)(sx.Tensor([3.0, 4.0]))                       # 2 * w * x
    Tensor(shape=[2], dtype=Float32, value= [ 6., 16.])
    >>> value, (gx, (gw,)) = sx.value_and_grad(f, 0, [w])(sx.Tensor([3.0, 4.0]))
    >>> float(value), gw.tolist()
    (41.0, [9.0, 16.0])
    >>> sx.grad(sx.grad(lambda x: (x ** 3).sum()))(sx.Tensor(2.0))   # d2/dx2 x^3 = 6x
    Tensor(shape=[], dtype=Float32, value= 12.)
"""
from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from sporeling.core import SporelingError, dtypes

from ..tensor.parameter import Parameter
from ..tensor.tensor import Tensor, wrap
from .session import GradSession

__all__ = ["grad", "value_and_grad", "GradError"]


class GradError(SporelingError, ValueError):
    """``grad``/``value_and_grad`` was configured or called wrongly."""


def _positions(grad_position):
    if grad_position is None:
        return None
    if isinstance(grad_position, (int, np.integer)) and not isinstance(grad_position, bool):
        raw = (int(grad_position),)
    elif isinstance(grad_position, tuple) and grad_position and all(
            isinstance(p, (int, np.integer)) and not isinstance(p, bool) for p in grad_position):
        raw = tuple(int(p) for p in grad_position)
    else:
        raise GradError("bad grad_position", op="grad",
                        expected="an int, a non-empty tuple of ints, or None",
                        got=repr(grad_position))
    if any(p < 0 for p in raw):
        raise GradError("grad_position must not be negative", op="grad",
                        expected="positions >= 0", got=repr(grad_position))
    return raw


def _weights(weights):
    if weights is None:
        return None
    items = (weights,) if isinstance(weights, Tensor) else weights
    if not isinstance(items, (tuple, list)):
        raise GradError("bad weights", op="grad",
                        expected="a Parameter, or a list or tuple of Parameters",
                        got=type(weights).__name__)
    for i, p in enumerate(items):
        if not isinstance(p, Parameter):
            raise GradError("weights must be Parameters", op="grad", expected="Parameter",
                            got=f"{type(p).__name__} at position {i}",
                            hint="wrap trainable values in sx.Parameter (or pass them as "
                                 "arguments and use grad_position)")
    return tuple(items)


def _as_tensor(value, what: str) -> Tensor:
    if isinstance(value, Tensor):
        return value
    try:
        return Tensor(value)
    except SporelingError:
        raise GradError(f"{what} is not a tensor", op="grad", expected="a Tensor",
                        got=type(value).__name__) from None


def _cotangents(outs: tuple, sens, nested: bool) -> list:
    """``(output, cotangent)`` pairs: ones for scalar outputs, else the given ``sens``."""
    if sens is None:
        pairs = []
        for i, out in enumerate(outs):
            out = _as_tensor(out, "the output")
            if out.size != 1:
                raise GradError("the output is not a scalar", op="grad",
                                expected="a scalar output, or a cotangent (sens_param=True)",
                                got=f"output {i} of shape {list(out.shape)}",
                                hint="reduce it (e.g. .sum()) or pass sens")
            pairs.append((out, None))
    else:
        sens_t = sens if isinstance(sens, tuple) else (sens,)
        if len(sens_t) != len(outs):
            raise GradError("sens does not match the outputs", op="grad",
                            expected=f"{len(outs)} cotangent(s)", got=len(sens_t))
        pairs = [(_as_tensor(o, "the output"), _as_tensor(s, "sens"))
                 for o, s in zip(outs, sens_t)]
    result = []
    for i, (out, ct) in enumerate(pairs):
        if not dtypes.is_floating(out.dtype):
            raise GradError("cannot differentiate a non-float output", op="grad",
                            expected="a float output", got=f"output {i} of dtype {out.dtype}")
        if ct is None:
            ct = wrap(np.ones(out.shape, out.dtype))
        elif tuple(ct.shape) != tuple(out.shape):
            raise GradError("sens has the wrong shape", op="grad",
                            expected=f"shape {list(out.shape)} (the output's)",
                            got=f"shape {list(ct.shape)}")
        elif ct.dtype != out.dtype and not nested:
            ct = wrap(ct._data.astype(out.dtype))
        result.append((out, ct))
    return result


def _detach(value):
    """``value`` with every Tensor cut from the (finished) record."""
    if isinstance(value, Tensor):
        return wrap(value._data) if value._node is not None else value
    if isinstance(value, (tuple, list)):
        return type(value)(_detach(v) for v in value)
    if isinstance(value, dict):
        return {k: _detach(v) for k, v in value.items()}
    return value


def value_and_grad(fn: Callable, grad_position=0, weights=None, has_aux: bool = False,
                   sens_param: bool = False) -> Callable:
    """A function returning ``(fn(*args), gradients)``; see the module doc for the
    gradients' structure."""
    positions = _positions(grad_position)
    params = _weights(weights)
    if positions is None and params is None:
        raise GradError("nothing to differentiate", op="grad",
                        expected="grad_position or weights (or both)",
                        got="grad_position=None, weights=None")

    @functools.wraps(fn, updated=())  # fn may be a Cell: no __dict__ copy
    def wrapper(*args, **kwargs):
        sens = None
        if sens_param:
            if not args:
                raise GradError("sens_param=True needs the cotangent as last argument",
                                op="grad", expected="at least one argument", got="none")
            args, sens = args[:-1], args[-1]
        if positions is not None and max(positions) >= len(args):
            raise GradError("grad_position out of range", op="grad",
                            expected=f"positions < {len(args)} (the number of positional "
                                     f"arguments)", got=repr(grad_position))
        with GradSession() as session:
            call = list(args)
            inputs = []
            for i in positions or ():
                call[i] = session.input(args[i])
                inputs.append(call[i])
            for p in params or ():
                session.watch(p)
            out = fn(*call, **kwargs)
            if has_aux:
                if not isinstance(out, tuple) or len(out) < 2:
                    raise GradError("has_aux=True needs (out, aux...) from the function",
                                    op="grad", expected="a tuple of 2 or more",
                                    got=type(out).__name__)
                targets = (out[0],)
            else:
                targets = out if isinstance(out, tuple) else (out,)
            roots = _cotangents(targets, sens, session.nested)
            grads = session.backward(roots, inputs + list(params or ()))
            value = out if session.nested else _detach(out)
            del out, roots
        g_in = grads[:len(inputs)]
        g_w = grads[len(inputs):]
        g_in = None if positions is None else \
            (g_in[0] if isinstance(grad_position, (int, np.integer)) else tuple(g_in))
        g_w = None if params is None else \
            (g_w[0] if isinstance(weights, Tensor) else tuple(g_w))
        if g_in is None:
            return value, g_w
        return value, (g_in if g_w is None else (g_in, g_w))

    return wrapper


def grad(fn: Callable, grad_position=0, weights=None, has_aux: bool = False,
         sens_param: bool = False) -> Callable:
    """A function returning only the gradients of ``fn`` (see :func:`value_and_grad`);
    with ``has_aux`` it returns ``(gradients, aux)``, ``aux`` a tuple, as MindSpore does."""
    vg = value_and_grad(fn, grad_position, weights, has_aux, sens_param)

    @functools.wraps(fn, updated=())  # fn may be a Cell: no __dict__ copy
    def wrapper(*args, **kwargs):
        value, grads = vg(*args, **kwargs)
        if has_aux:
            return grads, tuple(value[1:])
        return grads

    return wrapper

