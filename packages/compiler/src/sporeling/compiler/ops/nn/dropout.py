"""dropout: zero each element with probability ``p``, scale the rest by ``1 / (1 - p)``.

The primitive takes the mask's seed as its second **operand** (an int64 scalar, drawn by
:func:`~sporeling.compiler.ops.random.draw_seed` -- in a compiled graph an ``rng_seed``
equation, so every run draws a new mask), and the mask is a pure function of the seed and
the shape: the backward is the same primitive applied to the cotangent with the same seed
operand -- the same mask, nothing else saved -- and it is its own backward at every order.
"""
from __future__ import annotations

from ...core import Aval, Primitive, bind, def_backward
from .._batching import logical_shape, to_front
from .._util import check_float, float_operand
from ..random import check_seed, refuse_batched_seed, seed_operand

__all__ = ["dropout"]

dropout_p = Primitive("dropout", core=True, amp="never", nondeterministic=True)


@dropout_p.def_abstract_eval
def _dropout_aval(x, seed, *, p):
    check_seed("dropout", seed)
    return Aval(tuple(x.shape), x.dtype)


@def_backward(dropout_p, uses=(1,))
def _dropout_bwd(ct, x, seed, *, out, p):
    return bind(dropout_p, ct, seed, p=p), None


def dropout(input, p=0.5, training=True, seed=None):
    """Randomly zero elements with probability ``p`` while ``training`` (else identity).
    ``seed`` (an int, or an int64 scalar tensor) fixes the mask; by default it is drawn from
    the ``"ops"`` stream -- anew on every run of a compiled graph -- so ``set_seed`` makes
    runs repeat.

        >>> import numpy as np
        >>> y = dropout(np.ones(1000, np.float32), p=0.25, seed=0)
        >>> np.unique(y), bool(0.7 < (y > 0).mean() < 0.8)
        (array([0.       , 1.3333334], dtype=float32), True)
    """
    p = check_float(p, "p (the drop probability)", op="dropout", min=0.0, max=1.0)
    x = float_operand(input)
    if not training or p == 0.0:
        return x
    if p == 1.0:
        from ..elementwise import mul
        return mul(x, 0.0)
    return bind(dropout_p, x, seed_operand(seed, "dropout"), p=float(p))


@dropout_p.def_batching
def _dropout_batching(args, dims, *, p):
    # The mask is a function of the seed and the example's shape, so every example gets
    # the mask it would get alone (as in a loop with that seed). It has to: the backward,
    # dropout of the cotangent, may meet an unbatched cotangent and must apply the same mask.
    import numpy as np
    from ..elementwise import mul
    (x, seed), (d, ds) = args, dims
    if ds is not None:
        refuse_batched_seed("dropout")
    mask = bind(dropout_p, np.ones(logical_shape(x, d), x.dtype), seed, p=p)
    return mul(to_front(x, d), mask), 0
