"""grad / value_and_grad: MindSpore's semantics for grad_position, weights, has_aux, sens;
their errors; what the function sees and what comes back."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression.autograd.state import STATE

W = sx.Parameter(sx.Tensor([1.0, 2.0, 3.0]), name="w")
B = sx.Parameter(sx.Tensor(0.5), name="b")
X, Y = sx.Tensor([1.0, -1.0, 2.0]), sx.Tensor([3.0, 4.0, 5.0])


def f(x, y):
    """sum(w * x * y) + b * sum(x); d/dx = w*y + b, d/dy = w*x, d/dw = x*y, d/db = sum(x)."""
    return (W * x * y).sum() + B * x.sum()


DX = (W.asnumpy() * Y.asnumpy() + 0.5)
DY = (W.asnumpy() * X.asnumpy())
DW = X.asnumpy() * Y.asnumpy()
DB = np.float32(2.0)


def close(got, want):
    assert isinstance(got, sx.Tensor), type(got)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)


def test_int_position_gives_one_gradient():
    close(sx.grad(f)(X, Y), DX)
    close(sx.grad(f, 1)(X, Y), DY)


def test_tuple_of_positions_gives_a_tuple():
    gx, gy = sx.grad(f, (0, 1))(X, Y)
    close(gx, DX), close(gy, DY)
    (gy,) = sx.grad(f, (1,))(X, Y)
    close(gy, DY)


def test_weights_only():
    gw, gb = sx.grad(f, None, [W, B])(X, Y)
    close(gw, DW), close(gb, DB)
    close(sx.grad(f, None, W)(X, Y), DW)  # a single Parameter: a single gradient
    (gb,) = sx.grad(f, None, sx.ParameterTuple([B]))(X, Y)
    close(gb, DB)


def test_positions_and_weights():
    gx, (gw, gb) = sx.grad(f, 0, (W, B))(X, Y)
    close(gx, DX), close(gw, DW), close(gb, DB)
    (gx, gy), gw = sx.grad(f, (0, 1), W)(X, Y)
    close(gx, DX), close(gy, DY), close(gw, DW)


def test_value_and_grad_returns_the_value_too():
    value, (gx, gy) = sx.value_and_grad(f, (0, 1))(X, Y)
    assert value.item() == pytest.approx(f(X, Y).item())
    close(gx, DX)
    value, gw = sx.value_and_grad(f, None, W)(X, Y)
    close(gw, DW)


def test_has_aux_differentiates_only_the_first_output():
    def g(x, y):
        out = f(x, y)
        return out, x * 10.0, y.sum()
    (value, aux1, aux2), gx = sx.value_and_grad(g, has_aux=True)(X, Y)
    close(gx, DX)
    close(aux1, X.asnumpy() * 10.0)
    assert aux2.item() == 12.0 and value.item() == pytest.approx(f(X, Y).item())
    gx, aux = sx.grad(g, 0, has_aux=True)(X, Y)
    close(gx, DX)
    assert isinstance(aux, tuple) and len(aux) == 2
    gx, aux = sx.grad(lambda x: (x.sum(), x), has_aux=True)(X)
    assert len(aux) == 1 and aux[0]._node is None


def test_sens_gives_the_output_cotangent():
    ct = sx.Tensor([1.0, 0.0, 2.0])
    g = sx.grad(lambda x: x * x, sens_param=True)(X, ct)
    close(g, 2 * X.asnumpy() * ct.asnumpy())
    value, g = sx.value_and_grad(lambda x, y: (x * y, x.sum()), (0, 1), sens_param=True)(
        X, Y, (ct, sx.Tensor(3.0)))
    close(g[0], Y.asnumpy() * ct.asnumpy() + 3.0)
    close(g[1], X.asnumpy() * ct.asnumpy())
    # with has_aux the cotangent is for the first output only
    g, aux = sx.grad(lambda x: (x * 2.0, x), 0, None, True, True)(X, ct)
    close(g, 2 * ct.asnumpy())
    # sens as an array or with another float dtype
    close(sx.grad(lambda x: x * 3.0, sens_param=True)(X, np.ones(3, np.float64)), [3.0] * 3)


def test_tuple_outputs_of_scalars_add_their_gradients():
    g = sx.grad(lambda x: (x.sum(), (x * x).sum()))(X)
    close(g, 1 + 2 * X.asnumpy())


def test_integer_and_unused_inputs_get_zeros():
    gi, gx = sx.grad(lambda i, x: (i * x).sum(), (0, 1))(sx.Tensor([1, 2, 3]), X)
    assert gi.dtype == np.int64 and gi.tolist() == [0, 0, 0]
    close(gx, [1.0, 2.0, 3.0])
    gx, gy = sx.grad(lambda x, y: (x * 2.0).sum(), (0, 1))(X, Y)
    close(gy, np.zeros(3))
    gb = sx.grad(lambda x: x.sum(), None, B)(X)
    close(gb, 0.0)
    assert sx.grad(lambda x: sx.Tensor(1.0), 0)(X).tolist() == [0.0] * 3  # a constant output


def test_arrays_and_python_numbers_are_accepted_as_inputs():
    close(sx.grad(lambda x: (x * x).sum())(np.array([1.0, 2.0], np.float32)), [2.0, 4.0])
    close(sx.grad(lambda x: x * x)(3.0), 6.0)
    assert sx.grad(lambda x, n: (x ** n).sum())(X, 2).shape == (3,)  # n is not differentiated


def test_kwargs_pass_through():
    close(sx.grad(lambda x, scale=1.0: (x * scale).sum())(X, scale=4.0), [4.0] * 3)


@pytest.mark.parametrize("call, message", [
    (lambda: sx.grad(f, None, None), "nothing to differentiate"),
    (lambda: sx.grad(f, 2)(X, Y), "grad_position out of range"),
    (lambda: sx.grad(f, (0, 5))(X, Y), "grad_position out of range"),
    (lambda: sx.grad(f, -1), "must not be negative"),
    (lambda: sx.grad(f, "0"), "bad grad_position"),
    (lambda: sx.grad(f, ()), "bad grad_position"),
    (lambda: sx.grad(f, True), "bad grad_position"),
    (lambda: sx.grad(f, 0, [W, X]), r"weights must be Parameters.*Tensor at position 1"),
    (lambda: sx.grad(f, 0, {"w": W}), "bad weights"),
    (lambda: sx.grad(lambda x: x * 2.0)(X), r"not a scalar.*output 0 of shape \[3\]"),
    (lambda: sx.grad(lambda x: (x.sum(), x))(X), "output 1 of shape"),
    (lambda: sx.grad(lambda x: x.sum(), has_aux=True)(X), "has_aux=True needs"),
    (lambda: sx.grad(lambda x: x * 2.0, sens_param=True)(X, sx.Tensor([1.0])),
     "sens has the wrong shape"),
    (lambda: sx.grad(lambda x: x * 2.0, sens_param=True)(X, (X, X)), "sens does not match"),
    (lambda: sx.grad(lambda x: x, sens_param=True)(), "needs the cotangent"),
    (lambda: sx.grad(lambda x: (x > 0).sum())(X), "non-float output"),
    (lambda: sx.grad(lambda x: "text")(X), "the output is not a tensor"),
])
def test_errors_say_what_was_expected(call, message):
    with pytest.raises(sx.GradError, match=message):
        call()


def test_value_and_gradients_are_detached_and_state_restored():
    value, (gx, gw) = sx.value_and_grad(f, 0, W)(X, Y)
    assert value._node is None and gx._node is None and gw._node is None
    assert W._node is None and STATE.level == 0 and STATE.tape is None


def test_errors_inside_the_function_restore_the_state():
    def bad(x):
        (W * x).sum()
        raise RuntimeError("boom")
    with pytest.raises(RuntimeError, match="boom"):
        sx.grad(bad, 0, W)(X)
    assert W._node is None and STATE.level == 0 and STATE.tape is None


def test_a_tensor_escaping_one_grad_is_a_constant_in_the_next():
    kept = []

    def g(x):
        y = x * x
        kept.append(y)
        return y.sum()
    sx.grad(g)(X)
    stale = kept[0]
    assert stale._node is not None  # released history, from a finished grad
    close(sx.grad(lambda x: (x * stale).sum())(X), stale.asnumpy())


def test_the_same_tensor_at_two_positions_gets_two_gradients():
    gx1, gx2 = sx.grad(lambda a, b: (a * 2.0 + b * 3.0).sum(), (0, 1))(X, X)
    close(gx1, [2.0] * 3), close(gx2, [3.0] * 3)
    gw, gw2 = sx.grad(lambda x: (W * x).sum(), None, [W, W])(X)
    close(gw, X.asnumpy()), close(gw2, X.asnumpy())


def test_gradients_keep_the_input_dtype():
    for dtype in (np.float16, np.float64, sx.bfloat16):
        x = sx.Tensor(np.ones(2, dtype))
        assert sx.grad(lambda x: (x * x).sum())(x).dtype == dtype
    h = sx.Tensor(np.ones(2, np.float16))
    assert sx.grad(lambda x: (x.astype(sx.float32) * 3.0).sum())(h).dtype == np.float16
