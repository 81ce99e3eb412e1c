"""KS and MMD drift tests: false-alarm rate <= alpha over many seeds, and real shifts found."""
import numpy as np
import pytest

from sporeling.armour._digits import shared_digits
from sporeling.armour.drift import DriftError, KSDrift, MMDDrift

ALPHA = 0.05


def test_ks_false_alarm_rate_stays_below_alpha():
    alarms = 0
    for seed in range(100):
        rng = np.random.default_rng(seed)
        alarms += KSDrift(rng.normal(size=(30, 2)), ALPHA).test(rng.normal(size=(30, 2))).drift
    assert alarms / 100 <= ALPHA


def test_mmd_false_alarm_rate_stays_below_alpha():
    alarms = 0
    for seed in range(200):
        rng = np.random.default_rng(seed)
        det = MMDDrift(rng.normal(size=(25, 3)), ALPHA, n_permutations=99, seed=seed)
        alarms += det.test(rng.normal(size=(25, 3))).drift
    assert alarms / 200 <= ALPHA


def test_ks_matches_scipy_on_one_feature():
    from scipy.stats import ks_2samp

    rng = np.random.default_rng(0)
    a, b = rng.normal(size=50), rng.normal(0.3, 1, size=60)
    res = KSDrift(a).test(b)
    ref = ks_2samp(a, b)
    assert res.p_value == pytest.approx(ref.pvalue) and res.statistic == pytest.approx(ref.statistic)


def test_mmd_statistic_by_hand():
    # one point each at distance 1, bandwidth 1: MMD² = k(x,x) + k(y,y) - 2k(x,y) = 2 - 2e^{-1/2}
    x, y = np.array([[0.0], [0.0]]), np.array([[1.0], [1.0]])
    res = MMDDrift(x, bandwidth=1.0, n_permutations=5).test(y)
    assert res.statistic == pytest.approx(2 - 2 * np.exp(-0.5))


def test_both_detect_a_real_shift_on_digits_and_not_a_fresh_sample():
    d = shared_digits()
    ref, same = d.x_train[:200], d.x_test[:100]
    shifted = np.clip(same + 0.15, 0, 1)                    # a brighter sensor
    for det in (KSDrift(ref), MMDDrift(ref, n_permutations=99)):
        res = det.test(shifted)
        assert res.drift and res.p_value <= 0.01        # MMD: the smallest p of 99 permutations
        assert not det.test(same).drift


def test_bad_input_is_named():
    with pytest.raises(DriftError, match="0 < alpha < 1"):
        KSDrift(np.zeros((5, 2)), alpha=1.5)
    with pytest.raises(DriftError, match=r"expected \(N >= 2, 2\)"):
        KSDrift(np.zeros((5, 2))).test(np.zeros((5, 3)))
    with pytest.raises(DriftError, match="bandwidth > 0"):
        MMDDrift(np.zeros((5, 2)), bandwidth=-1)
    with pytest.raises(DriftError, match="finite"):
        MMDDrift(np.full((5, 2), np.nan))
