"""How well member scores separate from non-member scores: ROC, AUC, membership advantage.

A score is higher for "more likely a member". AUC is the probability that a random member
scores above a random non-member (ties count one half; Mann–Whitney); advantage is
``max over thresholds of TPR − FPR`` (Yeom et al.), 0 for a useless attack, 1 for a perfect one.
"""
from __future__ import annotations

import numpy as np

from sporeling.core import ShapeError

__all__ = ["roc_curve", "roc_auc", "membership_advantage"]


def _check(members, nonmembers, op):
    m = np.asarray(members, np.float64).ravel()
    n = np.asarray(nonmembers, np.float64).ravel()
    if m.size == 0 or n.size == 0:
        raise ShapeError("need scores for both members and non-members", op=op,
                         expected="two non-empty score arrays", got=f"{m.size} and {n.size}")
    if not (np.isfinite(m).all() and np.isfinite(n).all()):
        raise ShapeError("scores must be finite", op=op, expected="finite numbers",
                         got="nan or inf among the scores")
    return m, n


def roc_curve(members, nonmembers):
    """``(fpr, tpr, thresholds)``: predicting "member" for scores ≥ each threshold, from
    the highest threshold down (starting at (0, 0))."""
    m, n = _check(members, nonmembers, "roc_curve")
    thresholds = np.unique(np.concatenate([m, n]))[::-1]
    tpr = np.searchsorted(np.sort(-m), -thresholds, side="right") / m.size
    fpr = np.searchsorted(np.sort(-n), -thresholds, side="right") / n.size
    return (np.concatenate([[0.0], fpr]), np.concatenate([[0.0], tpr]),
            np.concatenate([[np.inf], thresholds]))


def roc_auc(members, nonmembers) -> float:
    """Area under the ROC curve (Mann–Whitney U / (|members| · |non-members|))."""
    m, n = _check(members, nonmembers, "roc_auc")
    allv = np.concatenate([m, n])
    order = allv.argsort(kind="mergesort")
    ranks = np.empty(allv.size, np.float64)
    sorted_v = allv[order]
    # average ranks over ties
    _, first, counts = np.unique(sorted_v, return_index=True, return_counts=True)
    avg = first + (counts + 1) / 2.0
    ranks[order] = np.repeat(avg, counts)
    u = ranks[:m.size].sum() - m.size * (m.size + 1) / 2.0
    return float(u / (m.size * n.size))


def membership_advantage(members, nonmembers) -> float:
    """``max(TPR − FPR)`` over all thresholds."""
    fpr, tpr, _ = roc_curve(members, nonmembers)
    return float(np.max(tpr - fpr))
