"""dropout: zero each element with probability ``p``, scale the rest by ``1 / (1 - p)``.

The primitive takes the mask's seed as a parameter (the op draws it from
``sporeling.core.generator("ops")``), so the mask is a pure function of the seed and the
shape: the backward is the same primitive applied to the cotangent -- the same mask,
nothing saved -- and it is its own backward at every order.
"""
from __future__ import annotations

from sporeling.core import SporelingError, generator

from ...core import Aval, Primitive, bind, def_backward
from .._util import float_operand

__all__ = ["dropout"]

dropout_p = Primitive("dropout")
dropout_p.def_abstract_eval(lambda x, *, p, seed: Aval(tuple(x.shape), x.dtype))


@def_backward(dropout_p, uses=())
def _dropout_bwd(ct, x, *, out, p, seed):
    return (bind(dropout_p, ct, p=p, seed=seed),)


def dropout(input, p=0.5, training=True, seed=None):
    """Randomly zero elements with probability ``p`` while ``training`` (else identity).
    ``seed`` fixes the mask; by default it is drawn from the ``"ops"`` stream, so
    ``set_seed`` makes runs repeat.

        >>> import numpy as np
        >>> y = dropout(np.ones(1000, np.float32), p=0.25, seed=0)
        >>> np.unique(y), bool(0.7 < (y > 0).mean() < 0.8)
        (array([0.       , 1.3333334], dtype=float32), True)
    """
    if not 0.0 <= p <= 1.0:
        raise SporelingError("bad drop probability", op="dropout", expected="0 <= p <= 1",
                             got=p)
    x = float_operand(input)
    if not training or p == 0.0:
        return x
    if p == 1.0:
        from ..elementwise import mul
        return mul(x, 0.0)
    if seed is None:
        seed = int(generator("ops").integers(2**63 - 1))
    return bind(dropout_p, x, p=float(p), seed=int(seed))
