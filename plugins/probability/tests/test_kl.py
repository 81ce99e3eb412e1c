"""KL divergences: closed forms against Monte Carlo estimates and known values."""
import math

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler.testing import check_grads
from sporeling.core import set_seed

import sporeling.probability as sp

PAIRS = {
    "Normal": (lambda: sp.Normal(np.array([0.0, 1.0]), np.array([1.0, 0.5])),
               lambda: sp.Normal(np.array([0.5, -1.0]), np.array([2.0, 1.5]))),
    "MultivariateNormalDiag": (
        lambda: sp.MultivariateNormalDiag(np.array([0.0, 1.0, 2.0]), np.array([1.0, 0.5, 2.0])),
        lambda: sp.MultivariateNormalDiag(np.zeros(3), np.ones(3))),
    "Bernoulli": (lambda: sp.Bernoulli(np.array([0.2, 0.9])),
                  lambda: sp.Bernoulli(logits=np.array([0.3, -1.0]))),
    "Categorical": (lambda: sp.Categorical(np.array([0.1, 0.6, 0.3])),
                    lambda: sp.Categorical(logits=np.array([0.0, 1.0, -1.0]))),
    "Uniform": (lambda: sp.Uniform(np.array([0.0, 0.5]), np.array([1.0, 1.0])),
                lambda: sp.Uniform(np.array([-1.0, 0.0]), np.array([2.0, 3.0]))),
    "UniformNormal": (lambda: sp.Uniform(np.array([0.0, -2.0]), np.array([1.0, 3.0])),
                      lambda: sp.Normal(np.array([0.3, 0.0]), np.array([1.0, 2.0]))),
    "Gamma": (lambda: sp.Gamma(np.array([0.7, 3.0]), np.array([1.0, 2.0])),
              lambda: sp.Gamma(np.array([1.5, 2.0]), np.array([0.5, 1.0]))),
    "Beta": (lambda: sp.Beta(np.array([0.7, 3.0]), np.array([1.2, 2.0])),
             lambda: sp.Beta(np.array([1.5, 2.0]), np.array([0.5, 1.0]))),
    "Poisson": (lambda: sp.Poisson(np.array([0.7, 6.0])), lambda: sp.Poisson(np.array([2.0, 5.0]))),
    "Dirichlet": (lambda: sp.Dirichlet(np.array([0.7, 3.0, 1.0])),
                  lambda: sp.Dirichlet(np.array([1.5, 2.0, 2.0]))),
}


@pytest.mark.parametrize("name", PAIRS)
def test_closed_form_matches_monte_carlo(name):
    set_seed(0)
    p, q = PAIRS[name][0](), PAIRS[name][1]()
    x = p.sample((100000,))
    terms = (p.log_prob(x) - q.log_prob(x)).asnumpy()
    estimate, stderr = terms.mean(0), terms.std(0) / math.sqrt(len(terms))
    kl = sp.kl_divergence(p, q).asnumpy()
    assert np.all(np.abs(kl - estimate) <= 5 * stderr + 1e-9), (kl, estimate, stderr)
    np.testing.assert_allclose(p.kl_loss(q).asnumpy(), kl)          # MindSpore's name


@pytest.mark.parametrize("name", [n for n in PAIRS if n != "UniformNormal"])
def test_divergence_from_itself_is_zero(name):
    p = PAIRS[name][0]()
    np.testing.assert_allclose(sp.kl_divergence(p, p).asnumpy(), 0.0, atol=1e-12)


def test_known_values():
    kl = sp.kl_divergence(sp.Normal(0.0, 1.0), sp.Normal(1.0, 2.0)).asnumpy()
    assert float(kl) == pytest.approx(math.log(2) + (1 + 1) / 8 - 0.5, rel=1e-6)
    outside = sp.kl_divergence(sp.Uniform(0.0, 2.0), sp.Uniform(0.0, 1.0)).asnumpy()
    assert float(outside) == math.inf
    # Gamma(1, rate) is Exponential(rate): KL = log(r1 / r2) + r2 / r1 - 1
    kl = sp.kl_divergence(sp.Gamma(np.array(1.0), np.array(2.0)), sp.Gamma(np.array(1.0), np.array(0.5)))
    assert float(kl.asnumpy()) == pytest.approx(math.log(4) + 0.25 - 1, rel=1e-12)


def test_cross_entropy_is_entropy_plus_kl():
    p, q = PAIRS["Gamma"][0](), PAIRS["Gamma"][1]()
    np.testing.assert_allclose(p.cross_entropy(q).asnumpy(),
                               (p.entropy() + sp.kl_divergence(p, q)).asnumpy())


def test_kl_gradients():
    x = np.array([0.4, 2.0])
    check_grads(lambda a, b: sp.kl_divergence(sp.Gamma(a, b), sp.Gamma(x, 1.0)),
                [np.array([0.7, 3.0]), np.array([1.5, 0.5])], order=2)
    check_grads(lambda a: sp.kl_divergence(sp.Dirichlet(a), sp.Dirichlet(np.ones(3))),
                [np.array([0.7, 3.0, 1.2])], order=1)
    check_grads(lambda m, s: sp.kl_divergence(sp.Normal(m, s), sp.Normal(0.0, 1.0)),
                [np.array([0.3, -1.0]), np.array([0.5, 2.0])], order=2)


def test_register_kl_for_a_subclass():
    class Half(sp.Normal):
        pass

    p = Half(0.0, 1.0)   # found through the MRO: Normal || Normal
    assert float(sp.kl_divergence(p, sp.Normal(0.0, 1.0)).asnumpy()) == 0.0

    @sp.register_kl(Half, sp.Normal)
    def _constant(p, q):
        return sx.Tensor(np.float32(7.0))
    assert float(sp.kl_divergence(p, sp.Normal(0.0, 1.0)).asnumpy()) == 7.0
