"""The workloads of ``peers.py``: shapes, the initial weights and the data, made with NumPy.

The parent makes them once (seeded) and sends the same arrays to every worker. Weights are
named and laid out as PyTorch's modules name and lay them out (Dense/Linear ``(out, in)``,
convolutions ``(out, in, kh, kw)``, LSTM gates ``i, f, g, o`` stacked in ``(4H, in)``); each
worker maps these names onto its own parameters. Only NumPy and the standard library here:
the MindSpore worker runs under another NumPy.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

LR, MOMENTUM = 0.01, 0.9  # SGD with momentum (no dampening, no Nesterov) everywhere
LSTM_INPUT, LSTM_HIDDEN, LSTM_SEQ = 64, 64, 32
RESNET_STAGES = ((16, 1), (32, 2), (64, 2))  # (channels, stride of the first block)
D_MODEL, HEADS, FFN, SEQ = 128, 4, 512, 64
CHAIN_N = 8


@dataclass(frozen=True)
class Workload:
    key: str
    title: str
    loss: str  # "ce" (softmax cross-entropy, int32 labels), "mse", or "chain" (no update)
    specs: Callable[[], list[tuple[str, tuple[int, ...], str]]]  # (name, shape, init)
    inputs: Callable[[np.random.Generator], dict[str, np.ndarray]]
    unit: str = "ms"  # how the table prints a step
    steps_scale: int = 1  # a block runs --steps x this many steps (a tiny step: many per block)

    def weights(self, seed: int = 0) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        return {name: _init(rng, shape, how) for name, shape, how in self.specs()}

    def data(self, seed: int = 1) -> dict[str, np.ndarray]:
        return self.inputs(np.random.default_rng(seed))


def _init(rng: np.random.Generator, shape: tuple[int, ...], how: str) -> np.ndarray:
    if how == "ones":
        return np.ones(shape, np.float32)
    if how == "zeros":
        return np.zeros(shape, np.float32)
    if how == "he":  # weights: fan-in is everything but the first axis
        fan_in = int(np.prod(shape[1:]))
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
    bound = float(how.removeprefix("uniform:"))  # biases, LSTM
    return rng.uniform(-bound, bound, shape).astype(np.float32)


def _dense(name: str, n_in: int, n_out: int) -> list:
    return [(f"{name}.weight", (n_out, n_in), "he"),
            (f"{name}.bias", (n_out,), f"uniform:{1 / np.sqrt(n_in)}")]


def _conv(name: str, c_in: int, c_out: int, k: int, bias: bool = True) -> list:
    specs = [(f"{name}.weight", (c_out, c_in, k, k), "he")]
    return specs + ([(f"{name}.bias", (c_out,), f"uniform:{1 / np.sqrt(c_in * k * k)}")]
                    if bias else [])


def _norm(name: str, n: int) -> list:
    return [(f"{name}.weight", (n,), "ones"), (f"{name}.bias", (n,), "zeros")]


def _labels(rng, batch):
    return rng.integers(0, 10, batch).astype(np.int32)


def _mlp():
    return _dense("fc1", 784, 512) + _dense("fc2", 512, 512) + _dense("fc3", 512, 10)


def _lenet():
    return (_conv("conv1", 1, 6, 5) + _conv("conv2", 6, 16, 5) + _dense("fc1", 400, 120)
            + _dense("fc2", 120, 84) + _dense("fc3", 84, 10))


def _lstm():
    specs, bound = [], f"uniform:{1 / np.sqrt(LSTM_HIDDEN)}"
    for layer in range(2):
        n_in = LSTM_INPUT if layer == 0 else LSTM_HIDDEN
        specs += [(f"lstm.weight_ih_l{layer}", (4 * LSTM_HIDDEN, n_in), bound),
                  (f"lstm.weight_hh_l{layer}", (4 * LSTM_HIDDEN, LSTM_HIDDEN), bound),
                  (f"lstm.bias_ih_l{layer}", (4 * LSTM_HIDDEN,), bound),
                  (f"lstm.bias_hh_l{layer}", (4 * LSTM_HIDDEN,), bound)]
    return specs + _dense("fc", LSTM_HIDDEN, 10)


def resnet_blocks():
    """``(prefix, c_in, c_out, stride)`` of ResNet-20's nine basic blocks."""
    blocks, c_in = [], 16
    for stage, (c_out, stride) in enumerate(RESNET_STAGES, start=1):
        for i in range(3):
            blocks.append((f"layer{stage}.{i}", c_in, c_out, stride if i == 0 else 1))
            c_in = c_out
    return blocks


