"""Random primitives, reproducible under ``sporeling.core.set_seed``.

Randomness is an explicit value (JAX's lesson): every sampling primitive takes its seed as
an **operand**, an int64 scalar, and its kernel builds ``np.random.default_rng(seed)`` -- a
pure function of its operands and parameters. The seed comes from :func:`draw_seed`, which
binds the ``rng_seed`` primitive (no operands; its kernel draws the next integer of the
``"ops"`` stream) to the innermost active trace, so a compiled graph holds an ``rng_seed``
equation that runs -- draws afresh -- on every execution; eagerly it draws at once. Passes
never fold or merge ``rng_seed`` (it is declared ``nondeterministic``).

Reproducibility: after ``set_seed(s)`` a program draws the same sequence of seeds, eager or
compiled. A compiled graph draws one seed per random op of its trace, in trace order -- the
order the same code draws them eagerly -- so N runs of a compiled step after ``set_seed(s)``
give the masks of N eager steps (unless a pass removed an unused draw). Inside control-flow
bodies (``cond``, loops) the seed is drawn once in the enclosing scope and captured: every
iteration of a loop shares it (as a JAX key closed over by a loop body), which keeps the
backward (that re-runs the body) on the forward's masks.

No random primitive is differentiable; ``permutation(x)`` is a differentiable
:func:`~sporeling.compiler.ops.gather` of ``x`` at random positions.

    >>> from sporeling.core import set_seed
    >>> set_seed(1); a = uniform((3,))
    >>> set_seed(1); bool((a == uniform((3,))).all())
    True
"""
from __future__ import annotations

import numpy as np

from sporeling.core import DTypeError, ShapeError, SporelingError, dtypes, generator

from ..core import Aval, Primitive, bind, def_nondifferentiable
from ..ir.trace import innermost_trace
from ._batching import aligned
from ._util import as_operand, check_float, check_int, check_shape, is_array

__all__ = ["uniform", "normal", "bernoulli", "randint", "permutation", "draw_seed",
           "seed_operand", "check_seed"]

# draws: never merged or folded (a graph keeps exactly the draws its code made; rng_seed has
# no operands, so two of them look equal), never recast by AMP; a seed bound inside a trace
# is an equation drawing anew on every run (fresh_per_run), not a constant of the graph
rng_seed_p = Primitive("rng_seed", doc="the next int64 seed of the 'ops' random stream",
                       nondeterministic=True, fresh_per_run=True, core=True)
uniform_p, normal_p, randint_p, permutation_p = (
    Primitive(n, amp="never", nondeterministic=True, core=True)
    for n in ("uniform", "normal", "randint", "permutation"))
bernoulli_p = Primitive("bernoulli", core=True, amp="never", nondeterministic=True)
def_nondifferentiable(rng_seed_p, uniform_p, normal_p, randint_p, permutation_p, bernoulli_p)
rng_seed_p.def_abstract_eval(lambda: Aval((), dtypes.int64))

_INT64 = np.dtype(np.int64)
_SEED_HIGH = 2 ** 63 - 1


def draw_seed():
    """The seed of one random application: an ``rng_seed`` equation of the innermost active
    trace (a new draw on every run of the graph), else the next integer of the ``"ops"``
    stream at once (what binding ``rng_seed`` eagerly gives, without the dispatch), as an
    int64 0-d array.

        >>> from sporeling.core import set_seed
        >>> set_seed(0); a = draw_seed()
        >>> set_seed(0); bool(a == draw_seed()), a.dtype
        (True, dtype('int64'))
    """
    trace = innermost_trace()
    if trace is None:
        return np.array(generator("ops").integers(0, _SEED_HIGH), _INT64)
    out = trace.apply(rng_seed_p, (), {})
    return trace.wrap_fresh(out) if trace.wrap_fresh is not None else out


