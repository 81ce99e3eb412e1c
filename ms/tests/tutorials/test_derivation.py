"""Tutorial "Advanced Automatic Differentiation" (docs r2.3.1, tutorials/source_en/advanced/
derivation.md): its code with only the import renamed (``np.random`` seeded, the Dense's
weights set from NumPy): first derivatives w.r.t. inputs and weights, ``has_aux``,
``stop_gradient``, and second derivatives of one and two outputs; in PyNative and Graph
mode."""
import numpy as np
import pytest

from sporeling.ms import ops, Tensor
import sporeling.ms.nn as nn
import sporeling.ms as ms

from ._tutorial import MODES, check, init_weights, set_mode


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.z = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name='z')

    def construct(self, x, y):
        out = x * x * y * self.z
        return out


class StopNet(nn.Cell):
    def __init__(self):
        super(StopNet, self).__init__()

    def construct(self, x, y):
        out1 = x * y
        out2 = x * y
        out2 = ops.stop_gradient(out2)  # Stop computing the gradient of the out2 operator.
        out = out1 + out2
        return out


class NoStopNet(nn.Cell):
    def __init__(self):
        super(NoStopNet, self).__init__()

    def construct(self, x, y):
        out1 = x * y
        out2 = x * y
        out = out1 + out2
        return out


class SinNet(nn.Cell):
    """Feedforward network model"""

    def __init__(self):
        super(SinNet, self).__init__()
        self.sin = ops.Sin()

    def construct(self, x):
        out = self.sin(x)
        return out


class SinCosNet(nn.Cell):
    """Feedforward network model"""
    def __init__(self):
        super(SinCosNet, self).__init__()
        self.sin = ops.Sin()
        self.cos = ops.Cos()

    def construct(self, x):
        out1 = self.sin(x)
        out2 = self.cos(x)
        return out1, out2


class TwoInputNet(nn.Cell):
    """Feedforward network model"""
    def __init__(self):
        super(TwoInputNet, self).__init__()
        self.sin = ops.Sin()
        self.cos = ops.Cos()

    def construct(self, x, y):
        out1 = self.sin(x) - self.cos(y)
        out2 = self.cos(x) - self.sin(y)
        return out1, out2


def derivation_program(mode):
    set_mode(mode)
    np.random.seed(0)
    out = {}
    x = Tensor([3.0], dtype=ms.float32)
    y = Tensor([5.0], dtype=ms.float32)
    net = Net()
    grad_fn = ms.grad(net, grad_position=(0, 1))
    out["inputs"] = grad_fn(x, y)
    params = ms.ParameterTuple(net.trainable_params())
    out["weights"] = ms.grad(net, grad_position=None, weights=params)(x, y)

    net = init_weights(nn.Dense(10, 1))
    loss_fn = nn.MSELoss()

    def forward(inputs, labels):
        logits = net(inputs)
        loss = loss_fn(logits, labels)
        return loss, logits

    np.random.seed(0)  # 2.10's nn.Dense drew its initial weights from np.random
    inputs = Tensor(np.random.randn(16, 10).astype(np.float32))
    labels = Tensor(np.random.randn(16, 1).astype(np.float32))
    grad_fn = ms.grad(forward, grad_position=0, weights=None, has_aux=True)
    inputs_gradient, (aux_logits,) = grad_fn(inputs, labels)
    out["has_aux"] = (inputs_gradient, aux_logits)

    out["stop_gradient"] = ms.grad(StopNet())(x, y)
    out["no_stop_gradient"] = ms.grad(NoStopNet())(x, y)

    x_train = ms.Tensor(np.array([3.1415926]), dtype=ms.float32)
    firstgrad = ms.grad(SinNet())
    secondgrad = ms.grad(firstgrad)
    out["second_sin"] = np.around(secondgrad(x_train).asnumpy(), decimals=2)

    firstgrad = ms.grad(SinCosNet())
    secondgrad = ms.grad(firstgrad)
    out["second_sin_cos"] = np.around(secondgrad(x_train).asnumpy(), decimals=2)

    y_train = Tensor(np.array([3.1415926]), dtype=ms.float32)
    firstgrad = ms.grad(TwoInputNet(), grad_position=(0, 1))
    secondgrad = ms.grad(firstgrad, grad_position=(0, 1))
    output = secondgrad(x_train, y_train)
    out["second_two_inputs"] = (np.around(output[0].asnumpy(), decimals=2),
                                np.around(output[1].asnumpy(), decimals=2))
    return out


@pytest.mark.parametrize("mode", MODES)
def test_derivation(mode):
    check("test_derivation", "derivation_program", derivation_program(mode), mode)
