"""THOR (2.10's ``nn.thor``, ``nn.DenseThor``/``Conv2dThor``/``EmbeddingThor``/
``EmbeddingLookupThor``, ``ConvertNetUtils``, ``ConvertModelUtils``): the layers' Kronecker
factors and the preconditioned step against NumPy references."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sporeling.ms as ms
from sporeling.ms import nn, ops
from sporeling.ms.common.eager import EagerOnlyError


def _grad_through(layer, x, upstream):
    """Run ``layer(x)`` under ``grad`` with the loss ``sum(out * upstream)`` (so the output's
    gradient is ``upstream``); returns the output."""
    weights = [p for p in layer.trainable_params()]

    def loss(*_):
        out = layer(x)
        return ops.sum(out * ms.Tensor(upstream))
    ms.grad(loss, grad_position=None, weights=weights)(x)
    return layer(x)


@settings(max_examples=10, deadline=None)
@given(n=st.integers(1, 6), d_in=st.integers(1, 5), d_out=st.integers(1, 4),
       seed=st.integers(0, 2**16))
def test_dense_thor_records_input_and_output_gradient_covariances(n, d_in, d_out, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_in)).astype(np.float32)
    upstream = rng.standard_normal((n, d_out)).astype(np.float32)
    layer = nn.DenseThor(d_in, d_out)
    _grad_through(layer, ms.Tensor(x), upstream)
    np.testing.assert_allclose(layer.matrix_a.asnumpy(), x.T @ x / n, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(layer.matrix_g.asnumpy(), upstream.T @ upstream / n,
                               rtol=1e-5, atol=1e-6)


def test_dense_thor_computes_dense():
    x = ms.Tensor(np.array([[1, 2, 3], [3, 4, 5]], np.float32))
    out = nn.DenseThor(3, 4, weight_init="ones")(x)
    np.testing.assert_allclose(out.asnumpy(), [[6.0] * 4, [12.0] * 4])  # 2.10's example


def _im2col(x, k, pad):
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, w = x.shape
    rows = [x[b, :, i:i + k, j:j + k].reshape(-1) for b in range(n)
            for i in range(h - k + 1) for j in range(w - k + 1)]
    return np.array(rows)


def test_conv2d_thor_factors_over_patches_and_positions():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 5, 5)).astype(np.float32)
    upstream = rng.standard_normal((2, 4, 5, 5)).astype(np.float32)
    layer = nn.Conv2dThor(3, 4, 3, pad_mode="pad", padding=1)
    _grad_through(layer, ms.Tensor(x), upstream)
    rows = _im2col(x, 3, 1)                                   # (2*25, 27)
    np.testing.assert_allclose(layer.matrix_a.asnumpy(), rows.T @ rows / 50, rtol=1e-4,
                               atol=1e-5)
    d = upstream.transpose(0, 2, 3, 1).reshape(-1, 4)
    np.testing.assert_allclose(layer.matrix_g.asnumpy(), d.T @ d / 50, rtol=1e-4, atol=1e-5)
    assert layer.a_normalizer.asnumpy()[0] == 50 and layer.g_normalizer.asnumpy()[0] == 50


@pytest.mark.parametrize("make", [lambda: nn.EmbeddingThor(6, 3),
                                  lambda: nn.EmbeddingLookupThor(6, 3)])
def test_embedding_thor_counts_ids(make):
    ids = np.array([[0, 2, 2], [5, 2, 0]], np.int32)
    upstream = np.arange(18, dtype=np.float32).reshape(2, 3, 3) / 10
    layer = make()
    table = layer.embedding_table.asnumpy()
    out = _grad_through(layer, ms.Tensor(ids), upstream)
    np.testing.assert_allclose(out.asnumpy(), table[ids])
    np.testing.assert_array_equal(layer.matrix_a.asnumpy(), [2, 0, 3, 0, 0, 1])
    rows = upstream.reshape(-1, 3)
    # EmbeddingThor divides by the looked-up rows, EmbeddingLookupThor by the batch (2.10)
    n = 6 if isinstance(layer, nn.EmbeddingThor) else 2
    np.testing.assert_allclose(layer.matrix_g.asnumpy(), rows.T @ rows / n, rtol=1e-5)


def _reference_step(w, grad, a, g, lr, damping, batch, loss_scale):
    """MindSpore's ThorGpu on a Dense weight: preconditioned gradient, first momentum step."""
    d = np.sqrt(damping)
    a_inv = np.linalg.inv(a + d * np.eye(len(a)))
    g_inv = np.linalg.inv(g * batch ** 2 / loss_scale ** 2 + d * np.eye(len(g)))
    return w - lr * (g_inv @ (grad / loss_scale) @ a_inv)


