"""log_prob, entropy, cdf, mean and variance against scipy.stats, in float64 (1e-10)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

import sporeling.expression as sx
from sporeling.core import DTypeError

import sporeling.probability as sp

rng = np.random.default_rng(0)
A = rng.uniform(0.3, 4.0, (3, 4))
B = rng.uniform(0.3, 4.0, (4,))          # broadcasts against A's batch
TOL = dict(rtol=1e-10, atol=1e-10)

# name: (our distribution, scipy's frozen distribution, values in the support)
CASES = {
    "Normal": (lambda: sp.Normal(A - 2.0, B), lambda: stats.norm(A - 2.0, B),
               rng.standard_normal((2, 3, 4)) * 3),
    "Uniform": (lambda: sp.Uniform(-A, B), lambda: stats.uniform(-A, A + B),
                rng.uniform(-0.3, 0.3, (2, 3, 4))),
    "Gamma": (lambda: sp.Gamma(A, B), lambda: stats.gamma(A, scale=1 / B),
              rng.uniform(0.01, 5.0, (2, 3, 4))),
    "Beta": (lambda: sp.Beta(A, B), lambda: stats.beta(A, B), rng.uniform(0.01, 0.99, (2, 3, 4))),
    "Poisson": (lambda: sp.Poisson(A * 3), lambda: stats.poisson(A * 3),
                rng.integers(0, 15, (2, 3, 4)).astype(np.float64)),
    "Bernoulli": (lambda: sp.Bernoulli(A / 4.5), lambda: stats.bernoulli(A / 4.5),
                  rng.integers(0, 2, (2, 3, 4)).astype(np.float64)),
    "LogNormal": (lambda: sp.LogNormal(A - 2.0, B), lambda: stats.lognorm(B, scale=np.exp(A - 2.0)),
                  rng.uniform(0.01, 6.0, (2, 3, 4))),
}


def _logpdf(ref, x):
    return ref.logpmf(x) if hasattr(ref, "logpmf") else ref.logpdf(x)


@pytest.mark.parametrize("name", CASES)
def test_log_prob_prob_and_entropy(name):
    make, ref, x = CASES[name]
    d, r = make(), ref()
    assert d.batch_shape == (3, 4) and d.event_shape == ()
    np.testing.assert_allclose(d.log_prob(x).asnumpy(), _logpdf(r, x), **TOL)
    np.testing.assert_allclose(d.prob(x).asnumpy(), np.exp(_logpdf(r, x)), **TOL)
    np.testing.assert_allclose(d.entropy().asnumpy(), r.entropy(), **TOL)


@pytest.mark.parametrize("name", CASES)
def test_mean_and_variance(name):
    make, ref, _ = CASES[name]
    d, r = make(), ref()
    np.testing.assert_allclose(np.broadcast_to(d.mean.asnumpy(), (3, 4)), r.mean(), **TOL)
    np.testing.assert_allclose(np.broadcast_to(d.variance.asnumpy(), (3, 4)), r.var(), **TOL)


@pytest.mark.parametrize("name", CASES)
def test_cdf(name):
    make, ref, x = CASES[name]
    np.testing.assert_allclose(make().cdf(x).asnumpy(), ref().cdf(x), **TOL)
    outside = np.array([-1.0, 0.0, 1.0, 50.0])[:, None, None] * np.ones((3, 4))
    np.testing.assert_allclose(make().cdf(outside).asnumpy(), ref().cdf(outside), **TOL)


def test_categorical():
    probs = rng.dirichlet(np.ones(5), (3,))
    d = sp.Categorical(probs)
    x = rng.integers(0, 5, (7, 3))
    assert d.batch_shape == (3,) and d.event_shape == ()
    np.testing.assert_allclose(d.log_prob(x).asnumpy(), np.log(probs[np.arange(3), x]), **TOL)
    np.testing.assert_allclose(d.entropy().asnumpy(), [stats.entropy(p) for p in probs], **TOL)
    logits = rng.standard_normal((3, 5))
    d2 = sp.Categorical(logits=logits)
    ref = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    np.testing.assert_allclose(d2.log_prob(x).asnumpy(), ref[np.arange(3), x], **TOL)
    k = np.arange(5)
    np.testing.assert_allclose(d.mean.asnumpy(), probs @ k, **TOL)
    np.testing.assert_allclose(d.variance.asnumpy(), probs @ k ** 2 - (probs @ k) ** 2, **TOL)


def test_multivariate_normal_diag():
    loc, scale = rng.standard_normal((3, 4)), rng.uniform(0.3, 2.0, (3, 4))
    d = sp.MultivariateNormalDiag(loc, scale)
    assert d.batch_shape == (3,) and d.event_shape == (4,)
    x = rng.standard_normal((2, 3, 4))
    for i in range(3):
        ref = stats.multivariate_normal(loc[i], np.diag(scale[i] ** 2))
        np.testing.assert_allclose(d.log_prob(x).asnumpy()[:, i], ref.logpdf(x[:, i]), **TOL)
        np.testing.assert_allclose(d.entropy().asnumpy()[i], ref.entropy(), **TOL)
        np.testing.assert_allclose(d.covariance_matrix.asnumpy()[i], ref.cov, **TOL)


def test_dirichlet():
    alpha = rng.uniform(0.3, 4.0, (3, 4))
    d = sp.Dirichlet(alpha)
    assert d.batch_shape == (3,) and d.event_shape == (4,)
    x = rng.dirichlet(np.ones(4), (3,))
    for i in range(3):
        ref = stats.dirichlet(alpha[i])
        np.testing.assert_allclose(d.log_prob(x).asnumpy()[i], ref.logpdf(x[i]), **TOL)
        np.testing.assert_allclose(d.entropy().asnumpy()[i], ref.entropy(), **TOL)
        np.testing.assert_allclose(d.mean.asnumpy()[i], ref.mean(), **TOL)
        np.testing.assert_allclose(d.variance.asnumpy()[i], ref.var(), **TOL)


@settings(max_examples=25, deadline=None)
@given(a=st.floats(0.05, 50.0), b=st.floats(0.05, 50.0), u=st.floats(0.001, 0.999))
def test_gamma_and_beta_over_wide_parameters(a, b, u):
    x = stats.gamma(a, scale=1 / b).ppf(u)
    if x > 0:
        np.testing.assert_allclose(sp.Gamma(a * np.ones(1), b).log_prob(np.array([x])).asnumpy(),
                                   stats.gamma(a, scale=1 / b).logpdf([x]), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(sp.Beta(np.array([a]), b).entropy().asnumpy(),
                               stats.beta(a, b).entropy(), rtol=1e-9, atol=1e-9)


def test_float32_parameters_give_float32():
    d = sp.Normal(np.float32(0.0) + np.zeros(2, np.float32), np.ones(2, np.float32))
    assert d.log_prob(np.zeros(2)).dtype == np.float32
    assert sp.Gamma(2.0, 1.0).log_prob(1.0).dtype == np.float32   # Python numbers: float32
    d64 = sp.Gamma(2.0, 1.5, dtype=sx.float64)                    # or the dtype given
    assert d64.dtype == np.float64 and d64.rsample((2,)).dtype == np.float64
    np.testing.assert_allclose(d64.log_prob(0.7).asnumpy(), stats.gamma(2.0, scale=1 / 1.5).logpdf(0.7),
                               rtol=1e-12)
    with pytest.raises(DTypeError, match="float dtype.*int32"):
        sp.Normal(0.0, 1.0, dtype=np.int32)
