"""Forward mode by transposing the VJP: every gradient case's jvp along a random tangent
against central differences, jvp of grad (Hessian-vector products), and ``jvp_graph``."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad
from sporeling.compiler.ir import evaluate, make_graph, verify
from sporeling.compiler.transforms import jvp, jvp_graph
from sporeling.core import ShapeError

from grad_cases import all_cases

CASES = all_cases()
EPS = 1e-6
# jvp transposes the VJP, so it needs the backward differentiable: not for first-order-only
# cases (the fused RNNs; their refusal is tested in test_ops_nn_rnn.py)
ITEMS = [(n, i) for n in sorted(CASES) for i, case in enumerate(CASES[n])
         if (case[2] if len(case) > 2 else {}).get("order", 2) >= 2]


def _is_float(a):
    return np.asarray(a).dtype.kind == "f"


def _as_list(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _central_difference(fn, args, tangents, eps=EPS):
    def at(sign):
        moved = [a + sign * eps * t if t is not None else a for a, t in zip(args, tangents)]
        return [np.asarray(o, np.float64) for o in _as_list(fn(*moved))]
    return [(p - m) / (2 * eps) for p, m in zip(at(1.0), at(-1.0))]


@pytest.mark.parametrize("name, index", ITEMS)
def test_jvp_matches_finite_differences(name, index):
    fn, args, *options = CASES[name][index]
    options = options[0] if options else {}  # the case's finite-difference settings
    args = [np.asarray(a, np.float64) if _is_float(a) else a for a in args]
    rng = np.random.default_rng(index)
    tangents = [rng.standard_normal(np.shape(a)) if _is_float(a) else None for a in args]
    diff = [i for i, a in enumerate(args) if _is_float(a)]

    def f(*xs):  # differentiate the float arguments only
        full = list(args)
        for i, x in zip(diff, xs):
            full[i] = x
        return fn(*full)

    out, tangent_out = jvp(f, [args[i] for i in diff], [tangents[i] for i in diff])
    numeric = _central_difference(fn, args, tangents, options.get("eps", EPS))
    for got, want in zip(_as_list(tangent_out), numeric):
        if np.asarray(got).dtype.kind != "f":
            continue  # integer outputs (argmax of a max_pool2d) have no tangent
        np.testing.assert_allclose(got, want, rtol=max(options.get("rtol", 0), 1e-5),
                                   atol=max(options.get("atol", 0), 1e-6), err_msg=name)
    for o, e in zip(_as_list(out), _as_list(fn(*args))):
        np.testing.assert_allclose(o, e)


def test_hessian_vector_product_of_a_network_loss():
    rng = np.random.default_rng(1)
    x, w, v = rng.standard_normal((4, 3)), rng.standard_normal((3, 2)), rng.standard_normal((3, 2))

    def loss(w):
        return ops.mean(ops.square(ops.tanh(ops.matmul(x, w))))

    _, hv = jvp(grad(loss), (w,), (v,))
    g = grad(loss)
    numeric = (g(w + EPS * v) - g(w - EPS * v)) / (2 * EPS)
    np.testing.assert_allclose(hv, numeric, rtol=1e-6, atol=1e-9)
    # nested: a third derivative along (v, v) through jvp of jvp of grad
    third = jvp(lambda u: jvp(grad(loss), (u,), (v,))[1], (w,), (v,))[1]
    numeric3 = (jvp(g, (w + EPS * v,), (v,))[1] - jvp(g, (w - EPS * v,), (v,))[1]) / (2 * EPS)
    np.testing.assert_allclose(third, numeric3, rtol=1e-5, atol=1e-8)


def test_jvp_of_a_tuple_output_and_errors():
    out, t = jvp(lambda a, b: (ops.mul(a, b), ops.exp(a)), (np.array(2.0), np.array(3.0)),
                 (np.array(1.0), np.array(0.0)))
    assert out == (6.0, np.exp(2.0)) and t == (3.0, np.exp(2.0))
    with pytest.raises(ShapeError, match="tangent"):
        jvp(ops.exp, (np.ones(3),), (np.ones(2),))


def test_jvp_graph_matches_jvp_and_verifies():
    rng = np.random.default_rng(2)
    x, w, v, u = (rng.standard_normal(s) for s in ((4, 3), (3, 2), (4, 3), (3, 2)))

    def f(x, w):
        return ops.log_softmax(ops.matmul(x, w)), ops.sum(ops.sigmoid(w))

    g = jvp_graph(make_graph(f, x, w))
    verify(g)
    assert len(g.inputs) == 4 and len(g.outputs) == 4
    got = evaluate(g, x, w, v, u)
    out, tangent = jvp(f, (x, w), (v, u))
    for a, b in zip(got, list(out) + list(tangent)):
        np.testing.assert_allclose(a, b, rtol=1e-12)
