"""Magnitude pruning masks: which weights (or whole output channels) to zero.

* :func:`magnitude_mask` -- unstructured: the ``sparsity`` fraction of smallest-magnitude
  entries of one array.
* :func:`global_magnitude_masks` -- unstructured over several arrays with one threshold
  (layers with many small weights lose more of them).
* :func:`channel_mask` -- structured: whole output channels (rows along ``axis``) with the
  smallest L2 norms, so a compiler can drop them.

Ties are broken by position, so exactly ``round(sparsity * n)`` entries go.

    >>> magnitude_mask(np.float32([0.1, -3.0, 0.2, 2.0]), 0.5).tolist()
    [False, True, False, True]
    >>> channel_mask(np.float32([[1, 1], [0, 0.1], [2, 0]]), 1 / 3).tolist()
    [[True, True], [False, False], [True, True]]
"""
from __future__ import annotations

import numpy as np

from sporeling.core import SporelingError

__all__ = ["magnitude_mask", "global_magnitude_masks", "channel_mask", "sparsity_of"]


def _check_sparsity(sparsity: float) -> float:
    if not 0.0 <= sparsity < 1.0:
        raise SporelingError("sparsity is the fraction of weights to zero", op="prune",
                             expected="a number in [0, 1)", got=sparsity)
    return float(sparsity)


def _keep_largest(scores: np.ndarray, sparsity: float) -> np.ndarray:
    """Boolean mask keeping all but the ``round(sparsity * n)`` smallest ``scores``."""
    n_drop = int(round(_check_sparsity(sparsity) * scores.size))
    keep = np.ones(scores.size, bool)
    if n_drop:
        keep[np.argsort(scores.ravel(), kind="stable")[:n_drop]] = False
    return keep.reshape(scores.shape)


def magnitude_mask(w, sparsity: float) -> np.ndarray:
    """Keep-mask of ``w`` dropping its ``sparsity`` fraction of smallest ``|w|``."""
    return _keep_largest(np.abs(np.asarray(w)), sparsity)


def global_magnitude_masks(weights: dict, sparsity: float) -> dict:
    """Keep-masks of every array in ``weights`` from one magnitude threshold over all."""
    names = list(weights)
    flat = np.concatenate([np.abs(np.asarray(weights[k])).ravel() for k in names]) \
        if names else np.empty(0)
    keep = _keep_largest(flat, sparsity)
    masks, start = {}, 0
    for k in names:
        size = np.asarray(weights[k]).size
        masks[k] = keep[start:start + size].reshape(np.shape(weights[k]))
        start += size
    return masks


def channel_mask(w, sparsity: float, axis: int = 0) -> np.ndarray:
    """Keep-mask (shaped like ``w``) dropping the ``sparsity`` fraction of channels along
    ``axis`` with the smallest L2 norm."""
    w = np.asarray(w)
    if w.ndim < 2:
        raise SporelingError("channel pruning needs a weight of rank 2 or more",
                             op="prune", expected="(out_channels, ...)", got=w.shape)
    axis = axis % w.ndim
    others = tuple(i for i in range(w.ndim) if i != axis)
    norms = np.sqrt(np.sum(np.square(w, dtype=np.float64), axis=others))
    keep = _keep_largest(norms, sparsity)
    shape = [1] * w.ndim
    shape[axis] = -1
    return np.broadcast_to(keep.reshape(shape), w.shape).copy()


def sparsity_of(arrays) -> float:
    """The fraction of exact zeros over ``arrays`` (one array or an iterable of them)."""
    arrays = [arrays] if isinstance(arrays, np.ndarray) else [np.asarray(a) for a in arrays]
    total = sum(a.size for a in arrays)
    return sum(int(np.count_nonzero(a == 0)) for a in arrays) / total if total else 0.0
