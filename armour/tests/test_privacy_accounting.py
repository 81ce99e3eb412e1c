"""DP accounting through dp-accounting: the issue's reference figure, PLD, calibration, errors."""
import math

import pytest

from sporeling.armour.privacy import (PrivacyError, UnsupportedSamplingError,
                                      calibrate_noise_multiplier, compute_epsilon)
from sporeling.core import SporelingError

Q, SIGMA, STEPS, DELTA = 256 / 60000, 1.1, 14062, 1e-5


def test_rdp_epsilon_matches_the_reference_figure():
    assert round(compute_epsilon(SIGMA, Q, STEPS, DELTA, "rdp"), 3) == 2.597


def test_pld_is_tighter_than_rdp_on_the_same_mechanism():
    pld = compute_epsilon(SIGMA, Q, 1000, DELTA, "pld")  # PLD at 14,062 steps takes ~6 s
    assert 0.5 < pld < compute_epsilon(SIGMA, Q, 1000, DELTA, "rdp")


def test_epsilon_grows_with_steps_and_shrinks_with_noise():
    assert compute_epsilon(SIGMA, Q, 1000, DELTA) < compute_epsilon(SIGMA, Q, 2000, DELTA)
    assert compute_epsilon(2.0, Q, 1000, DELTA) < compute_epsilon(1.0, Q, 1000, DELTA)
    assert compute_epsilon(SIGMA, Q, 0, DELTA) == 0.0
    assert math.isinf(compute_epsilon(0.0, Q, 10, DELTA))


def test_calibration_hits_the_target_epsilon():
    sigma = calibrate_noise_multiplier(2.597, Q, STEPS, DELTA)
    assert sigma == pytest.approx(SIGMA, abs=5e-3)
    assert 2.55 < compute_epsilon(sigma, Q, STEPS, DELTA) <= 2.597


def test_negative_noise_multiplier_is_a_named_error():
    with pytest.raises(PrivacyError, match="noise_multiplier.*>= 0.*-1"):
        compute_epsilon(-1.0, Q, STEPS, DELTA)
    assert issubclass(PrivacyError, SporelingError) and issubclass(PrivacyError, ValueError)


@pytest.mark.parametrize("sampling", ["shuffle", "fixed_size", None])
def test_unsupported_sampling_scheme_is_a_named_error(sampling):
    with pytest.raises(UnsupportedSamplingError, match="poisson"):
        compute_epsilon(SIGMA, Q, STEPS, DELTA, sampling=sampling)
    with pytest.raises(UnsupportedSamplingError):
        calibrate_noise_multiplier(3.0, Q, STEPS, DELTA, "pld", sampling=sampling)


@pytest.mark.parametrize("kwargs, needle", [
    (dict(sample_rate=0.0), "sample_rate"), (dict(sample_rate=1.5), "sample_rate"),
    (dict(delta=0.0), "delta"), (dict(delta=1.0), "delta"), (dict(steps=-3), "steps"),
    (dict(steps=2.5), "steps"), (dict(accountant="gdp"), "rdp or pld"),
])
def test_out_of_range_settings_say_what_was_expected(kwargs, needle):
    args = dict(noise_multiplier=SIGMA, sample_rate=Q, steps=100, delta=DELTA) | kwargs
    with pytest.raises(PrivacyError, match=needle):
        compute_epsilon(**args)


def test_calibration_needs_a_positive_target():
    with pytest.raises(PrivacyError, match="target_epsilon"):
        calibrate_noise_multiplier(0.0, Q, STEPS, DELTA)
