"""DeepONet learns the antiderivative operator G(u)(y) = int_0^y u(s) ds (the standard
DeepONet demonstration) on functions it never saw."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core.errors import ShapeError
from sporeling.science.operators import DeepONet, antiderivative_dataset, train_deeponet


def _trapezoid(values, dx):
    return dx * (values.sum() - 0.5 * (values[0] + values[-1]))


def test_the_dataset_holds_antiderivatives():
    u, y, s = antiderivative_dataset(3, sensors=101, points=7, length_scale=0.3)
    assert u.shape == (3, 101) and y.shape == (3, 7, 1) and s.shape == (3, 7)
    x = np.linspace(0, 1, 101)
    for row, q, target in zip(u, y[..., 0], s):  # integrate the sensor values independently
        ref = [_trapezoid(np.interp(np.linspace(0, b, 400), x, row), b / 399) for b in q]
        np.testing.assert_allclose(target, ref, atol=2e-3)


def test_deeponet_learns_the_antiderivative_on_unseen_functions():
    sx.set_seed(0)
    u, y, s = antiderivative_dataset(300, sensors=40, points=30, seed=1)
    net = DeepONet([40, 40, 40], [1, 40, 40])
    losses = train_deeponet(net, (u[:250], y[:250], s[:250]), steps=150, batch_size=32,
                            learning_rate=5e-3)
    assert np.mean(losses[-20:]) < 0.05 * losses[0]
    pred = net(sx.Tensor(u[250:]), sx.Tensor(y[250:])).asnumpy()
    rel = np.linalg.norm(pred - s[250:]) / np.linalg.norm(s[250:])
    assert rel < 0.3  # predicting zeros gives 1.0
    grid = np.linspace(0, 1, 5, dtype=np.float32)[:, None]
    shared = net(sx.Tensor(u[250:252]), sx.Tensor(grid))
    assert shared.shape == (2, 5)  # one set of query points for the whole batch


def test_bad_shapes_are_named():
    net = DeepONet([10, 8], [1, 8])
    with pytest.raises(ShapeError, match=r"DeepONet.*\(batch, 10 sensors\).*\(4, 9\)"):
        net(sx.Tensor(np.zeros((4, 9), np.float32)), sx.Tensor(np.zeros((3, 1), np.float32)))
    with pytest.raises(ShapeError,
                       match=r"DeepONet.*query points.*\(4, points, 1\).*\(2, 3, 1\)"):
        net(sx.Tensor(np.zeros((4, 10), np.float32)),
            sx.Tensor(np.zeros((2, 3, 1), np.float32)))
    with pytest.raises(ShapeError, match="same number of features"):
        DeepONet([10, 8], [1, 6])
