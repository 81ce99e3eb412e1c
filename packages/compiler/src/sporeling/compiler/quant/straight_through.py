"""``fake_quant``: quantise-dequantise in float with a straight-through gradient, the
building block of quantisation-aware training.

Forward: ``(clip(round(x / scale) + zero_point, qmin, qmax) - zero_point) * scale``, a
staircase whose derivative is 0 almost everywhere. Backward (the straight-through
estimator of Bengio et al. 2013, as in Jacob et al. 2018): the cotangent passes unchanged
where ``x`` lies inside the representable range ``[(qmin - zp) * scale, (qmax - zp) *
scale]`` and is 0 where the clip saturates -- the derivative of the staircase seen at a
resolution much coarser than one step (which is how ``tests/grad_cases/quant.py`` checks
it with finite differences).

    >>> import numpy as np
    >>> fake_quant(np.float32([0.12, 0.5, 3.0]), scale=0.1, zero_point=0, qmin=-8, qmax=7)
    array([0.1, 0.5, 0.7], dtype=float32)
"""
from __future__ import annotations

import numpy as np

from sporeling.core import DTypeError, SporelingError

from ..core import Aval, Primitive, bind, def_backward
from ..core.batching import def_batching
from ..ops import cast, greater_equal, less_equal, logical_and, mul

__all__ = ["fake_quant", "fake_quant_p"]

fake_quant_p = Primitive("fake_quant")


@fake_quant_p.def_abstract_eval
def _fake_quant_aval(x, *, scale, zero_point, qmin, qmax):
    if not np.issubdtype(np.dtype(x.dtype), np.floating):
        raise DTypeError("fake_quant takes a float value", op="fake_quant", got=str(x.dtype))
    return Aval(tuple(x.shape), np.dtype(x.dtype))


@def_backward(fake_quant_p, uses=(0,))
def _fake_quant_bwd(ct, x, *, out, scale, zero_point, qmin, qmax):
    lo, hi = (qmin - zero_point) * scale, (qmax - zero_point) * scale
    inside = logical_and(greater_equal(x, lo), less_equal(x, hi))
    return (mul(ct, cast(inside, ct.dtype)),)


@def_batching(fake_quant_p)
def _batch_fake_quant(args, dims, **params):
    return bind(fake_quant_p, args[0], **params), dims[0]  # elementwise: the axis stays


def fake_quant(x, *, scale: float, zero_point: int = 0, qmin: int = -128, qmax: int = 127):
    """``x`` rounded to the int grid of ``scale``/``zero_point`` (clipped to ``[qmin,
    qmax]``), in float; gradients pass straight through inside the range."""
    if not scale > 0 or not qmin <= zero_point <= qmax:
        raise SporelingError("bad quantisation grid", op="fake_quant",
                             expected="scale > 0 and qmin <= zero_point <= qmax",
                             got=f"scale={scale}, zero_point={zero_point}, qmin={qmin}, "
                                 f"qmax={qmax}")
    params = dict(scale=float(scale), zero_point=int(zero_point), qmin=int(qmin),
                  qmax=int(qmax))
    fake_quant_p.abstract(x, **params)  # eager kernels would take ints as they come
    return bind(fake_quant_p, x, **params)
