"""Bayes by backprop on noisy 1-D data: y = sin(x) + N(0, 0.1^2), x in [-3, 3].

    python plugins/probability/examples/bnn_regression.py [--steps 1500] [--graph]

Prints the negative ELBO per example (every 100 steps), then the RMSE of the predictive
mean (50 weight draws) against sin(x), and the mean predictive standard deviation inside
and outside the training range.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import sporeling.expression as sx
import sporeling.probability as sp
from sporeling.expression import nn


def main(argv=None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--n", type=int, default=128, help="training examples")
    parser.add_argument("--graph", action="store_true", help="compile the training step")
    args = parser.parse_args(argv)
    sx.set_seed(0)
    if args.graph:
        sx.set_context(mode=sx.GRAPH_MODE)
    rng = np.random.default_rng(0)
    sigma = 0.1
    x = rng.uniform(-3, 3, (args.n, 1)).astype(np.float32)
    y = (np.sin(x) + sigma * rng.standard_normal((args.n, 1))).astype(np.float32)

    net = nn.SequentialCell([sp.DenseReparameterization(1, 32, activation="tanh"),
                             sp.DenseReparameterization(32, 1)])
    # -ELBO / N = mean Gaussian NLL + KL(q || p) / N   (constants of the NLL dropped)
    gaussian_nll = lambda out, t: ((out - t) ** 2).mean() / (2 * sigma ** 2)
    neg_elbo = sp.WithBNNLossCell(net, gaussian_nll, bnn_factor=1.0 / args.n)
    step = nn.TrainOneStepCell(neg_elbo, nn.Adam(net.trainable_params(), 0.02))

    start, losses = time.perf_counter(), []
    xt, yt = sx.Tensor(x), sx.Tensor(y)
    for i in range(args.steps):
        losses.append(float(step(xt, yt).asnumpy()))
        if i % 100 == 0 or i == args.steps - 1:
            print(f"step {i:5d}  -ELBO/N {np.mean(losses[-100:]):9.4f}")
    seconds = time.perf_counter() - start
    sx.set_context(mode=sx.PYNATIVE_MODE)

    grid = np.linspace(-4.5, 4.5, 91, dtype=np.float32).reshape(-1, 1)
    draws = np.stack([net(sx.Tensor(grid)).asnumpy() for _ in range(50)])
    mean, std = draws.mean(0), draws.std(0)
    inside = np.abs(grid) <= 3
    rmse = float(np.sqrt(np.mean((mean[inside] - np.sin(grid[inside])) ** 2)))
    print(f"trained {args.steps} steps in {seconds:.1f} s; predictive-mean RMSE vs sin(x) "
          f"on [-3, 3]: {rmse:.3f} (noise sd {sigma})")
    print(f"predictive sd: {std[inside].mean():.3f} inside the data, "
          f"{std[~inside].mean():.3f} outside")
    return rmse


if __name__ == "__main__":
    main()
