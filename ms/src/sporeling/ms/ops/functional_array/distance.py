"""Distance, sampling and debugging functions of MindSpore r2.3 ``mindspore.ops``."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.ms.common import eager_only

from ._common import SporelingError, float_like, ops, tensor, value_of

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


@eager_only("ops.choice_with_mask")
def choice_with_mask(input_x, count=256, seed=0, seed2=0):
    """``count`` random positions of True elements of a bool tensor, as (count, rank)
    int32, and a mask telling which rows are real (the rest are zero padding)."""
    v = value_of(input_x)
    if v.dtype != np.bool_:
        raise SporelingError("choice_with_mask takes a bool tensor", op="ops.choice_with_mask",
                             expected="bool", got=str(v.dtype))
    rng = np.random.default_rng(None if seed == seed2 == 0 else (seed, seed2))
    where = np.argwhere(v)
    pick = where[rng.permutation(len(where))[:count]]
    out = np.zeros((count, v.ndim), np.int32)
    out[:len(pick)] = pick
    mask = np.zeros(count, bool)
    mask[:len(pick)] = True
    return tensor(out), tensor(mask)


def _sampler_checks(op, true_classes, num_true, num_sampled, unique, range_max):
    t = value_of(true_classes).astype(np.int64)
    if t.ndim != 2 or t.shape[1] != num_true:
        raise SporelingError("true_classes must be (batch, num_true)", op=op,
                             expected=f"(batch, {num_true})", got=f"shape {list(t.shape)}")
    if unique and num_sampled > range_max:
        raise SporelingError("cannot draw that many unique classes", op=op,
                             expected=f"num_sampled <= range_max ({range_max})",
                             got=num_sampled)
    return t


def _draw(rng, probs, num_sampled, unique):
    if unique:
        return rng.choice(len(probs), num_sampled, replace=False, p=probs)
    return rng.choice(len(probs), num_sampled, replace=True, p=probs)


def _expected(probs, classes, num_sampled, unique, tries):
    p = probs[classes]
    if unique:  # the probability a class shows up in ``tries`` draws
        return -np.expm1(tries * np.log1p(-p))
    return p * num_sampled


@eager_only("ops.uniform_candidate_sampler")
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=0,
                              remove_accidental_hits=False):
    """``num_sampled`` classes drawn uniformly from [0, range_max), with the expected counts
    of the true and of the sampled classes (TensorFlow's candidate sampler)."""
    t = _sampler_checks("ops.uniform_candidate_sampler", true_classes, num_true, num_sampled,
                        unique, range_max)
    rng = np.random.default_rng(seed or None)
    probs = np.full(range_max, 1.0 / range_max)
    sampled = _draw(rng, probs, num_sampled, unique)
    true_exp = _expected(probs, t, num_sampled, unique, num_sampled)
    samp_exp = _expected(probs, sampled, num_sampled, unique, num_sampled)
    return (tensor(sampled.astype(np.int64)), tensor(true_exp.astype(np.float32)),
            tensor(samp_exp.astype(np.float32)))


@eager_only("ops.log_uniform_candidate_sampler")
def log_uniform_candidate_sampler(true_classes, num_true=1, num_sampled=5, unique=True,
                                  range_max=5, seed=0):
    """Classes drawn with P(k) = log((k + 2) / (k + 1)) / log(range_max + 1) (Zipfian), with
    the expected counts of the true and sampled classes."""
    t = _sampler_checks("ops.log_uniform_candidate_sampler", true_classes, num_true,
                        num_sampled, unique, range_max)
    rng = np.random.default_rng(seed or None)
    k = np.arange(range_max)
    probs = np.log((k + 2.0) / (k + 1.0)) / np.log(range_max + 1.0)
    sampled = _draw(rng, probs, num_sampled, unique)
    true_exp = _expected(probs, t, num_sampled, unique, num_sampled)
    samp_exp = _expected(probs, sampled, num_sampled, unique, num_sampled)
    return (tensor(sampled.astype(np.int64)), tensor(true_exp.astype(np.float32)),
            tensor(samp_exp.astype(np.float32)))


def print_(*input_x):
    """Print tensors and strings (eagerly; under Graph mode the value is not known at trace
    time, so a traced tensor prints its shape and dtype once, at compile time). Returns
    None, as MindSpore's ``ops.print_``."""
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
