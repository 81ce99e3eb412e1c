import numpy as np
import pytest

from sporeling.compiler import MissingRuleError, Primitive, bind, def_backward, ops
from sporeling.compiler.autodiff import grad, value_and_grad, vjp
from sporeling.compiler.testing import GradientCheckError, check_grads
from sporeling.core import ShapeError


def test_grad_of_grad_of_grad():
    f = lambda x: ops.sum(ops.mul(ops.mul(x, x), ops.mul(x, x)))  # x^4
    x = np.array([1.5, -2.0])
    assert np.allclose(grad(f)(x), 4 * x**3)
    assert np.allclose(grad(lambda x: ops.sum(grad(f)(x)))(x), 12 * x**2)
    assert np.allclose(grad(lambda x: ops.sum(grad(lambda y: ops.sum(grad(f)(y)))(x)))(x), 24 * x)


def test_vjp_of_tuple_outputs_and_unused_inputs_get_zeros():
    out, fn = vjp(lambda x, y: (ops.mul(x, 2.0), ops.exp(x)), np.ones(3), np.ones(2))
    gx, gy = fn((np.ones(3), np.zeros(3)))
    assert np.allclose(gx, 2.0) and np.array_equal(gy, np.zeros(2))
    with pytest.raises(ShapeError, match="2 cotangents"):
        fn(np.ones(3))


def test_value_and_grad_needs_a_scalar():
    v, g = value_and_grad(lambda x, y: ops.sum(ops.mul(x, y)), argnums=(0, 1))(
        np.arange(3.0), np.ones(3))
    assert v == 3.0 and np.allclose(g[0], 1) and np.allclose(g[1], np.arange(3.0))
    with pytest.raises(ShapeError, match="grad needs a scalar output"):
        grad(lambda x: ops.mul(x, 2.0))(np.ones(3))


def test_check_grads_catches_a_wrong_backward_rule():
    twice_p = Primitive("test_twice_wrong")
    twice_p.def_abstract_eval(lambda x: x)

    @def_backward(twice_p, uses=())
    def _wrong(ct, x, *, out):
        return (ops.mul(ct, 3.0),)  # should be 2

    from sporeling.compiler.core.primitive import _DEFINED as _PRIMITIVES
    from sporeling.runtime.kernel_registry import get_kernels
    get_kernels().add_kernel("numpy", "test_twice_wrong", lambda b, x, out=None: x * 2)
    try:
        with pytest.raises(GradientCheckError, match="test_twice_wrong.*finite differences"):
            check_grads(lambda x: bind(twice_p, x), [np.ones(3)], name="test_twice_wrong")
    finally:
        del _PRIMITIVES["test_twice_wrong"]


def test_a_primitive_without_backward_rule_names_itself():
    p = Primitive("test_no_rule")
    p.def_abstract_eval(lambda x: x)
    from sporeling.compiler.core.primitive import _DEFINED as _PRIMITIVES
    from sporeling.runtime.kernel_registry import get_kernels
    get_kernels().add_kernel("numpy", "test_no_rule", lambda b, x, out=None: x + 0)
    try:
        with pytest.raises(MissingRuleError, match="'test_no_rule' has no backward rule"):
            grad(lambda x: ops.sum(bind(p, x)))(np.ones(2))
    finally:
        del _PRIMITIVES["test_no_rule"]


def test_failing_kernel_reports_op_and_shapes():
    with pytest.raises(ShapeError, match="add.*\\(2, 3\\) and \\(4, 3\\)"):
        ops.add(np.ones((2, 3)), np.ones((4, 3)))


def test_selective_rules_are_told_which_cotangents_are_wanted():
    seen = []
    p = Primitive("test_selective")
    p.def_abstract_eval(lambda x, y: x)

    @def_backward(p, uses=(), selective=True)
    def _bwd(ct, x, y, *, out, needs):
        seen.append(needs)
        return (ct if needs[0] else None), (ct if needs[1] else None)

    from sporeling.compiler.core.primitive import _DEFINED as _PRIMITIVES
    from sporeling.runtime.kernel_registry import get_kernels
    get_kernels().add_kernel("numpy", "test_selective", lambda b, x, y, out=None: x + y)
    try:
        constant = np.ones(2)
        g = grad(lambda x: ops.sum(bind(p, x, constant)))(np.ones(2))
        assert np.array_equal(g, np.ones(2)) and seen == [(True, False)]
    finally:
        del _PRIMITIVES["test_selective"]
