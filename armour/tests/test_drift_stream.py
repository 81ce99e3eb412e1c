"""Stream detectors: ADWIN never false-alarms more than delta allows, both find a real drift."""
import numpy as np
import pytest

from sporeling.armour.drift import ADWIN, DDM, DriftError

DELTA = 0.05


def test_adwin_whole_stream_false_alarm_rate_stays_below_delta():
    streams_with_alarm = 0
    for seed in range(40):
        errors = np.random.default_rng(seed).random(300) < 0.3
        streams_with_alarm += bool(ADWIN(DELTA).update_many(errors))
    assert streams_with_alarm / 40 <= DELTA


def test_adwin_detects_an_error_rate_jump_soon_and_drops_the_old_window():
    errors = np.concatenate([np.random.default_rng(1).random(300) < 0.1,
                             np.random.default_rng(2).random(300) < 0.6])
    det = ADWIN(DELTA)
    alarms = det.update_many(errors)
    assert alarms and 300 <= alarms[0] < 400
    assert det.width <= 330 and det.mean == pytest.approx(0.6, abs=0.1)   # post-drift part


def test_adwin_threshold_is_the_hoeffding_bound():
    # window of 2 equal halves, t = 2, one split: alarm iff gap > sqrt(ln(2/delta_t))
    # with delta_t = delta / 6; a gap of 1 exceeds it only when delta is large enough.
    for delta, expect in ((0.9, False), (0.99, False)):
        det = ADWIN(delta, min_size=1)
        det.update(0.0)
        assert det.update(1.0) is expect
    # 20 zeros then 20 ones: eps at the middle split is sqrt(0.1/2 ln(2/delta_t)) < 1
    det = ADWIN(DELTA, min_size=20)
    assert det.update_many([0.0] * 20 + [1.0] * 20) == [39]


def test_ddm_detects_an_error_rate_jump():
    errors = np.concatenate([np.random.default_rng(1).random(300) < 0.1,
                             np.random.default_rng(2).random(300) < 0.6])
    det = DDM()
    states = [det.update(e) for e in errors]
    assert any(s == "drift" for s in states[300:340])


def test_bad_input_is_named():
    with pytest.raises(DriftError, match=r"stream values in \[0, 1\]"):
        ADWIN().update(2.0)
    with pytest.raises(DriftError, match="0 < delta < 1"):
        ADWIN(delta=0)
    with pytest.raises(DriftError, match="0 or 1"):
        DDM().update(0.5)
    with pytest.raises(DriftError, match="0 < warning < drift"):
        DDM(warning=3, drift=2)
