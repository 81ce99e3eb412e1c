"""The Fourier primitives: values against np.fft, gradients against finite differences (to
second order), batching rules under vmap, Graph mode, the plugin hooks, bad input."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler import primitives
from sporeling.compiler.testing import check_grads
from sporeling.compiler.transforms import vmap
from sporeling.core.errors import DTypeError, ShapeError
from sporeling.science.operators import fft, ifft, irfft, rfft

RNG = np.random.default_rng(0)


def _c(pair):
    return np.asarray(pair[0]) + 1j * np.asarray(pair[1])


@pytest.mark.parametrize("n", [1, 2, 7, 8])
def test_rfft_and_irfft_match_numpy(n):
    x = RNG.standard_normal((3, n))
    np.testing.assert_allclose(_c(rfft(x)), np.fft.rfft(x), atol=1e-12)
    spec = np.fft.rfft(x)
    np.testing.assert_allclose(irfft(spec.real, spec.imag, n), np.fft.irfft(spec, n), atol=1e-12)


def test_irfft_pads_a_truncated_spectrum_with_zeros():
    spec = RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3))
    np.testing.assert_allclose(irfft(spec.real, spec.imag, 16), np.fft.irfft(spec, 16),
                               atol=1e-12)
    assert irfft(spec.real, spec.imag).shape == (2, 4)  # n = 2 * (modes - 1)


def test_complex_fft_and_ifft_match_numpy():
    z = RNG.standard_normal((2, 3, 6)) + 1j * RNG.standard_normal((2, 3, 6))
    np.testing.assert_allclose(_c(fft(z.real, z.imag)), np.fft.fft(z), atol=1e-12)
    np.testing.assert_allclose(_c(ifft(z.real, z.imag)), np.fft.ifft(z), atol=1e-12)


def test_float32_stays_float32_and_ints_become_float32():
    re, im = rfft(np.ones((2, 4), np.float32))
    assert re.dtype == im.dtype == np.float32
    assert rfft(np.arange(4))[0].dtype == np.float32
    assert irfft(re, im, 4).dtype == np.float32


@pytest.mark.parametrize("n", [6, 7])
def test_rfft_gradients_to_second_order(n):
    check_grads(rfft, [RNG.standard_normal((2, n))], order=2, name="rfft")
    check_grads(lambda x: rfft(x)[1], [RNG.standard_normal((n,))], order=2, name="rfft imag")


@pytest.mark.parametrize("n, modes", [(8, 5), (9, 5), (8, 3), (9, 2)])
def test_irfft_gradients_to_second_order(n, modes):
    args = [RNG.standard_normal((2, modes)), RNG.standard_normal((2, modes))]
    check_grads(lambda a, b: irfft(a, b, n), args, order=2, name="irfft")


def test_complex_fft_gradients_to_second_order():
    args = [RNG.standard_normal((2, 5)), RNG.standard_normal((2, 5))]
    check_grads(fft, args, order=2, name="fft")
    check_grads(ifft, args, order=2, name="ifft")
    check_grads(lambda a, b: fft(a, b)[0], args, order=2, name="fft real part only")


def test_batching_rules_under_vmap():
    x = RNG.standard_normal((4, 3, 8))
    re, im = vmap(rfft, in_axes=1)(x)  # the batch on a middle axis
    np.testing.assert_allclose(re + 1j * im, np.fft.rfft(x.transpose(1, 0, 2)), atol=1e-12)
    re, im = vmap(rfft, in_axes=1)(x.transpose(0, 2, 1))  # the batch on the last axis
    np.testing.assert_allclose(re + 1j * im, np.fft.rfft(x.transpose(2, 0, 1)), atol=1e-12)
    a, b = RNG.standard_normal((4, 5)), RNG.standard_normal(5)  # b is not batched
    y = vmap(lambda a, b: irfft(a, b, 8), in_axes=(0, None))(a, b)
    np.testing.assert_allclose(y, np.fft.irfft(a + 1j * b, 8), atol=1e-12)
    for op, ref in ((fft, np.fft.fft), (ifft, np.fft.ifft)):
        out = vmap(op, in_axes=(None, 1))(b, a.T)
        np.testing.assert_allclose(_c(out), ref(b + 1j * a), atol=1e-12)


def test_vmap_of_the_gradient():
    from sporeling.compiler.autodiff import grad
    x = RNG.standard_normal((3, 8))
    per_row = vmap(grad(lambda v: sx.ops.sum(sx.ops.square(rfft(v)[0]))))(x)
    for row, g in zip(x, per_row):
        np.testing.assert_allclose(g, grad(lambda v: sx.ops.sum(sx.ops.square(rfft(v)[0])))(row),
                                   atol=1e-10)


def test_graph_mode_matches_pynative_values_and_gradients():
    x = sx.Tensor(RNG.standard_normal((3, 8)).astype(np.float32))

    def loss(v):
        re, im = rfft(v)
        return sx.ops.sum(irfft(re * 2.0, im, 8) ** 2)

    eager_value, eager_grad = sx.value_and_grad(loss)(x)
    value, g = sx.jit(sx.value_and_grad(loss))(x)
    np.testing.assert_allclose(value.asnumpy(), eager_value.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(g.asnumpy(), eager_grad.asnumpy(), rtol=1e-5, atol=1e-5)


def test_contributed_through_the_plugin_hooks():
    names = set(primitives())
    assert {"science_rfft", "science_irfft", "science_fft", "science_ifft"} <= names
    assert all(primitives()[n].amp == "black" for n in names if n.startswith("science_"))
    from sporeling.compiler import eager
    for name in ("science_rfft", "science_irfft", "science_fft", "science_ifft"):
        assert callable(eager.kernel(name))


def test_bad_input_names_the_op_and_shapes():
    with pytest.raises(ShapeError,
                       match=r"irfft.*at most n//2 \+ 1 = 3.*\(2, 5\).*test_fft_primitives.py"):
        irfft(np.zeros((2, 5)), np.zeros((2, 5)), 4)
    with pytest.raises(ShapeError, match=r"fft.*\(2, 5\) and \(2, 4\)"):
        fft(np.zeros((2, 5)), np.zeros((2, 4)))
    with pytest.raises(ShapeError, match=r"rfft.*at least 1 dimension.*\(\)"):
        rfft(np.float32(1.0))
    with pytest.raises(ShapeError, match="positive output length"):
        irfft(np.zeros(1), np.zeros(1))
    with pytest.raises(DTypeError, match="rfft.*float"):
        from sporeling.science.operators.fft import rfft_p
        rfft_p.abstract(np.zeros(3, np.int32))


def test_docstring_examples_run():
    from sporeling.core.testing import run_doctests
    failed, attempted = run_doctests("sporeling.science.operators")
    assert failed == 0 and attempted > 0


def test_gradients_match_torch():
    torch = pytest.importorskip("torch")
    from sporeling.compiler.autodiff import vjp
    x = RNG.standard_normal((2, 9))
    g_re, g_im = RNG.standard_normal((2, 5)), RNG.standard_normal((2, 5))
    _, back = vjp(rfft, x)
    (ours,) = back((g_re, g_im))
    tx = torch.tensor(x, requires_grad=True)
    spec = torch.fft.rfft(tx)
    loss = torch.sum(spec.real * torch.tensor(g_re)) + torch.sum(spec.imag * torch.tensor(g_im))
    loss.backward()
    np.testing.assert_allclose(ours, tx.grad.numpy(), atol=1e-12)
    re, im = RNG.standard_normal((2, 4)), RNG.standard_normal((2, 4))
    g = RNG.standard_normal((2, 8))
    _, back = vjp(lambda a, b: irfft(a, b, 8), re, im)
    ours = back(g)
    tz = torch.tensor(re + 1j * im, requires_grad=True)
    torch.sum(torch.fft.irfft(tz, 8) * torch.tensor(g)).backward()
    # torch's complex gradient is conj-Wirtinger: d/d(re) + i d/d(im)
    np.testing.assert_allclose(ours[0], tz.grad.real.numpy(), atol=1e-12)
    np.testing.assert_allclose(ours[1], tz.grad.imag.numpy(), atol=1e-12)