def resnet_batch_norms():
    """Names of ResNet-20's BatchNorm layers (JAX carries their running statistics)."""
    names = ["bn1"]
    for prefix, c_in, c_out, stride in resnet_blocks():
        names += [f"{prefix}.bn1", f"{prefix}.bn2"]
        if stride != 1 or c_in != c_out:
            names.append(f"{prefix}.downsample.1")
    return names


def _resnet20():
    specs = _conv("conv1", 3, 16, 3, bias=False) + _norm("bn1", 16)
    for prefix, c_in, c_out, stride in resnet_blocks():
        specs += (_conv(f"{prefix}.conv1", c_in, c_out, 3, bias=False)
                  + _norm(f"{prefix}.bn1", c_out)
                  + _conv(f"{prefix}.conv2", c_out, c_out, 3, bias=False)
                  + _norm(f"{prefix}.bn2", c_out))
        if stride != 1 or c_in != c_out:  # projection shortcut (1x1 conv + BN, "option B")
            specs += (_conv(f"{prefix}.downsample.0", c_in, c_out, 1, bias=False)
                      + _norm(f"{prefix}.downsample.1", c_out))
    return specs + _dense("fc", 64, 10)


def _transformer():
    bound = f"uniform:{1 / np.sqrt(D_MODEL)}"
    return ([("encoder.self_attn.in_proj_weight", (3 * D_MODEL, D_MODEL), "he"),
             ("encoder.self_attn.in_proj_bias", (3 * D_MODEL,), bound)]
            + _dense("encoder.self_attn.out_proj", D_MODEL, D_MODEL)
            + _dense("encoder.linear1", D_MODEL, FFN) + _dense("encoder.linear2", FFN, D_MODEL)
            + _norm("encoder.norm1", D_MODEL) + _norm("encoder.norm2", D_MODEL))


def _classify(shape):
    return lambda rng: {"x": rng.standard_normal(shape).astype(np.float32),
                        "y": _labels(rng, shape[0])}


WORKLOADS = {w.key: w for w in [
    Workload("mlp", "MLP 784-512-512-10, b128", "ce", _mlp, _classify((128, 784))),
    Workload("lenet", "LeNet-5 1x28x28, b64", "ce", _lenet, _classify((64, 1, 28, 28))),
    Workload("lstm", f"LSTM 2 layers, input {LSTM_INPUT}, hidden {LSTM_HIDDEN}, b1, seq "
             f"{LSTM_SEQ}, last step -> Dense(10)", "ce", _lstm,
             _classify((1, LSTM_SEQ, LSTM_INPUT))),
    Workload("chain", f"10-op elementwise chain, forward + backward, {CHAIN_N} float32",
             "chain", lambda: [],
             lambda rng: {"x": np.linspace(0.1, 0.8, CHAIN_N).astype(np.float32)}, unit="us",
             steps_scale=100),
    Workload("resnet20", "ResNet-20 (CIFAR, projection shortcuts) 3x32x32, b32", "ce",
             _resnet20, _classify((32, 3, 32, 32))),
    Workload("transformer", f"Transformer encoder block (post-norm, ReLU) seq {SEQ}, d_model "
             f"{D_MODEL}, {HEADS} heads, FFN {FFN}, b8, MSE", "mse", _transformer,
             lambda rng: {"x": rng.standard_normal((8, SEQ, D_MODEL)).astype(np.float32),
                          "y": rng.standard_normal((8, SEQ, D_MODEL)).astype(np.float32)}),
]}
