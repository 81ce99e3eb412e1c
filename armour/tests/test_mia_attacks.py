"""Membership inference: the metrics, the loss-threshold and shadow-model attacks, and DP
training lowering the attack's AUC against the same model trained without it."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.armour._digits import make_mlp, shared_digits, train_net
from sporeling.armour.mia import (loss_threshold_attack, membership_advantage, roc_auc,
                                  roc_curve, shadow_model_attack)
from sporeling.armour.privacy import DPOptimizer, PoissonSampler, compute_epsilon, train_private
from sporeling.core import ShapeError, SporelingError

LOSS = sx.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def test_auc_and_advantage_on_known_scores():
    assert roc_auc([3, 4, 5], [0, 1, 2]) == 1.0
    assert roc_auc([0, 1], [2, 3]) == 0.0
    assert roc_auc([1, 1], [1, 1]) == 0.5          # ties count one half
    assert roc_auc([1, 3], [2, 0]) == 0.75
    assert membership_advantage([3, 4, 5], [0, 1, 2]) == 1.0
    assert membership_advantage([1, 3], [2, 0]) == 0.5
    fpr, tpr, _ = roc_curve([1, 3], [2, 0])
    assert fpr[0] == tpr[0] == 0 and fpr[-1] == tpr[-1] == 1


def test_auc_matches_the_trapezoid_under_the_roc_curve():
    rng = np.random.default_rng(0)
    m, n = rng.normal(0.5, 1, 300).round(1), rng.normal(0, 1, 200).round(1)
    fpr, tpr, _ = roc_curve(m, n)
    assert roc_auc(m, n) == pytest.approx(np.trapezoid(tpr, fpr))


def test_empty_or_nan_scores_are_named_errors():
    with pytest.raises(ShapeError, match="non-empty"):
        roc_auc([], [1.0])
    with pytest.raises(ShapeError, match="finite"):
        membership_advantage([np.nan], [1.0])


def _balanced_split():
    """6 members and 20 non-members per class, all from the digits' training split."""
    data = shared_digits()
    idx = np.stack([np.flatnonzero(data.y_train == c)[:26] for c in range(10)])
    m, n = idx[:, :6].ravel(), idx[:, 6:].ravel()
    return data, (data.x_train[m], data.y_train[m]), (data.x_train[n], data.y_train[n])


def _overfit(x, y, seed):
    return train_net(make_mlp(128, seed=seed), x, y, epochs=200, lr=0.01, batch_size=len(x))


@pytest.fixture(scope="module")
def split_and_plain():
    data, members, nonmembers = _balanced_split()
    return data, members, nonmembers, _overfit(*members, seed=1)


def test_dp_training_lowers_the_loss_threshold_auc(split_and_plain):
    data, members, nonmembers, plain = split_and_plain
    plain_attack = loss_threshold_attack(plain, members, nonmembers)
    n, sigma, steps = len(members[0]), 8.0, 100
    dp = make_mlp(128, seed=1)
    opt = DPOptimizer(sx.optim.Adam(dp.trainable_params(), 0.01), dp, LOSS, sigma, 1.0,
                      n / 2, seed=1)
    train_private(opt, PoissonSampler(n, 0.5, steps_per_epoch=steps, seed=1), *members, 1)
    assert compute_epsilon(sigma, 0.5, steps, 1e-5) < 3.0
    dp_attack = loss_threshold_attack(dp, members, nonmembers)
    # the overfit model leaks (~0.72), the ε < 3 one barely (~0.53)
    assert plain_attack.auc > 0.65 and plain_attack.advantage > 0.3
    assert dp_attack.auc < plain_attack.auc - 0.1
    assert dp_attack.auc < 0.6


def test_shadow_model_attack_finds_the_members_of_an_overfit_model(split_and_plain):
    data, members, nonmembers, plain = split_and_plain
    shadow = (data.x_test[:120], data.y_test[:120])
    result = shadow_model_attack(lambda x, y: _overfit(x, y, seed=2), plain, members,
                                 nonmembers, shadow, num_shadows=1)
    assert result.auc > 0.65 and result.advantage > 0.25
    assert result.member_scores.shape == (60,) and result.nonmember_scores.shape == (200,)


def test_shadow_attack_rejects_bad_settings(split_and_plain):
    data, members, nonmembers, plain = split_and_plain
    with pytest.raises(SporelingError, match="num_shadows"):
        shadow_model_attack(None, plain, members, nonmembers, members, num_shadows=0)
    with pytest.raises(ShapeError, match="at least 4"):
        shadow_model_attack(None, plain, members, nonmembers, (members[0][:2], members[1][:2]))
