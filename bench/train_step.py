"""Training-step speed, side by side: Sporeling PyNative vs hand-written NumPy vs PyTorch.

(a) MLP 784-512-512-10, batch 128, SGD with momentum; (b) LeNet-5 on 1x28x28, batch 64;
(c) per-op cost of a 10-op chain on 8-element tensors, forward + backward, and of one
    no-grad op (the dispatch cost alone).

All contenders start from the same weights and take the same steps, so their losses must
agree (printed as a check). Timed in blocks of steps with 0.3 s idle before each block and
the order alternating (``bench/timing.py``); medians and the spread over blocks. Sporeling
runs in PyNative and in Graph mode (the whole step, update included, one compiled graph).

    python bench/train_step.py [--blocks 7 --steps 10] [--clock cpu]

``--clock cpu`` times the tiny-tensor rows by this thread's CPU time (a machine shared with
other jobs); the model rows stay on the wall clock (BLAS works in other threads).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from reference.lenet import NumpyLeNet  # noqa: E402
from reference.mlp import NumpyMLP  # noqa: E402
from timing import Timing, clock_named, compare, print_table, ratio  # noqa: E402

import sporeling.expression as sx  # noqa: E402
from sporeling.expression import nn  # noqa: E402

try:
    import torch
    torch.set_num_threads(2)
except ImportError:  # PyTorch is optional: only a comparison
    torch = None

LR, MOMENTUM = 0.01, 0.9


def sporeling_mlp(ref: NumpyMLP):
    layers = []
    for i in range(0, len(ref.params), 2):
        w, b = ref.params[i], ref.params[i + 1]
        dense = nn.Dense(w.shape[0], w.shape[1])
        dense.weight.set_data(sx.Tensor(w.T.copy()))
        dense.bias.set_data(sx.Tensor(b.copy()))
        layers += [dense, nn.ReLU()]
    return nn.SequentialCell(*layers[:-1])


def sporeling_lenet(ref: NumpyLeNet):
    p = ref.params
    net = nn.SequentialCell(
        nn.Conv2d(1, 6, 5, pad_mode="pad", padding=2, has_bias=True), nn.ReLU(),
        nn.MaxPool2d(2, 2),
        nn.Conv2d(6, 16, 5, pad_mode="valid", has_bias=True), nn.ReLU(), nn.MaxPool2d(2, 2),
        nn.Flatten(), nn.Dense(400, 120), nn.ReLU(), nn.Dense(120, 84), nn.ReLU(),
        nn.Dense(84, 10))
    params = net.trainable_params()
    for param, value, is_dense in zip(params, p, [False] * 4 + [True] * 6):
        value = value.T if is_dense and value.ndim == 2 else value
        param.set_data(sx.Tensor(np.ascontiguousarray(value)))
    return net


def sporeling_step(net):
    loss_net = nn.WithLossCell(net, nn.CrossEntropyLoss())
    optimizer = nn.SGD(net.trainable_params(), learning_rate=LR, momentum=MOMENTUM)
    train = nn.TrainOneStepCell(loss_net, optimizer)
    train.set_train()
    return lambda x, y: float(train(sx.Tensor(x), sx.Tensor(y)).asnumpy())


def torch_step(layers_from_ref):
    net = layers_from_ref()
    opt = torch.optim.SGD(net.parameters(), lr=LR, momentum=MOMENTUM)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step(x, y):
        opt.zero_grad()
        loss = loss_fn(net(torch.from_numpy(x)), torch.from_numpy(y.astype(np.int64)))
        loss.backward()
        opt.step()
        return loss.item()
    return step


def torch_mlp(ref):
    def build():
        mods = []
        for i in range(0, len(ref.params), 2):
            w, b = ref.params[i], ref.params[i + 1]
            lin = torch.nn.Linear(*w.shape)
            with torch.no_grad():
                lin.weight.copy_(torch.from_numpy(w.T.copy()))
                lin.bias.copy_(torch.from_numpy(b))
            mods += [lin, torch.nn.ReLU()]
        return torch.nn.Sequential(*mods[:-1])
    return build


def torch_lenet(ref):
    def build():
        net = torch.nn.Sequential(
            torch.nn.Conv2d(1, 6, 5, padding=2), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
            torch.nn.Conv2d(6, 16, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
            torch.nn.Flatten(), torch.nn.Linear(400, 120), torch.nn.ReLU(),
            torch.nn.Linear(120, 84), torch.nn.ReLU(), torch.nn.Linear(84, 10))
        with torch.no_grad():
            for param, value in zip(net.parameters(), ref.params):
                value = value.T if value.ndim == 2 else value
                param.copy_(torch.from_numpy(np.ascontiguousarray(value)))
        return net
    return build


def chain_contenders():
    x8 = np.linspace(0.1, 0.8, 8).astype(np.float32)
    ops = sx.ops

    def f(x):
        y = ops.mul(x, 1.5)
        y = ops.add(y, 0.5)
        y = ops.tanh(y)
        y = ops.mul(y, x)
        y = ops.exp(y)
        y = ops.sub(y, x)
        y = ops.sigmoid(y)
        y = ops.mul(y, y)
        y = ops.add(y, x)
        return ops.sum(y)  # 10 ops

    grad_f = sx.grad(f)
    xt = sx.Tensor(x8)
    contenders = {"sporeling": lambda: grad_f(xt)}
    if torch is not None:
        xt_torch = torch.from_numpy(x8.copy()).requires_grad_()

        def torch_chain():
            y = xt_torch * 1.5
            y = y + 0.5
            y = torch.tanh(y)
            y = y * xt_torch
            y = torch.exp(y)
            y = y - xt_torch
            y = torch.sigmoid(y)
            y = y * y
            y = y + xt_torch
            y = y.sum()
            (g,) = torch.autograd.grad(y, xt_torch)
            return g
        contenders["pytorch"] = torch_chain
    return contenders


def no_grad_op_contenders():
    """One op on 8-element tensors outside any grad: the dispatch cost alone."""
    x8 = np.linspace(0.1, 0.8, 8).astype(np.float32)
    xt = sx.Tensor(x8)
    contenders = {"sporeling": lambda: sx.ops.add(xt, xt), "numpy": lambda: np.add(x8, x8)}
    if torch is not None:
        xt_torch = torch.from_numpy(x8.copy())
        contenders["pytorch"] = lambda: torch.add(xt_torch, xt_torch)
    return contenders


def model_rows(blocks: int, steps: int) -> list[list[str]]:
    rng = np.random.default_rng(0)
    rows = []
    for label, ref_cls, build, torch_build, x_shape, batch, numpy_is_yardstick in [
            ("MLP 784-512-512-10, b128", NumpyMLP, sporeling_mlp, torch_mlp, (784,), 128,
             True),
            # the NumPy LeNet (im2col by rows) is no strong reference: it only checks losses
            ("LeNet-5 1x28x28, b64", NumpyLeNet, sporeling_lenet, torch_lenet, (1, 28, 28),
             64, False)]:
        x = rng.standard_normal((batch,) + x_shape).astype(np.float32)
        y = rng.integers(0, 10, batch).astype(np.int32)
        ref = ref_cls(lr=LR, momentum=MOMENTUM)
        pynative, graph = sporeling_step(build(ref)), sporeling_step(build(ref))
        contenders = {"sporeling pynative": lambda: pynative(x, y),
                      "sporeling graph": lambda: graph(x, y)}
        if torch is not None:
            torch_fn = torch_step(torch_build(ref))
            contenders["pytorch eager"] = lambda: torch_fn(x, y)
        contenders["numpy by hand"] = lambda: ref.step(x, y)  # built last: others copied it
        results = compare(contenders, steps=steps, blocks=blocks,
                          scopes={"sporeling graph": lambda: sx.context(mode=sx.GRAPH_MODE)})
        torch_t, numpy_t = results.get("pytorch eager"), results["numpy by hand"]
        for name, t in results.items():
            rows.append([label, name, t.ms(), ratio(t, torch_t),
                         ratio(t, numpy_t) if numpy_is_yardstick else "(loss check only)",
                         f"{t.last:.5f}"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=7, help="timed blocks per contender")
    parser.add_argument("--steps", type=int, default=10, help="training steps per block")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="clock of the tiny-tensor rows")
    parser.add_argument("--skip-models", action="store_true",
                        help="only the tiny-tensor rows")
    args = parser.parse_args()
    if not args.skip_models:
        print_table(["model", "contender", "per step: median (low-high)", "x torch",
                     "x numpy", "final loss"], model_rows(args.blocks, args.steps))
        print()
    clock = clock_named(args.clock)
    chain = compare(chain_contenders(), steps=200, blocks=args.blocks, clock=clock)
    single = compare(no_grad_op_contenders(), steps=2000, blocks=args.blocks, clock=clock)
    rows = [["10-op chain, forward + backward, per op", name, _per_op(t), ratio(t, chain.get("pytorch"))]
            for name, t in chain.items()]
    rows += [["one no-grad add on 8 elements", name, t.us(), ratio(t, single.get("pytorch"))]
             for name, t in single.items()]
    print_table(["tiny tensors", "contender", f"median (low-high), {args.clock} clock",
                 "x torch"], rows)


def _per_op(t: Timing) -> str:
    return f"{t.median / 10 * 1e6:.1f} us ({t.low / 10 * 1e6:.1f}-{t.high / 10 * 1e6:.1f})"


if __name__ == "__main__":
    main()
