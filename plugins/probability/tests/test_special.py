"""The special-function primitives: values vs SciPy, gradients to second order, batching,
and their registration through the plugin hooks."""
import numpy as np
import pytest
from scipy import special as sc

import sporeling.expression as sx
from sporeling.compiler import MissingRuleError, primitives
from sporeling.compiler.transforms import vmap
from sporeling.compiler.testing import check_grads
from sporeling.core import SporelingError, get_plugin_host

import sporeling.probability as sp
from sporeling.probability.incomplete import betainc, gammainc

X = np.array([0.05, 0.7, 1.0, 2.5, 13.0, 120.0])


def test_values_match_scipy_in_float64_and_keep_float32():
    np.testing.assert_allclose(sp.lgamma(X), sc.gammaln(X), rtol=1e-14)
    np.testing.assert_allclose(sp.digamma(X), sc.digamma(X), rtol=1e-14)
    np.testing.assert_allclose(sp.polygamma(3, X), sc.polygamma(3, X), rtol=1e-14)
    assert sp.lgamma(X.astype(np.float32)).dtype == np.float32
    out = sp.digamma(sx.Tensor(X))
    assert isinstance(out, sx.Tensor) and np.allclose(out.asnumpy(), sc.digamma(X))


@pytest.mark.parametrize("fn", [sp.lgamma, sp.digamma, lambda x: sp.polygamma(1, x)],
                         ids=["lgamma", "digamma", "trigamma"])
def test_gradients_to_second_order(fn):
    check_grads(fn, [np.array([0.6, 1.7, 4.2])], order=2, rtol=1e-6)


def test_incomplete_gamma_and_beta_match_scipy_and_differentiate():
    a, b, x = np.array([0.3, 2.0, 9.0]), np.array([1.5, 0.7, 3.0]), np.array([0.2, 0.5, 0.9])
    np.testing.assert_allclose(gammainc(a, x * 5), sc.gammainc(a, x * 5), rtol=1e-14)
    np.testing.assert_allclose(betainc(a, b, x), sc.betainc(a, b, x), rtol=1e-14)
    check_grads(gammainc, [a, x * 5], order=1, rtol=1e-6)
    check_grads(betainc, [a, b, x], order=1, rtol=1e-6)
    check_grads(lambda x: betainc(a, b, x), [x], order=2, rtol=1e-6)


def test_second_derivative_wrt_a_shape_parameter_is_refused_by_name():
    with pytest.raises(MissingRuleError, match="probability_gammainc_da: no second derivative"):
        check_grads(lambda a: gammainc(a, np.array([1.0, 2.0])), [np.array([0.5, 3.0])],
                    order=2)


def test_pynative_gradient_of_lgamma_is_digamma():
    g = sx.grad(lambda x: sp.lgamma(x).sum())(sx.Tensor(X))
    np.testing.assert_allclose(g.asnumpy(), sc.digamma(X), rtol=1e-13)


def test_bad_polygamma_order_names_the_op():
    with pytest.raises(SporelingError, match="polygamma.*n >= 0"):
        sp.polygamma(-1, X)
    assert np.allclose(sp.polygamma(0, X), sc.digamma(X))


def test_vmap_over_the_special_functions_and_a_log_prob():
    xs = np.random.default_rng(0).uniform(0.2, 5.0, (4, 3))
    np.testing.assert_allclose(vmap(lambda x: sp.polygamma(2, x), in_axes=1)(xs),
                               sc.polygamma(2, xs).T, rtol=1e-14)
    value = np.array([0.5, 1.0, 2.0])
    batched = vmap(lambda a: sp.Gamma(a, 1.0).log_prob(value))(xs)
    looped = np.stack([sp.Gamma(a, 1.0).log_prob(value).asnumpy() for a in xs])
    np.testing.assert_allclose(np.asarray(batched), looped, rtol=1e-14)


def test_fused_in_a_compiled_chain():
    f = sx.jit(lambda x: sp.lgamma(x * 2.0 + 1.0) - sp.digamma(x) * 0.5)
    x = sx.Tensor(X)
    np.testing.assert_allclose(f(x).asnumpy(), sc.gammaln(2 * X + 1) - sc.digamma(X) / 2,
                               rtol=1e-13)


def test_contributed_through_the_hooks():
    names = [p.name for p in get_plugin_host().loaded]
    assert "probability" in names
    registry = primitives()
    for name in ("probability_lgamma", "probability_digamma", "probability_polygamma",
                 "probability_random_gamma", "probability_random_poisson",
                 "probability_gammainc", "probability_betainc"):
        assert registry[name].name == name
