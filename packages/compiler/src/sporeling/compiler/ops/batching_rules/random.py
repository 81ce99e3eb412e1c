"""Batching rule of the random primitives with operands (``bernoulli``): probabilities that
vary by example mean one draw of the larger shape -- independent samples per example.

``uniform``, ``normal``, ``randint`` and ``permutation`` take no operands, so nothing inside
``vmap`` is ever batched through them: one draw is shared by the batch (JAX's behaviour with
an unbatched key); dropout's rule (in :mod:`.nn`) shares its mask the same way.
"""
from __future__ import annotations

from ...core import bind
from ...core.batching import def_batching
from ..random import bernoulli_p
from ._util import aligned


@def_batching(bernoulli_p)
def _bernoulli_rule(args, dims, *, shape, dtype, seed):
    (probs,), (d,) = args, dims
    probs = aligned(probs, d, len(shape))
    return bind(bernoulli_p, probs, shape=(probs.shape[0],) + tuple(shape), dtype=dtype,
                seed=seed), 0