def seed_operand(seed, op: str = "random"):
    """``seed`` as ``op``'s seed operand: a drawn one (:func:`draw_seed`) for None, an int64
    0-d array for an int, else the (traced) int64 scalar it must be."""
    if seed is None:
        return draw_seed()
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        # an int past int64 is an ArgumentError naming the seed, not NumPy's OverflowError
        return np.array(check_int(seed, "seed", op=op, min=-2 ** 63, max=2 ** 63 - 1), _INT64)
    check_seed(op, as_operand(seed))
    return seed


def check_seed(op: str, seed) -> None:
    """Abstract check of a seed operand: an int64 scalar."""
    if not is_array(seed) or tuple(seed.shape) != () or np.dtype(seed.dtype) != _INT64:
        raise DTypeError("the seed must be an int64 scalar", op=op, expected="int64[]",
                         got=f"{np.dtype(seed.dtype)}{list(seed.shape)}" if is_array(seed)
                         else repr(seed)[:40])


def _shape(op: str, shape) -> tuple[int, ...]:
    shape = check_shape(op, shape)
    if not all(n >= 0 for n in shape):
        raise ShapeError("bad shape", op=op, expected="ints >= 0", got=repr(shape))
    return tuple(int(n) for n in shape)


def _float_dtype(op: str, dtype) -> np.dtype:
    dtype = dtypes.dtype(dtype)
    if not dtypes.is_floating(dtype):
        raise DTypeError("needs a float dtype", op=op, expected="a float dtype", got=str(dtype))
    return dtype


def _sampler_aval(op: str):
    def rule(seed, *, shape, dtype, **_):
        check_seed(op, seed)
        return Aval(shape, dtype)
    return rule


for _p in (uniform_p, normal_p, randint_p):
    _p.def_abstract_eval(_sampler_aval(_p.name))


def _scalar(x):
    return not is_array(x) or (not np.shape(x) and isinstance(x, (np.ndarray, np.generic)))


def uniform(shape, minval=0.0, maxval=1.0, dtype=dtypes.float32):
    """Samples from ``[minval, maxval)``; bounds that are tensors broadcast (and carry
    gradients through the affine map)."""
    dtype = _float_dtype("uniform", dtype)
    shape = _shape("uniform", shape)
    if _scalar(minval) and _scalar(maxval):
        return bind(uniform_p, draw_seed(), shape=shape, dtype=dtype,
                    low=check_float(minval, "minval", op="uniform"),
                    high=check_float(maxval, "maxval", op="uniform"))
    from .elementwise import add, mul, sub
    unit = bind(uniform_p, draw_seed(), shape=shape, dtype=dtype, low=0.0, high=1.0)
    return add(mul(unit, sub(maxval, minval)), minval)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32):
    """Samples from the normal distribution; ``mean``/``stddev`` may be broadcast tensors."""
    dtype = _float_dtype("normal", dtype)
    shape = _shape("normal", shape)
    if _scalar(mean) and _scalar(stddev):
        return bind(normal_p, draw_seed(), shape=shape, dtype=dtype,
                    mean=check_float(mean, "mean", op="normal"),
                    stddev=check_float(stddev, "stddev", op="normal", min=0.0))
    from .elementwise import add, mul
    unit = bind(normal_p, draw_seed(), shape=shape, dtype=dtype, mean=0.0, stddev=1.0)
    return add(mul(unit, stddev), mean)


