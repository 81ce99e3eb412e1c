"""Bad input: parameters outside their domain, wrong event shapes, values outside the
support -- named errors with validate_args (the default), -inf without."""
import math

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import ShapeError

import sporeling.probability as sp
from sporeling.probability import KLNotImplementedError, ParameterError, SupportError


@pytest.mark.parametrize("make, match", [
    (lambda: sp.Normal(0.0, np.array([1.0, -1.0])), r"Normal: bad parameter sd; expected sd > 0, got sd with values \[-1.0\]"),
    (lambda: sp.Gamma(np.array([0.0]), 1.0), "concentration > 0"),
    (lambda: sp.Gamma(1.0, np.array([-2.0])), "rate > 0"),
    (lambda: sp.Beta(1.0, np.array([0.0])), "concentration0 > 0"),
    (lambda: sp.Uniform(np.array([1.0]), np.array([1.0])), "low < high"),
    (lambda: sp.Poisson(np.array([-1.0])), "rate > 0"),
    (lambda: sp.Bernoulli(np.array([1.5])), "0 <= probs <= 1"),
    (lambda: sp.Categorical(np.array([0.5, -0.1])), "probs >= 0"),
    (lambda: sp.Dirichlet(np.array([1.0, 0.0])), "concentration > 0"),
    (lambda: sp.MultivariateNormalDiag(np.zeros(2), np.array([1.0, 0.0])), "scale_diag > 0"),
    (lambda: sp.Bernoulli(), "exactly one of probs and logits"),
])
def test_bad_parameters_raise_parameter_error(make, match):
    with pytest.raises(ParameterError, match=match):
        make()


def test_unchecked_parameters_without_validate_args():
    d = sp.Normal(0.0, np.array([-1.0]), validate_args=False)
    assert d.batch_shape == (1,)


@pytest.mark.parametrize("make, value", [
    (lambda: sp.MultivariateNormalDiag(np.zeros(3), np.ones(3)), np.zeros(2)),
    (lambda: sp.Dirichlet(np.ones(3)), np.full(4, 0.25)),
    (lambda: sp.Normal(np.zeros(3), 1.0), np.zeros(2)),      # batch (3,) vs (2,)
])
def test_wrong_event_or_batch_shape_is_a_shape_error(make, value):
    d = make()
    with pytest.raises(ShapeError, match=rf"{d.name}.log_prob.*got \({value.shape[0]},\)"):
        d.log_prob(value)


@pytest.mark.parametrize("make, value", [
    (lambda: sp.Gamma(2.0, 1.0), -1.0),
    (lambda: sp.Beta(2.0, 2.0), 1.0),
    (lambda: sp.Uniform(0.0, 1.0), 1.0),           # [low, high): high is outside
    (lambda: sp.Poisson(2.0), 1.5),
    (lambda: sp.Bernoulli(0.3), 0.5),
    (lambda: sp.Categorical(np.ones(3) / 3), 3),
    (lambda: sp.Dirichlet(np.ones(3)), np.array([0.5, 0.5, 0.5])),
    (lambda: sp.LogNormal(0.0, 1.0), 0.0),
])
def test_value_outside_support(make, value):
    d = make()
    with pytest.raises(SupportError, match=rf"{d.name}.log_prob: value outside the support"):
        d.log_prob(value)
    d.validate_args = False
    lp = d.log_prob(value).asnumpy()
    assert np.all(lp == -math.inf)
    assert np.all(d.prob(value).asnumpy() == 0.0)


def test_outside_support_gives_finite_gradients_without_validation():
    a = sx.Tensor(np.array([2.0, 3.0]))
    x = np.array([-1.0, 0.5])          # the first is outside Gamma's support

    def total(a):
        lp = sp.Gamma(a, 1.0, validate_args=False).log_prob(x)
        return sx.ops.where(sx.ops.isfinite(lp), lp, 0.0).sum()
    g = sx.grad(total)(a).asnumpy()
    assert np.isfinite(g).all() and g[0] == 0.0 and g[1] != 0.0


def test_rsample_of_a_discrete_family_says_to_use_sample():
    with pytest.raises(sp.ProbabilityError, match="Poisson.rsample.*sample"):
        sp.Poisson(2.0).rsample()
    assert not sp.Bernoulli(0.3).has_rsample and sp.Gamma(2.0).has_rsample


def test_unknown_kl_pair():
    with pytest.raises(KLNotImplementedError, match="Gamma\\|\\|Normal"):
        sp.kl_divergence(sp.Gamma(2.0), sp.Normal(0.0, 1.0))


def test_no_cdf_and_no_entropy_are_named():
    with pytest.raises(sp.ProbabilityError, match="Dirichlet.cdf"):
        sp.Dirichlet(np.ones(2)).cdf(np.full(2, 0.5))
    td = sp.TransformedDistribution(sp.Sigmoid(), sp.Normal(0.0, 1.0))
    with pytest.raises(sp.ProbabilityError, match="entropy"):
        td.entropy()


def test_support_error_lists_the_values_outside():
    with pytest.raises(SupportError, match=r"got 2 of 4 outside, e.g. \[-1.0, -3.0\]"):
        sp.Gamma(2.0, 1.0, dtype=np.float64).log_prob(np.array([1.0, -1.0, 2.0, -3.0]))
    with pytest.raises(SupportError, match=r"1 of 2 outside, e.g. \[\[0.5, 0.6\]\]"):
        sp.Dirichlet(np.ones((2, 2))).log_prob(np.array([[0.5, 0.5], [0.5, 0.6]]))


def test_errors_name_the_users_line():
    with pytest.raises(ParameterError, match=r"\(at .*test_validation.py:\d+ in "
                                             r"test_errors_name_the_users_line\)"):
        sp.Gamma(np.array([-1.0]))
    d = sp.MultivariateNormalDiag(np.zeros(3), np.ones(3))
    with pytest.raises(ShapeError, match=r"test_validation.py:\d+"):
        d.log_prob(np.zeros(2))
    with pytest.raises(SupportError, match=r"test_validation.py:\d+"):
        sp.Beta(2.0, 2.0).log_prob(3.0)
