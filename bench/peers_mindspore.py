"""The MindSpore contenders of ``peers.py`` -- real MindSpore and Sporeling's facade run this
same program: ``PEERS_MINDSPORE=sporeling`` (set by the parent) imports ``sporeling.ms as
mindspore``. Written the MindSpore 2.x way: Cells, ``value_and_grad`` over the optimizer's
parameters, ``optimizer(grads)``; Graph mode is ``set_context(mode=GRAPH_MODE)`` with the
step under ``@jit``. It uses only what both provide (see ``canonical`` for the names that
differ).
"""
from __future__ import annotations

import os

if os.environ.get("PEERS_MINDSPORE") == "sporeling":
    import sporeling.ms as mindspore
    from sporeling.ms import nn, ops
else:
    import mindspore
    from mindspore import nn, ops

from peers_workloads import (D_MODEL, FFN, HEADS, LR, LSTM_HIDDEN, LSTM_INPUT, MOMENTUM,
                             resnet_blocks)

GRAPH = False


def start(mode: str, backend: str | None = None, threads: int = 2) -> str:
    global GRAPH
    GRAPH = mode == "graph"
    mindspore.set_context(mode=mindspore.GRAPH_MODE if GRAPH else mindspore.PYNATIVE_MODE)
    # the CPU kernels' thread pool (MindSpore's default is 30). 2.10 deprecates the key for
    # device_context.cpu.op_tuning.threads_num, which the facade lacks; it accepts the key
    mindspore.set_context(runtime_num_threads=threads)
    if backend:
        mindspore.set_context(backend=backend)  # a Sporeling key: its kernel backend
    return getattr(mindspore, "__version__", "")


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Dense(784, 512), nn.Dense(512, 512), nn.Dense(512, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


class LeNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="pad", padding=2, has_bias=True)
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid", has_bias=True)
        self.fc1, self.fc2, self.fc3 = nn.Dense(400, 120), nn.Dense(120, 84), nn.Dense(84, 10)
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.relu, self.flatten = nn.ReLU(), nn.Flatten()

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.flatten(self.pool(self.relu(self.conv2(x))))
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


class LSTMNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(LSTM_INPUT, LSTM_HIDDEN, num_layers=2, has_bias=True,
                            batch_first=True)
        self.fc = nn.Dense(LSTM_HIDDEN, 10)

    def construct(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


def conv3x3(c_in, c_out, stride=1):
    return nn.Conv2d(c_in, c_out, 3, stride, pad_mode="pad", padding=1)


class Block(nn.Cell):
    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.conv1, self.bn1 = conv3x3(c_in, c_out, stride), nn.BatchNorm2d(c_out)
        self.conv2, self.bn2 = conv3x3(c_out, c_out), nn.BatchNorm2d(c_out)
        self.relu = nn.ReLU()
        self.project = stride != 1 or c_in != c_out
        if self.project:
            self.downsample = nn.SequentialCell(
                nn.Conv2d(c_in, c_out, 1, stride, pad_mode="valid"), nn.BatchNorm2d(c_out))

    def construct(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.project:
            x = self.downsample(x)
        return self.relu(out + x)


class ResNet20(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1, self.bn1, self.relu = conv3x3(3, 16), nn.BatchNorm2d(16), nn.ReLU()
        blocks = resnet_blocks()
        self.layer1, self.layer2, self.layer3 = (
            nn.SequentialCell([Block(c_in, c_out, s) for p, c_in, c_out, s in blocks
                               if p.startswith(f"layer{stage}.")]) for stage in (1, 2, 3))
        self.fc = nn.Dense(64, 10)

    def construct(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer3(self.layer2(self.layer1(x)))
        return self.fc(ops.mean(x, (2, 3)))


class Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.encoder = nn.TransformerEncoderLayer(D_MODEL, HEADS, FFN, dropout=0.0,
                                                  batch_first=True)

    def construct(self, x):
        return self.encoder(x)


MODELS = {"mlp": MLP, "lenet": LeNet, "lstm": LSTMNet, "resnet20": ResNet20,
          "transformer": Encoder}


def canonical(name: str) -> str:
    """A parameter's name as ``peers_workloads`` (PyTorch) spells it: MindSpore's norms have
    gamma/beta; its TransformerEncoderLayer calls the FFN dense1/dense2 (Sporeling's facade:
    linear1/linear2)."""
    for ms_name, torch_name in ((".gamma", ".weight"), (".beta", ".bias"),
                                (".dense1.", ".linear1."), (".dense2.", ".linear2.")):
        name = name.replace(ms_name, torch_name)
    return name


def load(net, weights) -> None:
    params = {canonical(p.name): p for p in net.trainable_params()}
    assert params.keys() == weights.keys(), sorted(params.keys() ^ weights.keys())
    for name, value in weights.items():
        params[name].set_data(mindspore.Tensor(value))


def build(workload, weights, data):
    if workload.loss == "chain":
        return chain(data["x"])
    net = MODELS[workload.key]()
    load(net, weights)
    net.set_train()
    loss_fn = nn.CrossEntropyLoss() if workload.loss == "ce" else nn.MSELoss()
    optimizer = nn.SGD(net.trainable_params(), learning_rate=LR, momentum=MOMENTUM)

    def forward_fn(x, y):
        return loss_fn(net(x), y)

    grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters)

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    if GRAPH:
        train_step = mindspore.jit(train_step)
    x, y = mindspore.Tensor(data["x"]), mindspore.Tensor(data["y"])
    return (lambda: float(train_step(x, y).asnumpy())), None


def chain(x_np):
    def f(x):
        y = x * 1.5
        y = y + 0.5
        y = ops.tanh(y)
        y = y * x
        y = ops.exp(y)
        y = y - x
        y = ops.sigmoid(y)
        y = y * y
        y = y + x
        return y.sum()

    grad_fn = mindspore.value_and_grad(f)
    if GRAPH:
        grad_fn = mindspore.jit(grad_fn)
    x, last = mindspore.Tensor(x_np), {}

    def step():
        value, last["grad"] = grad_fn(x)
        return float(value.asnumpy())
    return step, lambda: {"grad sum": float(last["grad"].asnumpy().sum())}
