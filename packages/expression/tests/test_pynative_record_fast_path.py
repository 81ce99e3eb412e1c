"""Recording an op whose operands are all plain arrays skips the scan for traced values
(the per-op grad hot path, issue 12 §5); a Tensor holding a traced value still gets it."""
from __future__ import annotations

import numpy as np

import sporeling.expression as se
from sporeling.expression.autograd import interpreter


def test_recording_plain_arrays_does_not_scan_for_traced_values(monkeypatch):
    calls = []
    real = interpreter._any_traced
    monkeypatch.setattr(interpreter, "_any_traced",
                        lambda inner: calls.append(len(inner)) or real(inner))
    x = se.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    g = se.grad(lambda x: (se.ops.exp(x) * x).sum())(x)
    xv = x.asnumpy()
    np.testing.assert_allclose(g.asnumpy(), np.exp(xv) * (1 + xv), rtol=1e-6)
    assert calls == []


def test_grad_of_a_jit_function_still_records_through_the_trace():
    # Graph mode under grad: the Tensors hold traced values, which the scan must still see
    x = se.Tensor(np.array([1.0, 2.0], np.float32))

    @se.jit
    def f(x):
        return (x * x).sum()
    g = se.grad(f)(x)
    np.testing.assert_allclose(g.asnumpy(), 2 * x.asnumpy())
