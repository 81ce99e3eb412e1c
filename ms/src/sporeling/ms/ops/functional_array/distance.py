"""Distance, sampling and debugging functions of MindSpore r2.3 ``mindspore.ops``, from sx ops
(Graph mode included; the random draws follow ``set_seed`` and sx's "ops" stream)."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from ._common import SporelingError, float_like, ops, tensor

__all__ = ["cdist", "dist", "pdist", "choice_with_mask", "log_uniform_candidate_sampler",
           "uniform_candidate_sampler", "print_"]


def _pnorm(diff, p, axis):
    p = float(p)
    if p == 0:
        return ops.sum(ops.cast(ops.not_equal(diff, 0), diff.dtype), axis=axis)
    if np.isinf(p):
        return ops.max(ops.abs(diff), axis=axis)
    if p == 2:  # the gradient at 0 is kept finite (0) instead of 0/0
        sq = ops.sum(ops.square(diff), axis=axis)
        safe = ops.where(sq > 0, sq, ops.broadcast_to(tensor(np.asarray(1, sq.dtype)),
                                                      tuple(sq.shape)))
        return ops.where(sq > 0, ops.sqrt(safe), sq)
    return ops.pow(ops.sum(ops.pow(ops.abs(diff), p), axis=axis), 1.0 / p)


def cdist(x1, x2, p=2.0):
    """p-norm distances between the rows of ``x1`` (B, P, M) and ``x2`` (B, R, M): (B, P, R)
    (2-d inputs give (P, R))."""
    a, b = float_like(x1), float_like(x2)
    if a.ndim != b.ndim or a.ndim < 2 or a.shape[-1] != b.shape[-1]:
        raise SporelingError("x1 and x2 must be (..., P, M) and (..., R, M)", op="ops.cdist",
                             expected="the same rank >= 2 and feature size",
                             got=f"x1 {list(a.shape)}, x2 {list(b.shape)}")
    if p < 0:
        raise SporelingError("p must be >= 0", op="ops.cdist", expected="p >= 0", got=p)
    diff = ops.expand_dims(a, -2) - ops.expand_dims(b, -3)
    return _pnorm(diff, p, -1)


def dist(input, other, p=2):  # noqa: A002
    """The p-norm of ``input - other`` (broadcast), a scalar."""
    diff = float_like(input) - float_like(other)
    return _pnorm(ops.reshape(diff, (-1,)), p, 0)


def pdist(input, p=2.0):  # noqa: A002
    """p-norm distances between every pair of rows i < j of (..., N, M): (..., N(N-1)/2)."""
    x = float_like(input)
    n = x.shape[-2]
    i, j = np.triu_indices(n, 1)
    a = ops.index_select(x, tensor(i.astype(np.int64)), axis=x.ndim - 2)
    b = ops.index_select(x, tensor(j.astype(np.int64)), axis=x.ndim - 2)
    return _pnorm(a - b, p, -1)


def _random_keys(shape):
    """Uniform (0, 1) keys drawn from sx's "ops" stream (``set_seed`` makes them repeat)."""
    return ops.uniform(tuple(shape), 1e-7, 1.0, dtype=np.float64)


def choice_with_mask(input_x, count=256, seed=0, seed2=0):
    """``count`` random positions of the True elements of a bool tensor, as (count, rank)
    int32, and a mask telling which rows are real (the rest are zero padding). Positions are
    drawn without replacement (random keys, top ``count``); ``seed``/``seed2`` are accepted,
    the draw follows ``set_seed``."""
    x = tensor(input_x)
    if x.dtype != np.bool_:
        raise SporelingError("choice_with_mask takes a bool tensor", op="ops.choice_with_mask",
                             expected="bool", got=str(x.dtype))
    n = int(np.prod(x.shape))
    keys = ops.where(ops.reshape(x, (-1,)), _random_keys((n,)),
                     tensor(np.full(n, -1.0)))
    take = min(int(count), n)
    chosen_keys, flat = ops.topk(keys, take)
    strides = np.cumprod((1,) + tuple(x.shape[::-1]))[:-1][::-1].astype(np.int64)
    coords = ops.stack([ops.mod(ops.floordiv(flat, int(st)), int(dim))
                        for st, dim in zip(strides, x.shape)], axis=1)
    mask = chosen_keys > 0
    coords = ops.where(ops.expand_dims(mask, 1), coords, ops.mul(coords, 0))
    if take < count:  # fewer elements than asked: padding rows
        coords = ops.concat([coords, tensor(np.zeros((count - take, x.ndim), np.int64))], 0)
        mask = ops.concat([mask, tensor(np.zeros(count - take, bool))], 0)
    return ops.cast(coords, np.int32), mask


