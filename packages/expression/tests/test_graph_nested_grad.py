"""Nested ``grad`` compiles: ``jit(grad(grad(f)))`` where ``f`` reads an intermediate of a
Parameter. The outermost backward runs on raw tracers while nodes recorded under the inner
``grad`` saved Tensors holding those tracers; the trace must take such a Tensor as its own
value, not capture it as an outside one (whose data, at run time, would be a tracer)."""
import numpy as np

import sporeling.expression as sx
from sporeling.expression import ops


def _second_derivative():
    w = sx.Parameter(np.array([0.5, 2.0]), name="nested_grad_w")
    first = sx.grad(lambda x: ops.sin(x * w[0]).sum())
    return sx.grad(lambda x: first(x).sum())


def test_nested_grad_in_pynative_and_under_jit_agree_with_the_closed_form():
    second = _second_derivative()
    x = np.array([0.3, 0.7])
    want = -0.25 * np.sin(0.5 * x)
    np.testing.assert_allclose(second(sx.Tensor(x)).asnumpy(), want)
    compiled = sx.jit(second)
    for _ in range(2):  # compiled once, run twice
        np.testing.assert_allclose(compiled(sx.Tensor(x)).asnumpy(), want)
