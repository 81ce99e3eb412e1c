"""Tensor (op) Tensor of one dtype skips promotion (the eager hot path, issue 12 §5), and
gives what the op functions give: values, dtypes, gradients, AMP casts, Graph mode."""
from __future__ import annotations

import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.ops import elementwise
import sporeling.expression as se

OPS = [("add", lambda a, b: a + b), ("sub", lambda a, b: a - b),
       ("mul", lambda a, b: a * b), ("div", lambda a, b: a / b)]


@pytest.fixture
def promote_calls(monkeypatch):
    calls = []
    real = elementwise.promote

    def counting(op, *args):
        calls.append(op)
        return real(op, *args)
    monkeypatch.setattr(elementwise, "promote", counting)
    return calls


@pytest.mark.parametrize("name,apply", OPS)
def test_same_dtype_tensors_skip_promote_and_match_the_op(name, apply, promote_calls):
    x = np.array([1.5, -2.0, 3.0], np.float32)
    y = np.array([0.5, 4.0, -1.0], np.float32)
    out = apply(se.Tensor(x), se.Tensor(y))
    assert promote_calls == []
    expected = getattr(ops, name)(x, y)
    assert out.dtype == expected.dtype == np.float32
    np.testing.assert_array_equal(out.asnumpy(), expected)


@pytest.mark.parametrize("name,apply", OPS)
def test_mixed_dtypes_and_scalars_still_promote(name, apply, promote_calls):
    a = se.Tensor(np.array([1, 2, 3], np.int32))
    b = se.Tensor(np.array([0.5, 2.0, 4.0], np.float32))
    out = apply(a, b)
    assert promote_calls == [name]
    assert out.dtype == getattr(ops, name)(a.asnumpy(), b.asnumpy()).dtype
    assert apply(b, 2).dtype == np.float32  # a Python scalar takes the tensor's dtype


def test_integer_division_of_one_dtype_is_float():
    a = se.Tensor(np.array([1, 4], np.int32))
    out = a / se.Tensor(np.array([2, 8], np.int32))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out.asnumpy(), [0.5, 0.5])


def test_fast_path_gradients_match_the_rules():
    x = se.Tensor(np.array([1.0, 2.0, 4.0], np.float32))
    y = se.Tensor(np.array([3.0, -1.0, 2.0], np.float32))

    def f(x, y):
        return ((x + y) * (x - y) / y).sum()
    gx, gy = se.grad(f, grad_position=(0, 1))(x, y)
    xv, yv = x.asnumpy(), y.asnumpy()
    np.testing.assert_allclose(gx.asnumpy(), 2 * xv / yv, rtol=1e-6)
    np.testing.assert_allclose(gy.asnumpy(), -1 - xv ** 2 / yv ** 2, rtol=1e-6)
