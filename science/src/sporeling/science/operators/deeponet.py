"""DeepONet (Lu et al., *Learning nonlinear operators via DeepONet*, Nature Machine
Intelligence 2021): ``G(u)(y) = sum_k branch_k(u) * trunk_k(y) + b``.

The branch net reads the input function at ``m`` fixed sensors, the trunk net reads a query
point; their ``p`` features meet in a dot product. The standard demonstration is the
antiderivative operator ``G(u)(y) = int_0^y u(s) ds`` (:func:`antiderivative_dataset`).
"""
from __future__ import annotations

import numpy as np

from sporeling.core.errors import ShapeError
from sporeling.expression import Parameter, nn, ops

__all__ = ["DeepONet", "antiderivative_dataset", "gaussian_random_functions",
           "train_deeponet"]


def _mlp(sizes, activation, last_activation):
    layers = []
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        act = activation if i < len(sizes) - 2 or last_activation else None
        layers.append(nn.Dense(a, b, activation=act))
    return nn.SequentialCell(layers)


class DeepONet(nn.Cell):
    """``branch_sizes`` starts with the number of sensors, ``trunk_sizes`` with the query
    dimension; both end with the same number of features ``p``.

    ``construct(u, y)``: ``u`` (batch, sensors); ``y`` (points, dim) shared by the batch or
    (batch, points, dim) per function. Returns (batch, points)."""

    def __init__(self, branch_sizes, trunk_sizes, activation: str = "tanh"):
        super().__init__()
        if branch_sizes[-1] != trunk_sizes[-1]:
            raise ShapeError("branch and trunk must end in the same number of features",
                             op="DeepONet", expected="branch_sizes[-1] == trunk_sizes[-1]",
                             got=f"{branch_sizes[-1]} and {trunk_sizes[-1]}")
        self.sensors, self.dim = branch_sizes[0], trunk_sizes[0]
        self.branch = _mlp(branch_sizes, activation, last_activation=False)
        self.trunk = _mlp(trunk_sizes, activation, last_activation=True)
        self.bias = Parameter(np.zeros((), np.float32), name="bias")

    def construct(self, u, y):
        if u.ndim != 2 or u.shape[1] != self.sensors:
            raise ShapeError("bad input function", op="DeepONet",
                             expected=f"u of shape (batch, {self.sensors} sensors)",
                             got=f"shape {tuple(u.shape)}")
        if y.ndim not in (2, 3) or y.shape[-1] != self.dim or \
                (y.ndim == 3 and y.shape[0] != u.shape[0]):
            raise ShapeError("bad query points", op="DeepONet",
                             expected=f"y of shape (points, {self.dim}) or "
                                      f"({u.shape[0]}, points, {self.dim})",
                             got=f"shape {tuple(y.shape)}")
        b = self.branch(u)                                    # (batch, p)
        t = self.trunk(y)                                     # (points, p) or (batch, points, p)
        if y.ndim == 2:
            return ops.matmul(b, ops.transpose(t, (1, 0))) + self.bias
        return ops.einsum("bp,bqp->bq", b, t) + self.bias


def gaussian_random_functions(num: int, grid: np.ndarray, rng: np.random.Generator,
                              length_scale: float = 0.2) -> np.ndarray:
    """``num`` samples on ``grid`` of a zero-mean Gaussian process with the squared
    exponential kernel of ``length_scale`` (DeepONet's GRF inputs)."""
    d = grid[:, None] - grid[None, :]
    cov = np.exp(-0.5 * (d / length_scale) ** 2) + 1e-10 * np.eye(len(grid))
    return rng.standard_normal((num, len(grid))) @ np.linalg.cholesky(cov).T


def antiderivative_dataset(num: int, sensors: int = 50, points: int = 50, *,
                           seed: int = 0, length_scale: float = 0.2, fine: int = 1001):
    """``(u, y, s)``: ``u`` (num, sensors) the input functions at uniform sensors on [0, 1],
    ``y`` (num, points, 1) random query points, ``s`` (num, points) the antiderivatives
    ``int_0^y u`` there (trapezoid rule on ``fine`` points, then linear interpolation);
    float32."""
    rng = np.random.default_rng(seed)
    grid = np.linspace(0.0, 1.0, fine)
    u_fine = gaussian_random_functions(num, grid, rng, length_scale)
    steps = np.diff(grid)
    s_fine = np.concatenate([np.zeros((num, 1)),
                             np.cumsum(0.5 * (u_fine[:, 1:] + u_fine[:, :-1]) * steps, axis=1)],
                            axis=1)
    sensor_x = np.linspace(0.0, 1.0, sensors)
    u = np.stack([np.interp(sensor_x, grid, row) for row in u_fine])
    y = rng.random((num, points))
    s = np.stack([np.interp(q, grid, row) for q, row in zip(y, s_fine)])
    return u.astype(np.float32), y[..., None].astype(np.float32), s.astype(np.float32)


def train_deeponet(net: DeepONet, data, *, steps: int = 2000, batch_size: int = 50,
                   learning_rate: float = 2e-3, seed: int = 0, graph: bool = True):
    """Fit ``net`` to ``data = (u, y, s)`` (as :func:`antiderivative_dataset` gives) by Adam
    on the mean squared error; returns the loss of every step."""
    import sporeling.expression as sx

    u, y, s = (np.asarray(a, np.float32) for a in data)
    opt = nn.Adam(net.trainable_params(), learning_rate=learning_rate)
    grad_fn = sx.value_and_grad(lambda a, b, c: ops.mean(ops.square(net(a, b) - c)), None,
                                opt.parameters)

    def step(a, b, c):
        loss, grads = grad_fn(a, b, c)
        opt(grads)
        return loss

    step = sx.jit(step) if graph else step
    rng = np.random.default_rng(seed)
    losses = []
    for _ in range(steps):
        idx = rng.choice(len(u), min(batch_size, len(u)), replace=False)
        losses.append(float(step(sx.Tensor(u[idx]), sx.Tensor(y[idx]),
                                 sx.Tensor(s[idx])).asnumpy()))
    return losses
