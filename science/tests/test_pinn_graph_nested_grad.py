"""The minimal case of a Graph-mode bug the PINN solver works around (solver.py's
``_under_extra_grad_level``), kept here so the day it is fixed this test says so.

``jit(grad(grad(f)))`` fails at run time when ``f`` reads an intermediate of a Parameter:
the outermost backward runs on raw tracers, but nodes recorded under the inner ``grad``
saved Tensors; ``bind(mul, <tracer>, <Tensor>)`` goes to the tracer's interpreter, which
captures the Tensor as an outside value, and the compiled program then reads that Tensor's
tracer ("a traced value has no data"). PyNative is right; a single extra recording level
around the whole function makes Graph mode right (``test_graph_mode_equals_pynative``).
"""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import SporelingError
from sporeling.expression import ops


def _second_derivative():
    w = sx.Parameter(np.array([0.5, 2.0]), name="nested_grad_w")
    first = sx.grad(lambda x: ops.sin(x * w[0]).sum())
    return sx.grad(lambda x: first(x).sum()), w


def test_nested_grad_in_pynative_is_right():
    second, w = _second_derivative()
    x = np.array([0.3, 0.7])
    np.testing.assert_allclose(second(sx.Tensor(x)).asnumpy(), -0.25 * np.sin(0.5 * x))


@pytest.mark.xfail(strict=True, raises=SporelingError,
                   reason="nested grad under jit with a Parameter intermediate (see doc)")
def test_nested_grad_under_jit():
    second, w = _second_derivative()
    x = np.array([0.3, 0.7])
    np.testing.assert_allclose(sx.jit(second)(sx.Tensor(x)).asnumpy(),
                               -0.25 * np.sin(0.5 * x))


def test_one_extra_grad_level_makes_it_compile():
    second, w = _second_derivative()
    outer = sx.grad(lambda x: (x.sum() * 0.0, second(x)), 0, has_aux=True)
    x = np.array([0.3, 0.7])
    got = sx.jit(lambda x: outer(x)[1][0])(sx.Tensor(x))
    np.testing.assert_allclose(got.asnumpy(), -0.25 * np.sin(0.5 * x))
