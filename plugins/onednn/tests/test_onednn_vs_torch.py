"""The oneDNN kernels against PyTorch's (CPU), where PyTorch is installed: the optional
cross-check (`tox -e torch-crosscheck`; skipped where torch is not installed). PyTorch is never a
dependency of the plugin."""
import numpy as np
import pytest

from sporeling.runtime import get_backend

torch = pytest.importorskip("torch")
F = torch.nn.functional
ONEDNN = get_backend("onednn")
RNG = np.random.default_rng(0)


def close(got, want):
    want = want.detach().numpy() if hasattr(want, "detach") else want
    scale = max(float(np.abs(want).max()), 1.0)
    np.testing.assert_allclose(got, want, rtol=0, atol=2e-6 * scale * np.sqrt(want.size))


@pytest.mark.parametrize("stride,pad,dilation,groups", [(1, 0, 1, 1), (2, 1, 1, 2),
                                                       (1, 2, 2, 1)])
def test_convolution_and_its_gradients(stride, pad, dilation, groups):
    x = RNG.standard_normal((4, 6, 13, 11)).astype(np.float32)
    w = RNG.standard_normal((8, 6 // groups, 3, 3)).astype(np.float32)
    tx, tw = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    ty = F.conv2d(tx, tw, stride=stride, padding=pad, dilation=dilation, groups=groups)
    g = RNG.standard_normal(tuple(ty.shape)).astype(np.float32)
    ty.backward(torch.tensor(g))
    geometry = dict(stride=(stride, stride), padding=((pad, pad), (pad, pad)),
                    dilation=(dilation, dilation), groups=groups)
    close(ONEDNN.run("conv2d", x, w, **geometry), ty)
    close(ONEDNN.run("conv2d_weight_grad", x, g, kernel_size=(3, 3), **geometry), tw.grad)
    extra = tuple(int(a - b) for a, b in zip(x.shape[2:], ONEDNN.run(
        "conv_transpose2d", g, w, output_padding=(0, 0), **geometry).shape[2:]))
    close(ONEDNN.run("conv_transpose2d", g, w, output_padding=extra, **geometry), tx.grad)


def test_max_pooling_and_its_gradient():
    x = RNG.standard_normal((4, 5, 12, 12)).astype(np.float32)
    tx = torch.tensor(x, requires_grad=True)
    ty = F.max_pool2d(tx, 3, 2, 1)
    g = RNG.standard_normal(tuple(ty.shape)).astype(np.float32)
    ty.backward(torch.tensor(g))
    geometry = dict(kernel_size=(3, 3), stride=(2, 2), padding=((1, 1), (1, 1)),
                    dilation=(1, 1))
    y, index = ONEDNN.run("max_pool2d", x, **geometry)
    close(y, ty)
    close(ONEDNN.run("max_pool2d_scatter", g, index, input_size=(12, 12), **geometry),
          tx.grad)


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_a_bidirectional_two_layer_rnn_and_its_gradients(kind):
    layer = getattr(torch.nn, kind.upper())(5, 7, num_layers=2, bidirectional=True)
    x = torch.tensor(RNG.standard_normal((6, 3, 5)).astype(np.float32), requires_grad=True)
    y, _ = layer(x)
    g = RNG.standard_normal(tuple(y.shape)).astype(np.float32)
    y.backward(torch.tensor(g))
    weights = [p.detach().numpy() for p in layer.parameters()]  # l0, l0_reverse, l1, ...
    params = dict(num_layers=2, bidirectional=True, has_bias=True, has_state=False,
                  has_lengths=False)
    out = ONEDNN.run(kind, x.detach().numpy(), *weights, **params)
    close(out[0], y)
    grads = ONEDNN.run(f"{kind}_grad", x.detach().numpy(), *weights, out[0], g,
                       cts=(True,) + (False,) * (len(out) - 1), **params)
    close(grads[0], x.grad)
    for got, p in zip(grads[1:], layer.parameters()):
        close(got, p.grad)
