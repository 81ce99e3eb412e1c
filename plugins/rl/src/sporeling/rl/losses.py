"""The agents' losses, written with Sporeling's ops so ``value_and_grad`` and ``jit`` see them."""
from __future__ import annotations

from sporeling.expression import ops

__all__ = ["categorical_log_prob", "categorical_entropy", "ppo_clipped_loss", "td_loss"]


def categorical_log_prob(logits, actions):
    """log pi(a|s) of the integer ``actions`` (B,) under a softmax over ``logits`` (B, A)."""
    return ops.take_along_axis(ops.log_softmax(logits, -1), ops.expand_dims(actions, 1), 1)[:, 0]


def categorical_entropy(logits):
    """The mean entropy of the softmax policies in ``logits`` (B, A)."""
    logp = ops.log_softmax(logits, -1)
    return -ops.mean(ops.sum(ops.exp(logp) * logp, -1))


def ppo_clipped_loss(log_probs, old_log_probs, advantages, clip: float = 0.2):
    """PPO's clipped surrogate, to minimise: with ``r = exp(log_probs - old_log_probs)``,
    ``-mean(min(r * A, clip(r, 1 - clip, 1 + clip) * A))``."""
    ratio = ops.exp(log_probs - old_log_probs)
    clipped = ops.clip(ratio, 1.0 - clip, 1.0 + clip)
    return -ops.mean(ops.minimum(ratio * advantages, clipped * advantages))


def td_loss(q_values, actions, targets):
    """DQN's Huber (smooth L1) loss between Q(s, a) and the targets (B,)."""
    chosen = ops.take_along_axis(q_values, ops.expand_dims(actions, 1), 1)[:, 0]
    return ops.smooth_l1_loss(chosen, targets)
