"""Bijectors (forward, inverse, log Jacobians) and transformed distributions vs SciPy."""
import numpy as np
import pytest
from scipy import stats

import sporeling.expression as sx
from sporeling.compiler.testing import check_grads

import sporeling.probability as sp

X = np.array([-2.5, -0.3, 0.0, 0.7, 3.0])
BIJECTORS = {
    "ScalarAffine": lambda: sp.ScalarAffine(scale=-2.0, shift=0.5),
    "Exp": sp.Exp,
    "Sigmoid": sp.Sigmoid,
    "Softplus": lambda: sp.Softplus(sharpness=1.5),
    "InvertExp": lambda: sp.Invert(sp.Exp()),
}


def _domain(name):
    return np.exp(X) if name == "InvertExp" else X      # Invert(Exp) is log: x > 0


@pytest.mark.parametrize("name", BIJECTORS)
def test_inverse_undoes_forward(name):
    b, x = BIJECTORS[name](), _domain(name)
    np.testing.assert_allclose(b.inverse(b.forward(x)).asnumpy(), x, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", BIJECTORS)
def test_log_jacobians_are_log_derivatives(name):
    b, x = BIJECTORS[name](), _domain(name)
    dydx = sx.grad(lambda t: b.forward(t).sum())(sx.Tensor(x)).asnumpy()
    np.testing.assert_allclose(b.forward_log_jacobian(x).asnumpy(), np.log(np.abs(dydx)),
                               rtol=1e-10, atol=1e-12)
    y = b.forward(x).asnumpy()
    np.testing.assert_allclose(b.inverse_log_jacobian(y).asnumpy(), -np.log(np.abs(dydx)),
                               rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("name", BIJECTORS)
def test_bijector_gradients(name):
    b, x = BIJECTORS[name](), _domain(name)
    check_grads(lambda t: b.forward_log_jacobian(t), [x], order=2)
    check_grads(lambda t: b.inverse(t), [b.forward(x).asnumpy()], order=1)


def test_softplus_inverse_is_stable_for_large_values():
    b = sp.Softplus()
    y = np.array([1e-8, 50.0, 800.0])
    x = b.inverse(y).asnumpy()
    assert np.isfinite(x).all() and x[2] == pytest.approx(800.0)
    assert np.isfinite(b.inverse_log_jacobian(y).asnumpy()).all()


def test_lognormal_is_exp_of_normal():
    loc, scale = np.array([0.2, -1.0]), np.array([0.5, 1.5])
    td = sp.TransformedDistribution(sp.Exp(), sp.Normal(loc, scale))
    ref = stats.lognorm(scale, scale=np.exp(loc))
    y = np.array([[0.3, 2.0], [1.7, 0.05]])
    np.testing.assert_allclose(td.log_prob(y).asnumpy(), ref.logpdf(y), rtol=1e-10)
    np.testing.assert_allclose(td.cdf(y).asnumpy(), ref.cdf(y), rtol=1e-10)
    np.testing.assert_allclose(sp.LogNormal(loc, scale).log_prob(y).asnumpy(), ref.logpdf(y),
                               rtol=1e-10)


def test_affine_of_normal_is_normal_and_decreasing_affine_flips_the_cdf():
    td = sp.TransformedDistribution(sp.ScalarAffine(-3.0, 1.0),
                                  sp.Normal(np.array(0.5), np.array(2.0)))
    ref = stats.norm(1.0 - 3.0 * 0.5, 6.0)
    y = np.linspace(-10, 10, 7)
    np.testing.assert_allclose(td.log_prob(y).asnumpy(), ref.logpdf(y), rtol=1e-10)
    np.testing.assert_allclose(td.cdf(y).asnumpy(), ref.cdf(y), rtol=1e-10)


def test_sigmoid_of_normal_is_logit_normal():
    td = sp.TransformedDistribution(sp.Sigmoid(), sp.Normal(np.array(0.3), np.array(0.8)))
    y = np.array([0.1, 0.5, 0.93])
    logit = np.log(y / (1 - y))
    ref = stats.norm(0.3, 0.8).logpdf(logit) - np.log(y * (1 - y))
    np.testing.assert_allclose(td.log_prob(y).asnumpy(), ref, rtol=1e-10)
    np.testing.assert_allclose(td.cdf(np.array([-0.5, 0.0, 0.4, 1.0, 1.5])).asnumpy(),
                               [0.0, 0.0, stats.norm(0.3, 0.8).cdf(np.log(0.4 / 0.6)), 1.0, 1.0],
                               rtol=1e-12)


def test_softplus_of_gamma_matches_change_of_variables():
    base = sp.Gamma(np.array([2.0]), np.array([1.5]))
    td = sp.TransformedDistribution(sp.Softplus(), base)
    y = np.array([0.8, 1.2, 4.0])         # softplus(x) for x > 0: y > log 2
    x = np.log(np.expm1(y))
    ref = stats.gamma(2.0, scale=1 / 1.5).logpdf(x) + np.log(np.exp(y) / np.expm1(y))
    np.testing.assert_allclose(td.log_prob(y).asnumpy(), ref, rtol=1e-10)
    with pytest.raises(sp.SupportError, match="Softplus.forward of value > 0"):
        td.log_prob(np.array([0.5]))       # softplus of a negative number


def test_transformed_event_distribution_sums_the_log_jacobian_over_the_event():
    base = sp.MultivariateNormalDiag(np.zeros(3), np.ones(3))
    td = sp.TransformedDistribution(sp.Exp(), base)
    y = np.array([0.5, 1.0, 2.0])
    expected = stats.norm().logpdf(np.log(y)).sum() - np.log(y).sum()
    assert td.event_shape == (3,)
    np.testing.assert_allclose(td.log_prob(y).asnumpy(), expected, rtol=1e-12)


def test_transformed_samples_and_rsample():
    td = sp.LogNormal(np.array([0.0]), np.array([0.5]))
    assert td.has_rsample
    s = td.rsample((5,))
    assert s.shape == (5, 1) and (s.asnumpy() > 0).all()
    mean = sx.grad(lambda m: sp.LogNormal(m, 0.5).rsample((100,)).mean())(sx.Tensor(np.array(0.0)))
    assert float(mean.asnumpy()) > 0.5                     # d/dloc E[exp(loc + s eps)] = E
    disc = sp.TransformedDistribution(sp.ScalarAffine(2.0), sp.Poisson(3.0))
    assert not disc.has_rsample and disc.sample((4,)).shape == (4,)


def test_lognormal_moments_and_entropy():
    d, ref = sp.LogNormal(0.3, 0.6), stats.lognorm(0.6, scale=np.exp(0.3))
    assert float(d.mean.asnumpy()) == pytest.approx(ref.mean(), rel=1e-6)
    assert float(d.variance.asnumpy()) == pytest.approx(ref.var(), rel=1e-6)
    assert float(d.entropy().asnumpy()) == pytest.approx(ref.entropy(), rel=1e-6)


def test_bad_bijector_arguments():
    with pytest.raises(sp.ParameterError, match="scale != 0"):
        sp.ScalarAffine(0.0)
    with pytest.raises(sp.ParameterError, match="sharpness > 0"):
        sp.Softplus(-1.0)
    with pytest.raises(sp.ProbabilityError, match=r"\(Bijector, Distribution\)"):
        sp.TransformedDistribution(sp.Normal(0.0, 1.0), sp.Exp())
