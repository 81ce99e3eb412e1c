"""Graph mode gives PyNative's numbers: outputs, losses, gradients and training steps of the
PyNative work's models agree (float64 to 1e-10, float32 to 1e-5 relative)."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import context
from sporeling.expression import nn, ops

TOL = {np.float64: 1e-10, np.float32: 1e-5}


@pytest.fixture(autouse=True)
def _the_kernels_pynative_runs():
    """O1: Graph mode on the kernels PyNative runs, so the numbers agree to the last bits;
    O2's generated loops (where the TVM backend is installed) round differently -- fused
    multiply-adds, vector math -- and are compared with NumPy's in tests/test_tvm_training.py."""
    with context(jit_level="O1"):
        yield


def close(a, b, dtype, what=""):
    a = a.asnumpy() if hasattr(a, "asnumpy") else np.asarray(a)
    b = b.asnumpy() if hasattr(b, "asnumpy") else np.asarray(b)
    tol = TOL[dtype]
    scale = max(float(np.max(np.abs(a))), 1e-30) if a.size else 1.0
    np.testing.assert_allclose(b, a, rtol=tol, atol=tol * scale, err_msg=what)


class LastStep(nn.Cell):
    """A 2-layer LSTM; the last step's output through a Dense."""

    def __init__(self, dtype):
        super().__init__()
        self.lstm = nn.LSTM(3, 5, num_layers=2, batch_first=True, dtype=dtype)
        self.head = nn.Dense(5, 4, dtype=dtype)

    def construct(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


class Encoder(nn.Cell):
    """A Transformer encoder layer, mean-pooled, then a Dense."""

    def __init__(self, dtype):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0,
                                                batch_first=True, dtype=dtype)
        self.head = nn.Dense(8, 4, dtype=dtype)

    def construct(self, x):
        return self.head(ops.mean(self.layer(x), 1))


class Bag(nn.Cell):
    """Embedding, mean over the sequence, Dense."""

    def __init__(self, dtype):
        super().__init__()
        self.embed = nn.Embedding(10, 6)
        self.head = nn.Dense(6, 4)

    def construct(self, ids):
        return self.head(ops.mean(self.embed(ids), 1))


def mlp(dtype):
    return nn.SequentialCell(nn.Dense(6, 16, dtype=dtype), nn.ReLU(),
                             nn.Dense(16, 4, dtype=dtype))


def lenet(dtype):
    return nn.SequentialCell(
        nn.Conv2d(1, 4, 3, pad_mode="pad", padding=1, has_bias=True, dtype=dtype), nn.ReLU(),
        nn.MaxPool2d(2, 2), nn.Conv2d(4, 6, 3, pad_mode="valid", dtype=dtype), nn.ReLU(),
        nn.AvgPool2d(2, 2), nn.Flatten(), nn.Dense(24, 4, dtype=dtype))


def bn_net(dtype):
    return nn.SequentialCell(nn.Conv2d(1, 3, 3, dtype=dtype), nn.BatchNorm2d(3, dtype=dtype),
                             nn.ReLU(), nn.Flatten(), nn.Dense(3 * 12 * 12, 8, dtype=dtype),
                             nn.BatchNorm1d(8, dtype=dtype), nn.ReLU(),
                             nn.Dense(8, 4, dtype=dtype))


def data(kind, dtype, rng):
    if kind == "image":
        return rng.standard_normal((6, 1, 12, 12)).astype(dtype)
    if kind == "ids":
        return rng.integers(0, 10, (6, 5)).astype(np.int32)
    return rng.standard_normal(kind).astype(dtype)


# name: (builder, input kind, training flag, dtypes)
MODELS = {
    "mlp": (mlp, (6, 6), False, (np.float64, np.float32)),
    "lenet": (lenet, "image", False, (np.float64, np.float32)),
    "batchnorm-train": (bn_net, "image", True, (np.float64, np.float32)),
    "batchnorm-eval": (bn_net, "image", False, (np.float64, np.float32)),
    "lstm": (LastStep, (6, 7, 3), False, (np.float64, np.float32)),
    "transformer": (Encoder, (6, 5, 8), False, (np.float64, np.float32)),
    "embedding": (Bag, "ids", False, (np.float32,)),
}
CASES = [(name, dt) for name, spec in MODELS.items() for dt in spec[3]]


def build(name, dtype):
    builder, kind, training, _ = MODELS[name]
    sx.set_seed(0)
    net = builder(np.dtype(dtype).name).set_train(training)
    rng = np.random.default_rng(1)
    x = data(kind, dtype, rng)
    y = rng.integers(0, 4, x.shape[0]).astype(np.int32)
    return net, sx.Tensor(x), sx.Tensor(y)


@pytest.fixture(autouse=True)
def pynative():
    sx.set_context(mode=sx.PYNATIVE_MODE)
    yield
    sx.set_context(mode=sx.PYNATIVE_MODE)


@pytest.mark.parametrize("name,dtype", CASES)
def test_outputs_losses_gradients_and_side_effects_agree(name, dtype):
    results = []
    for mode in (sx.PYNATIVE_MODE, sx.GRAPH_MODE):
        net, x, y = build(name, dtype)
        loss_net = nn.WithLossCell(net, nn.CrossEntropyLoss())
        vg = sx.value_and_grad(loss_net, None, net.trainable_params())
        with sx.context(mode=mode):
            out = net(x)
            if mode == sx.GRAPH_MODE:
                vg = sx.jit(vg)
            loss, grads = vg(x, y)
        stats = [p.asnumpy().copy() for p in net.untrainable_params()]
        results.append((out, loss, grads, stats))
        if mode == sx.GRAPH_MODE:
            assert net.compile_cache_info()["compile_count"] == 1
            assert vg.compile_count == 1
    (o1, l1, g1, s1), (o2, l2, g2, s2) = results
    close(o1, o2, dtype, "output")
    close(l1, l2, dtype, "loss")
    assert len(g1) == len(g2) > 0
    for i, (a, b) in enumerate(zip(g1, g2)):
        close(a, b, dtype, f"gradient {i}")
    for i, (a, b) in enumerate(zip(s1, s2)):  # BatchNorm's moving statistics
        close(a, b, dtype, f"untrainable parameter {i}")


@pytest.mark.parametrize("name,dtype", CASES)
def test_training_steps_agree(name, dtype):
    runs = []
    for mode in (sx.PYNATIVE_MODE, sx.GRAPH_MODE):
        net, x, y = build(name, dtype)
        opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), opt)
        step.set_train(MODELS[name][2])
        with sx.context(mode=mode):
            losses = [step(x, y).asnumpy().copy() for _ in range(3)]
        runs.append((losses, [p.asnumpy().copy() for p in net.get_parameters()]))
        if mode == sx.GRAPH_MODE:
            assert step.compile_cache_info()["compile_count"] == 1
    (l1, p1), (l2, p2) = runs
    for i, (a, b) in enumerate(zip(l1, l2)):
        close(a, b, dtype, f"loss at step {i}")
    assert l1[2] < l1[0]  # it trains
    for i, (a, b) in enumerate(zip(p1, p2)):
        close(a, b, dtype, f"parameter {i} after 3 steps")