def _sampler_checks(op, true_classes, num_true, num_sampled, unique, range_max):
    t = ops.cast(tensor(true_classes), np.int64)
    if t.ndim != 2 or t.shape[1] != num_true:
        raise SporelingError("true_classes must be (batch, num_true)", op=op,
                             expected=f"(batch, {num_true})", got=f"shape {list(t.shape)}")
    if unique and num_sampled > range_max:
        raise SporelingError("cannot draw that many unique classes", op=op,
                             expected=f"num_sampled <= range_max ({range_max})",
                             got=num_sampled)
    return t


def _expected(p, num_sampled, unique):
    """Expected count of a class of probability ``p`` among the draws (for unique draws,
    the chance it shows up in ``num_sampled`` tries, TensorFlow's formula)."""
    if unique:
        return ops.neg(ops.expm1(ops.log1p(ops.neg(p)) * float(num_sampled)))
    return p * float(num_sampled)


def _log_uniform_p(k, range_max):
    k = ops.cast(k, np.float64)
    return ops.log((k + 2.0) / (k + 1.0)) / float(np.log(range_max + 1.0))


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=0,
                              remove_accidental_hits=False):
    """``num_sampled`` classes drawn uniformly from [0, range_max) (without repeats when
    ``unique``), with the expected counts of the true and of the sampled classes (TensorFlow's
    candidate sampler). The draw follows ``set_seed``; ``seed`` is accepted."""
    t = _sampler_checks("ops.uniform_candidate_sampler", true_classes, num_true, num_sampled,
                        unique, range_max)
    if unique:
        sampled = ops.topk(_random_keys((range_max,)), int(num_sampled))[1]
    else:
        sampled = ops.randint(0, range_max, (int(num_sampled),))
    p = 1.0 / range_max
    true_exp = _expected(ops.cast(t, np.float32) * 0.0 + p, num_sampled, unique)
    samp_exp = _expected(ops.cast(sampled, np.float32) * 0.0 + p, num_sampled, unique)
    return ops.cast(sampled, np.int64), true_exp, samp_exp


def log_uniform_candidate_sampler(true_classes, num_true=1, num_sampled=5, unique=True,
                                  range_max=5, seed=0):
    """Classes drawn with P(k) = log((k + 2) / (k + 1)) / log(range_max + 1) (Zipfian; without
    repeats when ``unique``, by Gumbel top-k), with the expected counts of the true and sampled
    classes. The draw follows ``set_seed``; ``seed`` is accepted."""
    t = _sampler_checks("ops.log_uniform_candidate_sampler", true_classes, num_true,
                        num_sampled, unique, range_max)
    classes = tensor(np.arange(range_max, dtype=np.int64))
    if unique:  # Gumbel top-k: sampling without replacement in proportion to P
        gumbel = ops.neg(ops.log(ops.neg(ops.log(_random_keys((range_max,))))))
        sampled = ops.topk(ops.log(_log_uniform_p(classes, range_max)) + gumbel,
                           int(num_sampled))[1]
    else:  # inverse CDF: CDF(k) = log(k + 2) / log(range_max + 1)
        u = _random_keys((int(num_sampled),))
        sampled = ops.clip(ops.floor(ops.exp(u * float(np.log(range_max + 1.0)))) - 1.0, 0.0,
                           float(range_max - 1))
    sampled = ops.cast(sampled, np.int64)
    true_exp = ops.cast(_expected(_log_uniform_p(t, range_max), num_sampled, unique),
                        np.float32)
    samp_exp = ops.cast(_expected(_log_uniform_p(sampled, range_max), num_sampled, unique),
                        np.float32)
    return sampled, true_exp, samp_exp


def print_(*input_x):
    """Print tensors and strings, one per line. Under ``ms.jit`` / Graph mode a traced
    tensor prints its values each time the compiled function runs (the compiler's
    ``print`` equation; 2.10's Graph-mode format). Returns None, as MindSpore's
    ``ops.print_``."""
    if any(isinstance(item, sx.Tensor) and getattr(item._data, "_interpreter", None)
           is not None for item in input_x):
        from sporeling.compiler.ops.debug import debug_print
        debug_print(*input_x, sep="\n")
        return None
    parts = []
    for item in input_x:
        if isinstance(item, sx.Tensor):
            try:
                parts.append(str(item.asnumpy()))
            except Exception:  # a tracer: no value yet
                parts.append(f"Tensor(shape={list(item.shape)}, dtype={item.dtype}) (traced)")
        else:
            parts.append(str(item))
    print("\n".join(parts))
