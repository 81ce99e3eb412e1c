"""Train FNO-1D on Burgers' equation: the map ``u(x, 0) -> u(x, 1)``.

    python -m sporeling.science.operators.train_fno --train 1000 --test 200 --epochs 60

prints the relative L2 test error and the time (figures in the package README). The
training step (loss, gradients, Adam) is compiled into one graph (``sx.jit``).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import sporeling.expression as sx

from .burgers import burgers_dataset
from .fno import FNO1d

__all__ = ["relative_l2", "train_fno1d", "main"]


def relative_l2(pred, target):
    """Mean over the batch of ``||pred - target|| / ||target||`` (the FNO paper's loss)."""
    err = sx.ops.sum(sx.ops.square(pred - target), axis=1)
    return sx.ops.mean(sx.ops.sqrt(err / sx.ops.sum(sx.ops.square(target), axis=1)))


def train_fno1d(train, test, *, epochs: int = 20, batch_size: int = 20,
                learning_rate: float = 1e-3, modes: int = 16, width: int = 32,
                seed: int = 0, graph: bool = True, log=None):
    """Train an :class:`FNO1d` on ``train = (u0, u1)`` arrays of shape (num, n); returns
    ``(net, history)`` with the per-epoch training loss and the final relative L2 error on
    ``test``. Learning rate halves at 1/2 and 3/4 of the epochs."""
    sx.set_seed(seed)
    net = FNO1d(modes=modes, width=width, seed=seed)
    u0, u1 = (np.asarray(a, np.float32) for a in train)
    steps_per_epoch = len(u0) // batch_size
    per_epoch = [learning_rate if e < epochs // 2 else learning_rate / 2
                 if e < 3 * epochs // 4 else learning_rate / 4 for e in range(epochs)]
    opt = sx.nn.Adam(net.trainable_params(),  # per-step values: read in the compiled step
                     learning_rate=np.repeat(per_epoch, steps_per_epoch).astype(np.float32))
    grad_fn = sx.value_and_grad(lambda x, y: relative_l2(net(x), y), None, opt.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    step = sx.jit(step) if graph else step
    rng = np.random.default_rng(seed)
    history = {"loss": [], "seconds": 0.0}
    start = time.perf_counter()
    for epoch in range(epochs):
        order = rng.permutation(len(u0))
        losses = []
        for b in range(0, len(order) - batch_size + 1, batch_size):
            idx = order[b:b + batch_size]
            losses.append(float(step(sx.Tensor(u0[idx]), sx.Tensor(u1[idx])).asnumpy()))
        history["loss"].append(float(np.mean(losses)))
        if log:
            log(f"epoch {epoch + 1}/{epochs}: train relative L2 {history['loss'][-1]:.4f}")
    history["seconds"] = time.perf_counter() - start
    history["test_relative_l2"] = evaluate(net, test)
    return net, history


def evaluate(net, data, batch_size: int = 100) -> float:
    """The mean relative L2 error of ``net`` on ``data = (u0, u1)``."""
    u0, u1 = data
    errs = []
    with sx.no_grad():
        for b in range(0, len(u0), batch_size):
            pred = net(sx.Tensor(np.asarray(u0[b:b + batch_size], np.float32))).asnumpy()
            ref = np.asarray(u1[b:b + batch_size], np.float64)
            errs.append(np.linalg.norm(pred - ref, axis=1) / np.linalg.norm(ref, axis=1))
    return float(np.mean(np.concatenate(errs)))


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--train", type=int, default=1000)
    p.add_argument("--test", type=int, default=200)
    p.add_argument("--n", type=int, default=128, help="grid points of the data")
    p.add_argument("--nu", type=float, default=0.02)
    p.add_argument("--epochs", type=int, default=60)
    p.add_argument("--batch-size", type=int, default=20)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--modes", type=int, default=16)
    p.add_argument("--width", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    u0, u1 = burgers_dataset(args.train + args.test, args.n, nu=args.nu, seed=args.seed)
    data_seconds = time.perf_counter() - t0
    print(f"data: {args.train + args.test} Burgers solutions (nu={args.nu}, n={args.n}) "
          f"in {data_seconds:.1f} s", flush=True)
    split = args.train
    _, history = train_fno1d((u0[:split], u1[:split]), (u0[split:], u1[split:]),
                             epochs=args.epochs, batch_size=args.batch_size,
                             learning_rate=args.lr, modes=args.modes, width=args.width,
                             seed=args.seed, log=lambda m: print(m, flush=True))
    print(f"test relative L2 error: {history['test_relative_l2']:.4f} "
          f"(train {history['loss'][-1]:.4f}); training {history['seconds']:.0f} s")
    return history


if __name__ == "__main__":
    main()
