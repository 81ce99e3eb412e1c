"""Random primitives, reproducible under ``sporeling.core.set_seed``.

The op function draws an integer seed from the ``"ops"`` stream and passes it as a
parameter; the kernel builds ``np.random.default_rng(seed)``. So a bound primitive is a pure
function of its parameters (a traced graph replays it exactly), while successive calls
differ. No random primitive is differentiable; ``permutation(x)`` is a differentiable
:func:`~sporeling.compiler.ops.gather` of ``x`` at random positions.

    >>> from sporeling.core import set_seed
    >>> set_seed(1); a = uniform((3,))
    >>> set_seed(1); bool((a == uniform((3,))).all())
    True
"""
from __future__ import annotations

import numpy as np

from sporeling.core import DTypeError, ShapeError, dtypes, generator

from ..core import Aval, Primitive, bind, def_nondifferentiable
from ._util import as_operand, is_array

__all__ = ["uniform", "normal", "bernoulli", "randint", "permutation", "draw_seed"]

uniform_p, normal_p, randint_p, permutation_p = (
    Primitive(n) for n in ("uniform", "normal", "randint", "permutation"))
bernoulli_p = Primitive("bernoulli")
def_nondifferentiable(uniform_p, normal_p, randint_p, permutation_p, bernoulli_p)


def draw_seed() -> int:
    """The next seed of the ``"ops"`` stream, for one random primitive application."""
    return int(generator("ops").integers(0, 2 ** 63 - 1))


def _shape(op: str, shape) -> tuple[int, ...]:
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if not all(isinstance(n, (int, np.integer)) and n >= 0 for n in shape):
        raise ShapeError("bad shape", op=op, expected="ints >= 0", got=repr(shape))
    return tuple(int(n) for n in shape)


def _float_dtype(op: str, dtype) -> np.dtype:
    dtype = dtypes.dtype(dtype)
    if not dtypes.is_floating(dtype):
        raise DTypeError("needs a float dtype", op=op, expected="a float dtype", got=str(dtype))
    return dtype


def _sample_aval(**params):
    return Aval(params["shape"], params["dtype"])


for _p in (uniform_p, normal_p, randint_p):
    _p.def_abstract_eval(_sample_aval)


def _scalar(x):
    return not is_array(x) or (not np.shape(x) and isinstance(x, (np.ndarray, np.generic)))


def uniform(shape, minval=0.0, maxval=1.0, dtype=dtypes.float32):
    """Samples from ``[minval, maxval)``; bounds that are tensors broadcast (and carry
    gradients through the affine map)."""
    dtype = _float_dtype("uniform", dtype)
    shape = _shape("uniform", shape)
    if _scalar(minval) and _scalar(maxval):
        return bind(uniform_p, shape=shape, dtype=dtype, seed=draw_seed(),
                    low=float(minval), high=float(maxval))
    from .elementwise import add, mul, sub
    unit = bind(uniform_p, shape=shape, dtype=dtype, seed=draw_seed(), low=0.0, high=1.0)
    return add(mul(unit, sub(maxval, minval)), minval)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32):
    """Samples from the normal distribution; ``mean``/``stddev`` may be broadcast tensors."""
    dtype = _float_dtype("normal", dtype)
    shape = _shape("normal", shape)
    if _scalar(mean) and _scalar(stddev):
        return bind(normal_p, shape=shape, dtype=dtype, seed=draw_seed(),
                    mean=float(mean), stddev=float(stddev))
    from .elementwise import add, mul
    unit = bind(normal_p, shape=shape, dtype=dtype, seed=draw_seed(), mean=0.0, stddev=1.0)
    return add(mul(unit, stddev), mean)


@bernoulli_p.def_abstract_eval
def _bernoulli_aval(probs, *, shape, dtype, seed):
    try:
        fits = np.broadcast_shapes(tuple(probs.shape), shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise ShapeError("probabilities do not broadcast to the shape", op="bernoulli",
                         expected=f"a shape broadcasting to {shape}", got=tuple(probs.shape))
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
    _bernoulli_aval(probs, shape=shape, dtype=dtype, seed=0)
    return bind(bernoulli_p, probs, shape=shape, dtype=dtype, seed=draw_seed())


def randint(low, high, shape, dtype=dtypes.int64):
    """Integers drawn uniformly from ``[low, high)``.

        >>> randint(3, 4, (2,))
        array([3, 3])
    """
    dtype = dtypes.dtype(dtype)
    if not dtypes.is_integer(dtype):
        raise DTypeError("needs an integer dtype", op="randint", expected="an integer dtype",
                         got=str(dtype))
    if not int(low) < int(high):
        raise ShapeError("empty range", op="randint", expected="low < high",
                         got=f"low={low}, high={high}")
    return bind(randint_p, shape=_shape("randint", shape), dtype=dtype, seed=draw_seed(),
                low=int(low), high=int(high))


@permutation_p.def_abstract_eval
def _permutation_aval(*, n, seed):
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
        return bind(permutation_p, n=int(x), seed=draw_seed())
    x = as_operand(x)
    if not x.shape:
        raise ShapeError("cannot permute a 0-d tensor", op="permutation",
                         expected="an int or a tensor of 1 or more dimensions", got="shape ()")
    from .indexing import gather
    return gather(x, bind(permutation_p, n=int(x.shape[0]), seed=draw_seed()), axis=0)
