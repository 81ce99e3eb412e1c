"""stop_gradient, no_grad, detach, and custom backward functions."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import ShapeError, SporelingError

X = sx.Tensor([1.0, -2.0, 3.0])


def test_stop_gradient_and_detach_make_constants():
    g = sx.grad(lambda x: (x * sx.stop_gradient(x)).sum())(X)
    np.testing.assert_array_equal(g.asnumpy(), X.asnumpy())
    g = sx.grad(lambda x: (x * x.detach() * x.detach()).sum())(X)
    np.testing.assert_array_equal(g.asnumpy(), X.asnumpy() ** 2)
    a, b = sx.stop_gradient((X, [X]))
    assert a._node is None and b[0]._node is None and sx.stop_gradient(3) == 3
    np.testing.assert_array_equal(sx.grad(lambda x: sx.stop_gradient(x * 2.0).sum())(X)
                                  .asnumpy(), [0.0] * 3)


def test_no_grad_as_context_and_decorator():
    @sx.no_grad()
    def scale_of(x):
        assert not sx.is_recording()
        return x * 2.0

    def f(x):
        assert sx.is_recording()
        with sx.no_grad():
            c = x * 3.0
            assert c._node is None
        assert sx.is_recording()
        return (x * c + x * scale_of(x)).sum()
    np.testing.assert_array_equal(sx.grad(f)(X).asnumpy(), 5 * X.asnumpy())
    assert not sx.is_recording()


def test_grad_inside_no_grad_still_works_but_outer_does_not_see_it():
    with sx.no_grad():
        np.testing.assert_array_equal(sx.grad(lambda x: (x * x).sum())(X).asnumpy(),
                                      2 * X.asnumpy())

    def f(x):
        with sx.no_grad():
            inner = sx.grad(lambda y: (y * y * x).sum())(x)  # a constant for the outer grad
        return (inner * x).sum()
    np.testing.assert_allclose(sx.grad(f)(X).asnumpy(), 2 * X.asnumpy() ** 2)


def square_bprop(x, out, dout):
    return (dout * x * 2.0,)


@sx.custom_bprop(square_bprop)
def square(x):
    return x * x


def test_custom_bprop_replaces_the_backward():
    @sx.custom_bprop(lambda x, out, dout: (dout * 0.0 + 7.0,))
    def anything(x):
        return x * x
    np.testing.assert_array_equal(sx.grad(lambda x: anything(x).sum())(X).asnumpy(), [7.0] * 3)
    np.testing.assert_array_equal(sx.grad(lambda x: square(x).sum())(X).asnumpy(),
                                  2 * X.asnumpy())
    assert square(X).tolist() == [1.0, 4.0, 9.0] and square.__name__ == "square"


def test_custom_bprop_sees_inputs_out_and_dout_and_skips_constants():
    seen = {}

    def bprop(x, k, out, dout):
        seen.update(x=x.tolist(), k=k, out=out.tolist(), dout=dout.tolist())
        return dout * k, None

    f = lambda x: (sx.call_with_bprop(lambda x, k: x * k, bprop, x, 3.0) * X).sum()
    np.testing.assert_array_equal(sx.grad(f)(X).asnumpy(), 3 * X.asnumpy())
    assert seen == {"x": X.tolist(), "k": 3.0, "out": (X * 3.0).tolist(), "dout": X.tolist()}


def test_custom_bprop_with_several_outputs_and_a_cell_like_object():
    class Split:
        def construct(self, x, y):
            return x + y, x * y

        def bprop(self, x, y, out, dout):
            d_sum, d_prod = dout
            return d_sum + d_prod * y, d_sum + d_prod * x

    cell = Split()
    f = lambda x, y: (lambda s, p: (s * 2.0 + p).sum())(
        *sx.call_with_bprop(cell.construct, cell.bprop, x, y))
    y = sx.Tensor([0.5, 0.5, 2.0])
    gx, gy = sx.grad(f, (0, 1))(X, y)
    np.testing.assert_allclose(gx.asnumpy(), 2 + y.asnumpy())
    np.testing.assert_allclose(gy.asnumpy(), 2 + X.asnumpy())
    # only the first output used: the second's cotangent arrives as zeros
    gx = sx.grad(lambda x: sx.call_with_bprop(cell.construct, cell.bprop, x, y)[0].sum())(X)
    np.testing.assert_allclose(gx.asnumpy(), [1.0] * 3)


def test_custom_bprop_outside_grad_is_just_the_forward():
    calls = []
    out = sx.call_with_bprop(lambda x: x + 1.0, lambda x, out, dout: calls.append(1), X)
    assert out.tolist() == [2.0, -1.0, 4.0] and calls == []


def test_grad_of_grad_through_a_custom_bprop():
    x = sx.Tensor(np.array([1.5, -0.5]))
    d2 = sx.grad(lambda x: sx.grad(lambda y: square(y).sum())(x).sum())(x)
    np.testing.assert_allclose(d2.asnumpy(), [2.0, 2.0])


@pytest.mark.parametrize("bprop, error, message", [
    (lambda x, out, dout: (dout, dout), SporelingError, "one gradient per input"),
    (lambda x, out, dout: None, SporelingError, "one gradient per input"),
    (lambda x, out, dout: (sx.Tensor([1.0]),), ShapeError, "wrong shape"),
])
def test_custom_bprop_errors_name_the_function(bprop, error, message):
    def my_forward(x):
        return x * 2.0
    with pytest.raises(error, match=f"my_forward.*{message}"):
        sx.grad(lambda x: sx.call_with_bprop(my_forward, bprop, x).sum())(X)


def test_custom_forward_must_return_tensors():
    with pytest.raises(SporelingError, match="must return Tensors"):
        sx.grad(lambda x: sx.call_with_bprop(lambda x: 1.0, lambda x, o, d: (d,), x))(X)


def test_recording_state_is_per_thread():
    import threading
    seen = []

    def worker():
        seen.append(sx.is_recording())
        with sx.no_grad():
            pass

    def f(x):
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        assert sx.is_recording()  # the other thread's no_grad did not pause this grad
        return (x * x).sum()
    np.testing.assert_array_equal(sx.grad(f)(X).asnumpy(), 2 * X.asnumpy())
    assert seen == [False]
