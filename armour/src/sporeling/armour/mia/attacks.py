"""Membership-inference attacks on a trained classifier (a Cell giving logits).

* :func:`loss_threshold_attack` (Yeom et al. 2018): score = −loss; members were fitted, so
  their loss is lower.
* :func:`shadow_model_attack` (Shokri et al. 2017): train shadow models like the target on
  data of the same distribution, whose members the attacker knows; learn from their outputs
  (loss, top probability, entropy) a classifier "member or not"; apply it to the target.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

import sporeling.expression as sx
from sporeling.core import ShapeError, SporelingError

from .metrics import membership_advantage, roc_auc

__all__ = ["AttackResult", "example_losses", "output_features", "loss_threshold_attack",
           "shadow_model_attack"]


@dataclass(frozen=True)
class AttackResult:
    """Attack scores (higher = "member") for the true members and non-members, with the
    AUC and membership advantage they give."""
    auc: float
    advantage: float
    member_scores: np.ndarray
    nonmember_scores: np.ndarray


def _probs(net, x, batch: int = 512) -> np.ndarray:
    was = net.training
    net.set_train(False)
    try:
        outs = [net(sx.Tensor(np.asarray(x[i:i + batch]))).asnumpy()
                for i in range(0, len(x), batch)]
    finally:
        net.set_train(was)
    logits = np.concatenate(outs).astype(np.float64)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def _labels(y, n, op):
    y = np.asarray(y).astype(np.int64).ravel()
    if y.size != n:
        raise ShapeError("inputs and labels differ in length", op=op,
                         expected=f"{n} labels", got=y.size)
    return y


def example_losses(net, x, y) -> np.ndarray:
    """Each example's cross-entropy under ``net`` (eval mode), float64 ``(N,)``."""
    p = _probs(net, x)
    y = _labels(y, len(p), "example_losses")
    return -np.log(np.clip(p[np.arange(len(y)), y], 1e-30, None))


def output_features(net, x, y) -> np.ndarray:
    """``(N, 3)`` features the shadow attack learns from: loss, top probability, entropy."""
    p = _probs(net, x)
    y = _labels(y, len(p), "output_features")
    loss = -np.log(np.clip(p[np.arange(len(y)), y], 1e-30, None))
    entropy = -(p * np.log(np.clip(p, 1e-30, None))).sum(axis=1)
    return np.stack([loss, p.max(axis=1), entropy], axis=1)


def _result(member_scores, nonmember_scores) -> AttackResult:
    return AttackResult(roc_auc(member_scores, nonmember_scores),
                        membership_advantage(member_scores, nonmember_scores),
                        np.asarray(member_scores), np.asarray(nonmember_scores))


def loss_threshold_attack(net, members, nonmembers) -> AttackResult:
    """``members``/``nonmembers`` are ``(x, y)`` pairs; score = −loss."""
    return _result(-example_losses(net, *members), -example_losses(net, *nonmembers))


def shadow_model_attack(train_fn: Callable, net, members, nonmembers, shadow_data,
                        num_shadows: int = 2, seed: int = 0) -> AttackResult:
    """``train_fn(x, y) -> Cell`` trains a model the way the target was trained;
    ``shadow_data`` ``(x, y)`` is disjoint from the target's data. Each shadow trains on a
    random half of it (its members), the other half being its non-members; a logistic
    regression on :func:`output_features` learns membership and scores the target's
    ``members`` and ``nonmembers``."""
    from sklearn.linear_model import LogisticRegression

    if int(num_shadows) != num_shadows or num_shadows < 1:
        raise SporelingError("num_shadows must be a whole number >= 1",
                             op="shadow_model_attack", expected="an int >= 1", got=num_shadows)
    xs, ys = np.asarray(shadow_data[0]), np.asarray(shadow_data[1])
    if len(xs) < 4:
        raise ShapeError("too little shadow data", op="shadow_model_attack",
                         expected="at least 4 examples", got=len(xs))
    rng = np.random.default_rng(seed)
    feats, labels = [], []
    for _ in range(int(num_shadows)):
        perm = rng.permutation(len(xs))
        inside, outside = perm[:len(xs) // 2], perm[len(xs) // 2:]
        shadow = train_fn(xs[inside], ys[inside])
        feats += [output_features(shadow, xs[inside], ys[inside]),
                  output_features(shadow, xs[outside], ys[outside])]
        labels += [np.ones(len(inside)), np.zeros(len(outside))]
    attack = LogisticRegression(max_iter=1000).fit(np.concatenate(feats),
                                                   np.concatenate(labels))
    score = lambda data: attack.predict_proba(output_features(net, *data))[:, 1]  # noqa: E731
    return _result(score(members), score(nonmembers))
