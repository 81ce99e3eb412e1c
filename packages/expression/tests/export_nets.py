"""Hand-built networks the export tests run: each a (name, factory, inputs(batch)) case.
Not a test file: test_export_sir.py and test_export_onnx.py import it."""
import numpy as np

import sporeling.expression as sx
from sporeling.expression import nn, ops


class DenseStack(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a, self.b, self.c = nn.Dense(6, 16), nn.Dense(16, 8), nn.Dense(8, 4)
        self.gelu, self.sig = nn.GELU(), nn.Sigmoid()

    def construct(self, x):
        h = self.gelu(self.a(x))
        h = ops.tanh(self.b(h)) * self.sig(h[:, :8])
        return ops.softmax(self.c(h), axis=-1)


class ConvBN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1, has_bias=True)
        self.bn = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2, pad_mode="same", group=2)
        self.pool = nn.MaxPool2d(2, 2)
        self.avg = nn.AvgPool2d(2, 2)
        self.fc = nn.Dense(8, 5)

    def construct(self, x):
        h = ops.relu(self.bn(self.conv(x)))
        h = self.avg(self.pool(ops.relu(self.conv2(h))))
        return self.fc(ops.reshape(h, (h.shape[0], -1)))


class Norms(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc, self.ln, self.out = nn.Dense(6, 12), nn.LayerNorm((12,)), nn.Dense(12, 3)

    def construct(self, x):
        return self.out(self.ln(self.fc(x)))


class Attention(nn.Cell):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(8, 2, batch_first=True)
        self.ln = nn.LayerNorm((8,))

    def construct(self, x):
        out, _ = self.attn(x, x, x, need_weights=False)
        return self.ln(out + x)


class LSTMNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(5, 7, batch_first=True)
        self.fc = nn.Dense(7, 2)

    def construct(self, x):
        out, (h, c) = self.rnn(x)
        return self.fc(out[:, -1]), out


class EmbeddingNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.emb, self.fc = nn.Embedding(20, 6), nn.Dense(6, 3)

    def construct(self, ids):
        return self.fc(self.emb(ids).mean(axis=1))


def _f32(*shape):
    return lambda rng, b: sx.Tensor(rng.standard_normal((b, *shape)).astype(np.float32))


def _ids(rng, b):
    return sx.Tensor(rng.integers(0, 20, (b, 5)).astype(np.int32))


NETS = {
    "dense": (DenseStack, _f32(6)),
    "conv_bn": (ConvBN, _f32(3, 8, 8)),
    "layer_norm": (Norms, _f32(6)),
    "attention": (Attention, _f32(4, 8)),
    "lstm": (LSTMNet, _f32(6, 5)),
    "embedding": (EmbeddingNet, _ids),
}


def make(name, seed=0):
    """A fresh net (BatchNorm given non-trivial moving statistics) and an input maker."""
    sx.set_seed(seed)
    factory, inputs = NETS[name]
    net = factory()
    rng = np.random.default_rng(seed)
    for p in net.get_parameters():
        if "moving" in p.name:
            p.set_data(np.abs(rng.standard_normal(p.shape)).astype(p.dtype) + 0.5)
    net.set_train(False)
    return net, inputs