@bernoulli_p.def_abstract_eval
def _bernoulli_aval(probs, seed, *, shape, dtype):
    try:
        fits = np.broadcast_shapes(tuple(probs.shape), shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise ShapeError("probabilities do not broadcast to the shape", op="bernoulli",
                         expected=f"a shape broadcasting to {shape}", got=tuple(probs.shape))
    check_seed("bernoulli", seed)
    return Aval(shape, dtypes.dtype(dtype))


def bernoulli(p, shape=None, dtype=None):
    """1 with probability ``p`` (a number or a tensor of probabilities), else 0; the shape is
    ``p``'s unless given (``p`` broadcasts to it). The dtype is ``p``'s float dtype (float32
    for a number) unless given.

        >>> bernoulli(np.array([0.0, 1.0]))
        array([0., 1.])
    """
    probs = as_operand(p)
    if not dtypes.is_floating(probs.dtype):
        from .dtype import cast
        probs = cast(probs, dtypes.default_float)
    dtype = probs.dtype if dtype is None else dtypes.dtype(dtype)
    shape = tuple(probs.shape) if shape is None else _shape("bernoulli", shape)
    _bernoulli_aval(probs, Aval((), _INT64), shape=shape, dtype=dtype)
    return bind(bernoulli_p, probs, draw_seed(), shape=shape, dtype=dtype)


def randint(low, high, shape, dtype=dtypes.int64):
    """Integers drawn uniformly from ``[low, high)``.

        >>> randint(3, 4, (2,))
        array([3, 3])
    """
    dtype = dtypes.dtype(dtype)
    if not dtypes.is_integer(dtype):
        raise DTypeError("needs an integer dtype", op="randint", expected="an integer dtype",
                         got=str(dtype))
    low, high = check_int(low, "low", op="randint"), check_int(high, "high", op="randint")
    if not low < high:
        raise ShapeError("empty range", op="randint", expected="low < high",
                         got=f"low={low}, high={high}")
    return bind(randint_p, draw_seed(), shape=_shape("randint", shape), dtype=dtype,
                low=int(low), high=int(high))


@permutation_p.def_abstract_eval
def _permutation_aval(seed, *, n):
    check_seed("permutation", seed)
    return Aval((n,), dtypes.int64)


def permutation(x):
    """A random permutation of ``range(x)`` for an int, else ``x`` shuffled along its first
    axis (a gather, so gradients reach ``x``).

        >>> sorted(permutation(4).tolist())
        [0, 1, 2, 3]
    """
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        if x < 0:
            raise ShapeError("negative length", op="permutation", expected="an int >= 0",
                             got=x)
        return bind(permutation_p, draw_seed(), n=int(x))
    x = as_operand(x)
    if not x.shape:
        raise ShapeError("cannot permute a 0-d tensor", op="permutation",
                         expected="an int or a tensor of 1 or more dimensions", got="shape ()")
    from .indexing import gather
    return gather(x, bind(permutation_p, draw_seed(), n=int(x.shape[0])), axis=0)


# ---- vmap ---------------------------------------------------------------------------------
# A seed that is the same for the whole batch (the usual case: drawn outside vmap) leaves the
# operand-free samplers unbatched -- one draw shared by the batch, JAX's behaviour with an
# unbatched key -- so their rules only meet batched seeds, which are refused: a kernel draws
# from one seed. bernoulli with probabilities that vary by example draws once at the larger
# shape (independent samples per example); dropout's rule gives each example the mask it
# would get alone.

def refuse_batched_seed(op: str) -> None:
    """The error for a seed that varies over a ``vmap`` batch."""
    raise SporelingError("vmap over random seeds is not supported: one draw uses one seed",
                         op=op, expected="a seed shared by the batch", got="a batched seed",
                         hint="draw the seed outside vmap, or loop over the seeds")


def _sampler_batching(args, dims, **params):
    refuse_batched_seed("vmap of a random sampler")


for _prim in (uniform_p, normal_p, randint_p, permutation_p):
    _prim.def_batching(_sampler_batching)


@bernoulli_p.def_batching
def _bernoulli_batching(args, dims, *, shape, dtype):
    (probs, seed), (d, ds) = args, dims
    if ds is not None:
        refuse_batched_seed("bernoulli")
    probs = aligned(probs, d, len(shape))
    return bind(bernoulli_p, probs, seed, shape=(probs.shape[0],) + tuple(shape),
                dtype=dtype), 0
