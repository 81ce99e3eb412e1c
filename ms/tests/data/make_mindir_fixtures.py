"""The MindSpore side of test_mindir.py: writes MindIR fixtures with real MindSpore 2.10,
and runs MindIR files written by sporeling.ms in real MindSpore.

Run with a Python that has MindSpore 2.10 (not in CI; the fixtures are committed):

    python ms/tests/data/make_mindir_fixtures.py            # (re)write the fixtures here
    python ms/tests/data/make_mindir_fixtures.py NAME ...   # (re)write only these
    python ms/tests/data/make_mindir_fixtures.py check FILE IO.npz [FILE IO.npz ...]
        # mindspore.load(FILE) + nn.GraphCell, run on IO.npz's x0, x1, ... and compare
        # with its y0, y1, ... (sporeling's outputs); exit 1 on a mismatch

Fixtures (all small, in ms/tests/data/mindir/): each NAME.mindir is written by
``mindspore.export(net, *inputs, file_format="MINDIR")`` in GRAPH_MODE, its NAME_io.npz
holds the inputs x0, x1, ... and MindSpore's eval outputs y0, y1, ... on them:
    mlp: Dense -> ReLU -> Dense.
    lenet: LeNet-5's layers at 16x16 (Conv2d valid, ReLU, MaxPool2d, Flatten, Dense).
    quickstart: the quickstart tutorial's Network (Flatten, SequentialCell of Dense/ReLU),
        hidden width 16 instead of 512 to keep the file small.
    convs: Conv2d (explicit padding, bias, stride) and (same, groups), BatchNorm2d with
        non-trivial moving statistics, AvgPool2d, MaxPool2d (same), GELU, Dropout.
    ops: two inputs, a Parameter, a constant tensor, and elementwise/reduction/shape ops
        (Muls, Softmax, LogSoftmax, ReduceMean/Sum/Max, Concat, Cast, BatchMatMul, Select,
        StridedSlice, BroadcastTo, ...), two outputs.
    resnet: a small ResNet: a Conv2d/BatchNorm2d/ReLU stem, two basic residual blocks
        (Conv2d, BatchNorm2d, ReLU; the second with a strided 1x1 Conv2d/BatchNorm2d
        projection shortcut), global average pooling (ReduceMean), Dense.
    lstm: nn.LSTM (input 8, hidden 16, 2 layers, batch_first) over 5 steps, its last
        step through a Dense.
    mind_ir_descriptor.pb: MindSpore's mind_ir.proto descriptor (a serialized
        FileDescriptorProto from mindspore.train.mind_ir_pb2).
"""
from __future__ import annotations

import os
import sys

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mindir")


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d1, self.relu, self.d2 = nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 3)

    def construct(self, x):
        return self.d2(self.relu(self.d1(x)))


class LeNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu, self.pool, self.flatten = nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten()
        self.fc1, self.fc2 = nn.Dense(16, 12), nn.Dense(12, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        return self.fc2(self.relu(self.fc1(self.flatten(x))))


class Network(nn.Cell):
    """The quickstart tutorial's network (hidden width 16 instead of 512)."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 16), nn.ReLU(), nn.Dense(16, 16), nn.ReLU(), nn.Dense(16, 10))

    def construct(self, x):
        return self.dense_relu_sequential(self.flatten(x))


class Convs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(2, 4, 3, pad_mode="pad", padding=(1, 0, 2, 1), has_bias=True,
                            stride=2)
        self.c2 = nn.Conv2d(4, 4, 3, pad_mode="same", group=2)
        self.bn, self.ap = nn.BatchNorm2d(4), nn.AvgPool2d(2, 1)
        self.mp = nn.MaxPool2d(3, 2, pad_mode="same")
        self.gelu, self.drop = nn.GELU(), nn.Dropout(p=0.5)

    def construct(self, x):
        return self.drop(self.gelu(self.mp(self.ap(self.bn(self.c2(self.c1(x)))))))


class Ops(nn.Cell):
    def __init__(self):
        super().__init__()
        self.c = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 4)
        self.w = Parameter(Tensor(np.linspace(-1, 1, 9, dtype=np.float32).reshape(3, 3)),
                           name="w")

    def construct(self, x, y):
        a = x * 2.0 + y - self.c
        b = ops.MatMul(transpose_b=True)(a, self.w) / 3.0
        c = ops.softmax(b, -1) + ops.log_softmax(b, -1)
        d = ops.sigmoid(c) * ops.tanh(c) + ops.exp(c) - ops.sqrt(ops.abs(c))
        e = ops.transpose(ops.reshape(d, (3, 2)), (1, 0))
        f = (ops.ReduceMean(keep_dims=True)(e, 1) + ops.ReduceSum()(e, (1,)).reshape(2, 1)
             + ops.ReduceMax()(e, 1).reshape(2, 1))
        g = ops.concat((f, f), 1).astype(ms.float16).astype(ms.float32)
        h = ops.maximum(g, 0.5) - ops.neg(g) + ops.pow(g, 2.0) + ops.log(ops.abs(g) + 1)
        k = (ops.broadcast_to(x[0:1], (2, 3)) + ops.select(x > y, x, y) + ops.erf(x)
             + ops.floor_divide(x, y + 3) + ops.round(x) + ops.silu(x) + ops.square(x)
             + ops.leaky_relu(x, 0.2) + ops.expand_dims(x, 0).squeeze(0) + ops.minimum(x, y))
        return h, ops.BatchMatMul()(k.reshape(1, 2, 3), y.reshape(1, 3, 2))


class BasicBlock(nn.Cell):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, pad_mode="pad", padding=1)
        self.bn1, self.relu = nn.BatchNorm2d(cout), nn.ReLU()
        self.conv2 = nn.Conv2d(cout, cout, 3, pad_mode="pad", padding=1)
        self.bn2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.SequentialCell(nn.Conv2d(cin, cout, 1, stride=stride),
                                          nn.BatchNorm2d(cout))

    def construct(self, x):
        identity = x if self.down is None else self.down(x)
        out = self.relu(self.bn1(self.conv1(x)))
        return self.relu(self.bn2(self.conv2(out)) + identity)


class ResNet(nn.Cell):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1)
        self.bn, self.relu = nn.BatchNorm2d(8), nn.ReLU()
        self.layer1, self.layer2 = BasicBlock(8, 8), BasicBlock(8, 16, stride=2)
        self.mean = ops.ReduceMean(keep_dims=False)
        self.fc = nn.Dense(16, num_classes)

    def construct(self, x):
        x = self.layer2(self.layer1(self.relu(self.bn(self.conv(x)))))
        return self.fc(self.mean(x, (2, 3)))


class LSTMNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, num_layers=2, batch_first=True)
        self.fc = nn.Dense(16, 4)

    def construct(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


def _randomise(net, rng):
    for _, p in net.parameters_and_names():
        values = (rng.uniform(0.5, 2.0, p.shape) if "variance" in p.name else
                  rng.normal(0.0, 0.5, p.shape))
        p.set_data(Tensor(values.astype(np.float32)))


def _fixtures(rng):
    return {"mlp": (MLP(), [(3, 4)]), "lenet": (LeNet(), [(2, 1, 16, 16)]),
            "quickstart": (Network(), [(2, 1, 28, 28)]), "convs": (Convs(), [(2, 2, 9, 9)]),
            "ops": (Ops(), [(2, 3), (2, 3)]), "resnet": (ResNet(), [(2, 3, 16, 16)]),
            "lstm": (LSTMNet(), [(2, 5, 8)])}


def write_fixtures(names=()) -> None:
    """Write the fixtures (only ``names`` when given: the random draws stay the same)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    os.makedirs(HERE, exist_ok=True)
    rng = np.random.default_rng(22)
    for name, (net, shapes) in _fixtures(rng).items():
        _randomise(net, rng)
        net.set_train(False)
        xs = [rng.normal(size=s).astype(np.float32) for s in shapes]
        if names and name not in names:
            continue
        out = net(*map(Tensor, xs))
        outs = out if isinstance(out, tuple) else (out,)
        ms.export(net, *map(Tensor, xs), file_name=os.path.join(HERE, name),
                  file_format="MINDIR")
        os.chmod(os.path.join(HERE, name + ".mindir"), 0o644)  # MindSpore writes 0o400
        np.savez(os.path.join(HERE, f"{name}_io.npz"),
                 **{f"x{i}": x for i, x in enumerate(xs)},
                 **{f"y{i}": y.asnumpy() for i, y in enumerate(outs)})
    if names:
        return
    from google.protobuf import descriptor_pb2
    from mindspore.train import mind_ir_pb2
    proto = descriptor_pb2.FileDescriptorProto()
    mind_ir_pb2.DESCRIPTOR.CopyToProto(proto)
    with open(os.path.join(HERE, "mind_ir_descriptor.pb"), "wb") as f:
        f.write(proto.SerializeToString())


def check(path: str, io_path: str) -> int:
    io = np.load(io_path)
    xs = [Tensor(io[f"x{i}"]) for i in range(sum(k.startswith("x") for k in io.files))]
    out = nn.GraphCell(ms.load(path))(*xs)
    outs = out if isinstance(out, tuple) else (out,)
    want = [io[f"y{i}"] for i in range(sum(k.startswith("y") for k in io.files))]
    if len(outs) != len(want):
        print(f"{path}: {len(outs)} outputs, expected {len(want)}")
        return 1
    for i, (got, exp) in enumerate(zip(outs, want)):
        got = got.asnumpy()
        if got.shape != exp.shape or not np.allclose(got, exp, rtol=1e-4, atol=1e-4):
            print(f"{path}, output {i}: max |diff| "
                  f"{np.abs(got - exp).max() if got.shape == exp.shape else got.shape}")
            return 1
    print(f"{path}: ok")
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 4 and len(sys.argv) % 2 == 0 and sys.argv[1] == "check":
        ms.set_context(mode=ms.GRAPH_MODE)
        pairs = zip(sys.argv[2::2], sys.argv[3::2])
        sys.exit(max(check(path, io) for path, io in pairs))
    write_fixtures(sys.argv[1:])
