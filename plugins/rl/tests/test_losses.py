"""The losses against their NumPy formulas, values and gradients."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.rl import categorical_entropy, categorical_log_prob, ppo_clipped_loss, td_loss


def _np_clipped(logp, old, adv, clip):
    ratio = np.exp(logp - old)
    return -np.mean(np.minimum(ratio * adv, np.clip(ratio, 1 - clip, 1 + clip) * adv))


def test_ppo_clipped_loss_matches_the_numpy_formula():
    rng = np.random.default_rng(0)
    old = rng.normal(-1.0, 0.3, 64)
    logp = old + rng.normal(0, 0.4, 64)       # ratios well inside and outside [0.8, 1.2]
    adv = rng.normal(size=64)
    ratio = np.exp(logp - old)
    assert ((ratio < 0.8) | (ratio > 1.2)).sum() > 10 and ((ratio > 0.8) & (ratio < 1.2)).sum() > 10
    for clip in (0.1, 0.2, 0.3):
        got = ppo_clipped_loss(sx.Tensor(logp), sx.Tensor(old), sx.Tensor(adv), clip)
        np.testing.assert_allclose(float(got.asnumpy()), _np_clipped(logp, old, adv, clip),
                                   rtol=1e-10)


def test_ppo_clipped_loss_gradient_vanishes_where_clipping_binds():
    rng = np.random.default_rng(1)
    old = rng.normal(-1.0, 0.3, 32)
    logp = old + rng.normal(0, 0.4, 32)
    adv = rng.normal(size=32)
    grad = sx.grad(lambda lp: ppo_clipped_loss(lp, sx.Tensor(old), sx.Tensor(adv), 0.2))(
        sx.Tensor(logp)).asnumpy()
    ratio = np.exp(logp - old)
    # d/dlogp of -mean(min(rA, clip(r)A)): -rA/B where the unclipped term is the minimum
    active = ratio * adv <= np.clip(ratio, 0.8, 1.2) * adv
    active &= ~(((ratio > 1.2) & (adv > 0)) | ((ratio < 0.8) & (adv < 0)))
    expected = np.where(active, -ratio * adv / len(adv), 0.0)
    np.testing.assert_allclose(grad, expected, rtol=1e-9, atol=1e-12)


def test_categorical_log_prob_and_entropy_match_numpy():
    rng = np.random.default_rng(2)
    logits, actions = rng.normal(size=(16, 3)), rng.integers(0, 3, 16)
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    got = categorical_log_prob(sx.Tensor(logits), sx.Tensor(actions)).asnumpy()
    np.testing.assert_allclose(got, logp[np.arange(16), actions], rtol=1e-10)
    entropy = float(categorical_entropy(sx.Tensor(logits)).asnumpy())
    np.testing.assert_allclose(entropy, -(np.exp(logp) * logp).sum(1).mean(), rtol=1e-10)


def test_td_loss_is_huber_on_the_chosen_q_values():
    q = np.array([[1.0, 5.0], [0.0, -2.0], [3.0, 3.0]])
    actions, targets = np.array([1, 0, 0]), np.array([4.5, 2.0, 3.0])
    # chosen 5, 0, 3 -> differences 0.5 (0.125), -2 (1.5), 0 (0)
    got = float(td_loss(sx.Tensor(q), sx.Tensor(actions), sx.Tensor(targets)).asnumpy())
    assert got == pytest.approx((0.125 + 1.5 + 0.0) / 3)


def test_ppo_clipped_loss_matches_torch_when_installed():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    old, adv = rng.normal(-1, 0.3, 40), rng.normal(size=40)
    logp = old + rng.normal(0, 0.4, 40)
    lp = torch.tensor(logp, requires_grad=True)
    ratio = torch.exp(lp - torch.tensor(old))
    a = torch.tensor(adv)
    ref = -torch.min(ratio * a, torch.clamp(ratio, 0.8, 1.2) * a).mean()
    ref.backward()
    value, g = sx.value_and_grad(lambda x: ppo_clipped_loss(x, sx.Tensor(old), sx.Tensor(adv)))(
        sx.Tensor(logp))
    np.testing.assert_allclose(float(value.asnumpy()), ref.item(), rtol=1e-10)
    np.testing.assert_allclose(g.asnumpy(), lp.grad.numpy(), rtol=1e-9, atol=1e-12)
