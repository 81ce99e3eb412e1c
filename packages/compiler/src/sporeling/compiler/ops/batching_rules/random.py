"""Batching rules of the random primitives. Each takes its seed as an operand; a seed that is
the same for the whole batch (the usual case: drawn outside ``vmap``) leaves the operand-free
samplers (``uniform``, ``normal``, ``randint``, ``permutation``) unbatched -- one draw shared
by the batch, JAX's behaviour with an unbatched key -- so their rules only meet batched seeds,
which are refused: a kernel draws from one seed. ``bernoulli`` with probabilities that vary by
example draws once at the larger shape -- independent samples per example; dropout's rule
(in :mod:`.nn`) gives each example the mask it would get alone.
"""
from __future__ import annotations

from sporeling.core import SporelingError

from ...core import bind
from ...core.batching import def_batching
from ..random import bernoulli_p, normal_p, permutation_p, randint_p, uniform_p
from ._util import aligned


def refuse_batched_seed(op: str) -> None:
    """The error for a seed that varies over a ``vmap`` batch."""
    raise SporelingError("vmap over random seeds is not supported: one draw uses one seed",
                         op=op, expected="a seed shared by the batch", got="a batched seed",
                         hint="draw the seed outside vmap, or loop over the seeds")


@def_batching(uniform_p, normal_p, randint_p, permutation_p)
def _sampler_rule(args, dims, **params):
    refuse_batched_seed("vmap of a random sampler")


@def_batching(bernoulli_p)
def _bernoulli_rule(args, dims, *, shape, dtype):
    (probs, seed), (d, ds) = args, dims
    if ds is not None:
        refuse_batched_seed("bernoulli")
    probs = aligned(probs, d, len(shape))
    return bind(bernoulli_p, probs, seed, shape=(probs.shape[0],) + tuple(shape),
                dtype=dtype), 0
