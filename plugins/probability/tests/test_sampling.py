"""Samples: shapes, moments, reproducibility, and gradients of reparameterised samples
(explicit for Normal/Uniform, implicit for Gamma/Beta/Dirichlet)."""
import numpy as np
import pytest
from scipy import special as sc

import sporeling.expression as sx
from sporeling.core import set_seed

import sporeling.probability as sp
from sporeling.probability.kernels import gamma_sample_grad

N = 20000
FAMILIES = {
    "Normal": lambda: sp.Normal(np.array([-1.0, 2.0]), np.array([0.5, 2.0])),
    "Uniform": lambda: sp.Uniform(np.array([-1.0, 2.0]), np.array([0.5, 7.0])),
    "Gamma": lambda: sp.Gamma(np.array([0.3, 4.0]), np.array([1.0, 2.0])),
    "Beta": lambda: sp.Beta(np.array([0.5, 3.0]), np.array([2.0, 1.0])),
    "Poisson": lambda: sp.Poisson(np.array([0.5, 12.0])),
    "Bernoulli": lambda: sp.Bernoulli(np.array([0.1, 0.7])),
    "Categorical": lambda: sp.Categorical(np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]])),
    "LogNormal": lambda: sp.LogNormal(np.array([0.0, -1.0]), np.array([0.3, 0.5])),
    "MultivariateNormalDiag": lambda: sp.MultivariateNormalDiag(np.zeros((2, 3)),
                                                                np.ones(3) * 0.5),
    "Dirichlet": lambda: sp.Dirichlet(np.array([[0.5, 1.0, 2.0], [3.0, 3.0, 3.0]])),
}


@pytest.mark.parametrize("name", FAMILIES)
def test_sample_shape_and_moments(name):
    set_seed(0)
    d = FAMILIES[name]()
    x = d.sample((N,)).asnumpy().astype(np.float64)
    assert x.shape == (N,) + d.batch_shape + d.event_shape
    mean, var = np.broadcast_to(d.mean.asnumpy(), x.shape[1:]), \
        np.broadcast_to(d.variance.asnumpy(), x.shape[1:])
    # the sample mean is within 5 standard errors; the variance within 10%
    assert np.all(np.abs(x.mean(0) - mean) < 5 * np.sqrt(var / N)), (x.mean(0), mean)
    np.testing.assert_allclose(x.var(0), var, rtol=0.1)


@pytest.mark.parametrize("name", FAMILIES)
def test_samples_are_in_the_support_and_reproducible(name):
    d = FAMILIES[name]()
    set_seed(3)
    a = d.sample((50,))
    set_seed(3)
    b = d.sample((50,))
    assert np.array_equal(a.asnumpy(), b.asnumpy())
    assert np.isfinite(d.log_prob(a).asnumpy()).all()   # validate_args: raises if outside


def test_sample_carries_no_gradient_rsample_does():
    loc = sx.Tensor(np.array([0.5]))
    g = sx.grad(lambda m: sp.Normal(m, 1.0).rsample((10,)).sum())(loc)
    assert g.asnumpy()[0] == pytest.approx(10.0)
    g0 = sx.grad(lambda m: sp.Normal(m, 1.0).sample((10,)).sum())(loc)
    assert g0.asnumpy()[0] == 0.0


def _grad_of_mean(make, params, n=N):
    set_seed(1)
    return [g.asnumpy() for g in sx.grad(lambda *p: make(*p).rsample((n,)).mean(0).sum(),
                                         tuple(range(len(params))))(*map(sx.Tensor, params))]


def test_reparameterised_gradients_of_the_mean():
    a, b = np.array([0.4, 3.0]), np.array([2.0, 0.5])
    ga, gb = _grad_of_mean(sp.Gamma, [a, b])          # E = a / b
    np.testing.assert_allclose(ga, 1 / b, rtol=0.05)
    np.testing.assert_allclose(gb, -a / b ** 2, rtol=0.05)
    ga, gb = _grad_of_mean(sp.Beta, [a, b])           # E = a / (a + b)
    np.testing.assert_allclose(ga, b / (a + b) ** 2, rtol=0.1)
    np.testing.assert_allclose(gb, -a / (a + b) ** 2, rtol=0.1)
    lo, hi = np.array([0.0, -1.0]), np.array([1.0, 3.0])
    glo, ghi = _grad_of_mean(sp.Uniform, [lo, hi])    # lo + (hi - lo) u: 1 - mean u, mean u
    np.testing.assert_allclose(glo + ghi, 1.0, rtol=1e-12)
    np.testing.assert_allclose(ghi, 0.5, atol=0.02)


def test_dirichlet_rsample_gradient_of_the_mean():
    alpha = np.array([0.5, 1.5, 3.0])
    (g,) = _grad_of_mean(lambda a: sp.Dirichlet(a), [alpha])
    # d/d alpha_j of sum_i E[x_i] = d/d alpha_j 1 = 0 ; check one component instead
    assert np.abs(g).max() < 1e-8
    set_seed(2)
    t = sx.Tensor(alpha)
    g0 = sx.grad(lambda a: sp.Dirichlet(a).rsample((N,))[:, 0].mean())(t).asnumpy()
    s = alpha.sum()
    expected = np.array([(s - alpha[0]) / s ** 2, -alpha[0] / s ** 2, -alpha[0] / s ** 2])
    np.testing.assert_allclose(g0, expected, rtol=0.1, atol=3e-3)


@pytest.mark.parametrize("alpha", [0.05, 0.7, 1.0, 6.0, 80.0])
def test_implicit_gamma_gradient_equals_the_quantile_derivative(alpha):
    # at a fixed CDF level u, dz/dalpha = d/dalpha gammaincinv(alpha, u)
    u = np.array([0.05, 0.3, 0.6, 0.95])
    z = sc.gammaincinv(alpha, u)
    h = 1e-6 * alpha
    fd = (sc.gammaincinv(alpha + h, u) - sc.gammaincinv(alpha - h, u)) / (2 * h)
    np.testing.assert_allclose(gamma_sample_grad(z, alpha), fd, rtol=1e-5)


def test_score_function_gradient_through_log_prob():
    # d/drate E[x] = 1 for Poisson: estimated as E[x d log p(x)/d rate] with detached samples
    set_seed(4)
    rate = sx.Tensor(np.array([3.0]))
    x = sp.Poisson(rate).sample((N,))
    g = sx.grad(lambda r: (x * sp.Poisson(r).log_prob(x)).mean())(rate).asnumpy()
    assert g[0] == pytest.approx(1.0, abs=0.1)


@pytest.mark.parametrize("make", [
    lambda c: sp.Beta(c, c), lambda c: sp.Dirichlet(np.stack([c, c, c], -1))],
    ids=["Beta", "Dirichlet"])
def test_small_concentrations_in_float32_stay_inside_the_support(make):
    set_seed(0)
    d = make(np.full(2, 0.02, np.float32))
    x = d.sample((2000,))
    assert x.dtype == np.float32
    assert np.isfinite(d.log_prob(x).asnumpy()).all()   # raises SupportError at 0 or 1
    # both Gammas underflowing would give exactly 1/2 (1/3): drawn in float64 they do not
    assert np.mean(x.asnumpy() == np.float32(0.5)) < 0.01
