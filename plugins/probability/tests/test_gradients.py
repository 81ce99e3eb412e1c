"""Gradients of log_prob and entropy wrt every parameter, against finite differences
(sporeling.compiler.testing.check_grads, float64), and through PyNative grad."""
import numpy as np
import pytest
from scipy import stats

import sporeling.expression as sx
from sporeling.compiler.testing import check_grads

import sporeling.probability as sp

X = np.array([0.3, 0.8])
CASES = {
    "Normal": (sp.Normal, [np.array([0.1, -0.4]), np.array([0.7, 1.3])], X),
    "Uniform": (sp.Uniform, [np.array([0.0, -1.0]), np.array([1.0, 2.0])], X),
    "Gamma": (sp.Gamma, [np.array([0.6, 2.5]), np.array([1.3, 0.4])], X),
    "Beta": (sp.Beta, [np.array([0.6, 2.5]), np.array([1.3, 0.4])], X),
    "Poisson": (sp.Poisson, [np.array([0.6, 2.5])], np.array([0.0, 3.0])),
    "Bernoulli": (lambda p: sp.Bernoulli(p), [np.array([0.2, 0.7])], np.array([0.0, 1.0])),
    "BernoulliLogits": (lambda l: sp.Bernoulli(logits=l), [np.array([-0.2, 1.7])],
                        np.array([0.0, 1.0])),
    "Categorical": (lambda l: sp.Categorical(logits=l), [np.array([[0.1, -1.0, 0.5]] * 2)],
                    np.array([2, 0])),
    "MultivariateNormalDiag": (sp.MultivariateNormalDiag,
                               [np.array([0.1, -0.4]), np.array([0.7, 1.3])], X),
    "Dirichlet": (sp.Dirichlet, [np.array([0.6, 2.5])], np.array([0.3, 0.7])),
    "LogNormal": (sp.LogNormal, [np.array([0.1, -0.4]), np.array([0.7, 1.3])], X),
}


@pytest.mark.parametrize("name", CASES)
def test_log_prob_gradients(name):
    make, params, x = CASES[name]
    check_grads(lambda *p: make(*p).log_prob(x), params, order=2, name=f"{name}.log_prob")


@pytest.mark.parametrize("name", [n for n in CASES if n != "Poisson"])
def test_entropy_gradients(name):
    make, params, _ = CASES[name]
    check_grads(lambda *p: make(*p).entropy(), params, order=1, name=f"{name}.entropy")


@pytest.mark.parametrize("name", ["Gamma", "Beta", "Poisson", "Normal", "Uniform", "LogNormal"])
def test_cdf_gradients(name):
    make, params, x = CASES[name]
    check_grads(lambda *p: make(*p).cdf(x), params, order=1, rtol=1e-6, name=f"{name}.cdf")


def test_cdf_second_order_wrt_the_value():
    check_grads(lambda x: sp.Gamma(np.array([2.5]), 1.5).cdf(x), [np.array([0.4, 2.0])], order=2)
    check_grads(lambda x: sp.Beta(np.array([2.5]), 0.7).cdf(x), [np.array([0.4, 0.8])], order=2)


def test_poisson_entropy_gradient_matches_finite_differences_of_scipy():
    rate = np.array([0.6, 2.5, 9.0])
    g = sx.grad(lambda r: sp.Poisson(r).entropy().sum())(sx.Tensor(rate)).asnumpy()
    h = 1e-5
    fd = (stats.poisson(rate + h).entropy() - stats.poisson(rate - h).entropy()) / (2 * h)
    np.testing.assert_allclose(g, fd, rtol=1e-6)


def test_gradient_wrt_the_value():
    # d/dx log N(x; m, s) = -(x - m) / s^2
    g = sx.grad(lambda x: sp.Normal(1.0, 2.0).log_prob(x).sum())(sx.Tensor(np.array([0.0, 3.0])))
    np.testing.assert_allclose(g.asnumpy(), [0.25, -0.5])


def test_parameters_reach_their_gradients_as_parameters():
    loc = sx.Parameter(np.zeros(2), name="loc")
    log_scale = sx.Parameter(np.zeros(2), name="log_scale")

    def nll():
        return -sp.Normal(loc, sx.ops.exp(log_scale)).log_prob(X).sum()
    gl, gs = sx.grad(nll, None, [loc, log_scale])()
    np.testing.assert_allclose(gl.asnumpy(), -X)
    np.testing.assert_allclose(gs.asnumpy(), 1 - X ** 2)
