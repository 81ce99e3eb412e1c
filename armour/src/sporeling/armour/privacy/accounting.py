"""(ε, δ) of DP-SGD with Google's dp-accounting: RDP (the default, what Opacus and TF Privacy
report) or PLD (tighter). DP-SGD with Poisson sampling of rate ``q`` and noise multiplier ``σ``
is ``steps`` compositions of a Poisson-subsampled Gaussian mechanism.

    >>> round(compute_epsilon(1.1, 256 / 60000, 14062, 1e-5), 3)
    2.597
"""
from __future__ import annotations

import dp_accounting
from dp_accounting.pld import pld_privacy_accountant
from dp_accounting.rdp import rdp_privacy_accountant

from .errors import PrivacyError, UnsupportedSamplingError, check_positive

__all__ = ["compute_epsilon", "calibrate_noise_multiplier", "ACCOUNTANTS", "SAMPLING"]

ACCOUNTANTS = ("rdp", "pld")
SAMPLING = ("poisson",)


def _check(noise_multiplier, sample_rate, steps, delta, accountant, sampling, op):
    check_positive(noise_multiplier, "noise_multiplier", op, allow_zero=True)
    q = check_positive(sample_rate, "sample_rate", op)
    if q > 1:
        raise PrivacyError("sample_rate out of range", op=op, expected="0 < sample_rate <= 1",
                           got=q)
    if int(steps) != steps or steps < 0:
        raise PrivacyError("steps must be a whole number >= 0", op=op,
                           expected="an int >= 0", got=steps)
    d = check_positive(delta, "delta", op)
    if d >= 1:
        raise PrivacyError("delta out of range", op=op, expected="0 < delta < 1", got=d)
    if accountant not in ACCOUNTANTS:
        raise PrivacyError("unknown accountant", op=op, expected=" or ".join(ACCOUNTANTS),
                           got=repr(accountant))
    if sampling not in SAMPLING:
        raise UnsupportedSamplingError(
            "the accountant only accounts for Poisson sampling", op=op,
            expected="sampling='poisson' (use PoissonSampler)", got=repr(sampling),
            hint="shuffled fixed-size batches need a different analysis")


def _accountant(name: str):
    if name == "rdp":
        return rdp_privacy_accountant.RdpAccountant()
    return pld_privacy_accountant.PLDAccountant()


def _event(noise_multiplier: float, sample_rate: float):
    return dp_accounting.PoissonSampledDpEvent(
        sample_rate, dp_accounting.GaussianDpEvent(noise_multiplier))


def compute_epsilon(noise_multiplier: float, sample_rate: float, steps: int, delta: float,
                    accountant: str = "rdp", sampling: str = "poisson") -> float:
    """ε after ``steps`` DP-SGD steps (``inf`` for noise multiplier 0, 0 for no steps)."""
    _check(noise_multiplier, sample_rate, steps, delta, accountant, sampling,
           "compute_epsilon")
    if steps == 0:
        return 0.0
    if noise_multiplier == 0:
        return float("inf")
    acc = _accountant(accountant)
    acc.compose(_event(float(noise_multiplier), float(sample_rate)), int(steps))
    return float(acc.get_epsilon(float(delta)))


def calibrate_noise_multiplier(target_epsilon: float, sample_rate: float, steps: int,
                               delta: float, accountant: str = "rdp",
                               sampling: str = "poisson", tol: float = 1e-3) -> float:
    """The smallest noise multiplier whose ε after ``steps`` steps is ≤ ``target_epsilon``
    (bisection by dp-accounting, to ``tol`` in σ)."""
    op = "calibrate_noise_multiplier"
    eps = check_positive(target_epsilon, "target_epsilon", op)
    _check(1.0, sample_rate, steps, delta, accountant, sampling, op)
    if steps == 0:
        raise PrivacyError("no steps to calibrate for", op=op, expected="steps >= 1", got=0)
    def event(sigma):
        return dp_accounting.SelfComposedDpEvent(_event(sigma, float(sample_rate)), int(steps))

    def solve(make, low, high):
        return float(dp_accounting.calibrate_dp_mechanism(
            make, event, eps, float(delta), dp_accounting.ExplicitBracketInterval(low, high),
            tol=tol))

    sigma = solve(rdp_privacy_accountant.RdpAccountant, 1e-2, 1e3)
    if accountant == "rdp":
        return sigma
    # PLD is tighter than RDP (a smaller σ suffices) and slow at small σ, where its
    # distribution is wide: search just below the RDP answer
    return solve(pld_privacy_accountant.PLDAccountant, sigma / 2, sigma)
