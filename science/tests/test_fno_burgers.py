"""FNO-1D on Burgers data: the pseudo-spectral solver against the exact (Cole-Hopf)
solution, the spectral convolution against NumPy, a few training steps lowering the loss,
Graph mode equal to PyNative, and bad input."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core.errors import ShapeError
from sporeling.science.operators import (FNO1d, SpectralConv1d, burgers_dataset,
                                         random_initial_conditions, relative_l2,
                                         solve_burgers, train_fno1d)


def _cole_hopf(x, t, nu, a=0.5):
    """u = -2 nu phi_x / phi with phi = 1 + a exp(-4 pi^2 nu t) cos(2 pi x) (heat equation)."""
    d = a * np.exp(-4 * np.pi ** 2 * nu * t)
    return 4 * np.pi * nu * d * np.sin(2 * np.pi * x) / (1 + d * np.cos(2 * np.pi * x))


@pytest.mark.parametrize("nu", [0.1, 0.02])
def test_burgers_solver_matches_the_exact_solution(nu):
    x = np.arange(64) / 64
    u = solve_burgers(_cole_hopf(x, 0.0, nu), t_final=0.5, nu=nu, dt=2e-3,
                      save_at=[0.25, 0.5])
    assert u.shape == (2, 64)
    for row, t in zip(u, (0.25, 0.5)):
        np.testing.assert_allclose(row, _cole_hopf(x, t, nu), atol=1e-8)


def test_random_initial_conditions_are_real_zero_mean_fields():
    u0 = random_initial_conditions(200, 64, np.random.default_rng(0))
    assert u0.shape == (200, 64)
    np.testing.assert_allclose(u0.mean(axis=1), 0.0, atol=1e-12)
    spec = np.abs(np.fft.rfft(u0)).mean(axis=0)
    assert spec[1] > 10 * spec[8]  # smooth: amplitudes fall like 1 / (4 pi^2 k^2 + 25)


def test_spectral_conv_is_a_complex_product_of_the_low_modes():
    conv = SpectralConv1d(3, 2, modes=4)
    x = np.random.default_rng(1).standard_normal((5, 3, 16)).astype(np.float32)
    w = conv.weight_re.asnumpy() + 1j * conv.weight_im.asnumpy()   # (modes, in, out)
    ref = np.fft.irfft(np.einsum("bim,mio->bom", np.fft.rfft(x)[..., :4], w), 16)
    np.testing.assert_allclose(conv(sx.Tensor(x)).asnumpy(), ref, atol=1e-6)


def test_the_network_is_independent_of_the_grid():
    net = FNO1d(modes=4, width=8, layers=2, hidden=16)
    for n in (16, 40):
        assert net(sx.Tensor(np.zeros((2, n), np.float32))).shape == (2, n)


def test_a_few_training_steps_lower_the_loss_markedly():
    u0, u1 = burgers_dataset(40, 32, nu=0.05, seed=3)
    _, history = train_fno1d((u0[:32], u1[:32]), (u0[32:], u1[32:]), epochs=8,
                             batch_size=8, learning_rate=5e-3, modes=8, width=16)
    assert history["loss"][-1] < 0.5 * history["loss"][0]
    assert history["test_relative_l2"] < 0.6


def test_graph_mode_step_equals_pynative():
    u0, u1 = burgers_dataset(8, 32, nu=0.05, seed=4)
    x, y = sx.Tensor(u0), sx.Tensor(u1)
    net = FNO1d(modes=6, width=8, layers=2, hidden=16)
    loss = lambda a, b: relative_l2(net(a), b)
    weights = net.trainable_params()
    eager, eager_grads = sx.value_and_grad(loss, None, weights)(x, y)
    graph, graph_grads = sx.jit(sx.value_and_grad(loss, None, weights))(x, y)
    np.testing.assert_allclose(graph.asnumpy(), eager.asnumpy(), rtol=1e-5)
    for g, e in zip(graph_grads, eager_grads):
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-4, atol=1e-6)


def test_bad_input_is_named():
    with pytest.raises(ShapeError, match=r"SpectralConv1d.*\(batch, 3, n\).*4 modes.*"
                                         r"got shape \(2, 3, 4\)"):
        SpectralConv1d(3, 3, modes=4)(sx.Tensor(np.zeros((2, 3, 4), np.float32)))
    with pytest.raises(ShapeError, match=r"FNO1d.*\(batch, n\).*\(2, 3, 4\)"):
        FNO1d(modes=2, width=4, layers=1)(sx.Tensor(np.zeros((2, 3, 4), np.float32)))
    with pytest.raises(ShapeError, match="solve_burgers.*n >= 4"):
        solve_burgers(np.zeros(3))