def test_thor_step_on_a_dense_layer_equals_the_numpy_reference():
    rng = np.random.default_rng(1)
    net = nn.SequentialCell([nn.Dense(4, 3, has_bias=False)])
    opt = nn.thor(net, learning_rate=ms.Tensor(np.array([0.1, 0.1], np.float32)),
                  damping=ms.Tensor(np.array([0.05, 0.01], np.float32)), momentum=0.9,
                  loss_scale=2.0, batch_size=5)
    layer = net[0]
    assert isinstance(layer, nn.DenseThor)
    x = rng.standard_normal((5, 4)).astype(np.float32)
    upstream = rng.standard_normal((5, 3)).astype(np.float32)
    w0 = layer.weight.asnumpy().astype(np.float64)
    _grad_through(net, ms.Tensor(x), upstream)  # records A and G
    grad = upstream.T @ x                        # d sum(out * upstream) / dW
    opt((ms.Tensor(grad.astype(np.float32)),))
    expected = _reference_step(w0, grad, x.T @ x / 5, upstream.T @ upstream / 5, 0.1, 0.05,
                               5, 2.0)
    np.testing.assert_allclose(layer.weight.asnumpy(), expected, rtol=1e-4, atol=1e-6)


def _data():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((32, 6)).astype(np.float32)
    y = (x[:, :3].sum(1) > 0).astype(np.int32) + (x[:, 3] > 1).astype(np.int32)
    return ms.Tensor(x), ms.Tensor(y)


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 8, activation="relu")
        self.norm = nn.LayerNorm((8,))
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.norm(self.fc1(x)))


def test_convert_net_utils_keeps_parameters_and_converted_net_trains():
    ms.set_seed(3)
    net = _Net()
    before = {p.name: p for p in net.trainable_params()}
    nn_utils = ms.train.ConvertNetUtils()
    nn_utils.convert_to_thor_net(net)
    assert isinstance(net.fc1, nn.DenseThor) and isinstance(net.fc2, nn.DenseThor)
    assert {p.name: p for p in net.trainable_params()} == before  # same objects and names
    steps = 12
    opt = nn.thor(net, learning_rate=ms.Tensor(np.full(steps, 0.05, np.float32)),
                  damping=ms.Tensor(np.full(steps, 0.05, np.float32)), momentum=0.9,
                  batch_size=32, frequency=3)
    assert opt.get_frequency() == 3 and opt.preconditioners[2] == ("layernorm", None)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    x, y = _data()
    losses, recording = [], []
    for _ in range(steps):
        losses.append(float(step(x, y).asnumpy()))
        recording.append(net.fc1.thor)
    assert losses[-1] < 0.5 * losses[0]
    assert recording == [i % 3 == 2 for i in range(steps)]  # A/G every 3rd step


def test_convert_to_thor_model_trains_with_thor():
    ms.set_seed(4)
    net = _Net()
    opt = nn.thor(net, learning_rate=ms.Tensor(np.full(4, 0.05, np.float32)),
                  damping=ms.Tensor(np.full(4, 0.05, np.float32)), momentum=0.9,
                  frequency=2)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = ms.Model(net, loss_fn=loss_fn, optimizer=opt)
    thor_model = ms.ConvertModelUtils.convert_to_thor_model(model, net, loss_fn=loss_fn,
                                                            optimizer=opt)
    assert isinstance(thor_model, ms.Model) and thor_model is not model
    x, y = _data()
    before = float(loss_fn(net(x), y).asnumpy())
    batches = ms.dataset.NumpySlicesDataset({"x": x.asnumpy(), "y": y.asnumpy()},
                                            shuffle=False).batch(32)
    thor_model.train(4, batches, dataset_sink_mode=False)
    assert opt.global_step == 4 and float(loss_fn(net(x), y).asnumpy()) < 0.7 * before
    other = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    assert ms.ConvertModelUtils.convert_to_thor_model(model, net, optimizer=other) is model


def test_thor_is_pynative_only():
    net = _Net()
    nn.thor(net, learning_rate=0.1, damping=0.1, momentum=0.9)
    assert nn.thor.__ms_eager_only__
    with pytest.raises(EagerOnlyError, match="DenseThor"):
        ms.jit(net)(_data()[0])
    net.fc1.thor = net.fc2.thor = False  # plain layers trace
    assert ms.jit(net)(_data()[0]).shape == (32, 3)


def test_thor_refuses_bad_arguments():
    with pytest.raises(ValueError, match="frequency"):
        nn.thor(_Net(), learning_rate=0.1, damping=0.1, momentum=0.9, frequency=1)
    with pytest.raises(TypeError, match="momentum"):
        nn.thor(_Net(), learning_rate=0.1, damping=0.1, momentum=1)
