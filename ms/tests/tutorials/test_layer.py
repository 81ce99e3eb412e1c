"""Tutorial "Cell and Parameter" / custom layers and hooks (docs r2.3.1, tutorials/source_en/
advanced/modules/layer.md): its code with only the import renamed (``np.random`` seeded).
Parameters (read, slice-assign, ``set_data``, ``ops.assign`` under ``@ms.jit``,
``ParameterTuple.clone``, ``phase``), a custom ``Threshold`` cell and custom ``bprop``s in
both modes, ``HookBackward`` and the Cell hooks in PyNative mode, as the tutorial runs them."""
import numpy as np
import pytest

import sporeling.ms as mindspore
import sporeling.ms as ms
from sporeling.ms import nn
from sporeling.ms import ops
from sporeling.ms import Tensor, Parameter

from ._tutorial import MODES, check, set_mode


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.random.randn(5, 3), mindspore.float32), name='w')
        self.b = Parameter(Tensor(np.random.randn(3,), mindspore.float32), name='b')

    def construct(self, x):
        z = ops.matmul(x, self.w) + self.b
        return z


def parameters_program():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.random.seed(0)
    out = {}
    net = Network()
    out["b"] = net.b.asnumpy()
    out["trainable"] = [p.name for p in net.trainable_params()]
    out["named"] = [(name, param.asnumpy()) for name, param in net.parameters_and_names()]
    net.b[0] = 1.
    out["b_item_set"] = net.b.asnumpy()
    net.b.set_data(Tensor([3, 4, 5]))
    out["b_set_data"] = net.b.asnumpy()

    @ms.jit
    def modify_parameter():
        b_hat = ms.Tensor([7, 8, 9])
        ops.assign(net.b, b_hat)
        return True

    modify_parameter()
    out["b_assigned"] = net.b.asnumpy()

    from sporeling.ms.common.initializer import initializer
    from sporeling.ms import ParameterTuple
    x = Parameter(default_input=ms.Tensor(np.arange(2 * 3).reshape((2, 3))), name="x")
    y = Parameter(default_input=initializer('ones', [1, 2, 3], ms.float32), name='y')
    z = Parameter(default_input=2.0, name='z')
    params = ParameterTuple((x, y, z))
    params_copy = params.clone("params_copy")
    out["params"] = [(p.name, p.asnumpy()) for p in params]
    out["params_copy"] = [(p.name, p.asnumpy()) for p in params_copy]
    net.set_train()
    out["phase_train"] = net.phase
    net.set_train(False)
    out["phase_predict"] = net.phase
    return out


class Threshold(nn.Cell):
    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = threshold
        self.value = value

    def construct(self, inputs):
        cond = ops.gt(inputs, self.threshold)
        value = ops.fill(inputs.dtype, inputs.shape, self.value)
        return ops.select(cond, inputs, value)


class Dropout2d(nn.Cell):
    def __init__(self, keep_prob):
        super().__init__()
        self.keep_prob = keep_prob
        self.dropout2d = ops.Dropout2D(keep_prob)

    def construct(self, x):
        return self.dropout2d(x)

    def bprop(self, x, out, dout):
        _, mask = out
        dy, _ = dout
        if self.keep_prob != 0:
            dy = dy * (1 / self.keep_prob)
        dy = mask.astype(mindspore.float32) * dy
        return (dy.astype(x.dtype), )


class NetWithParam(nn.Cell):
    def __init__(self):
        super(NetWithParam, self).__init__()
        self.w = Parameter(Tensor(np.array([2.0], dtype=np.float32)), name='weight')
        self.internal_params = [self.w]

    def construct(self, x):
        output = self.w * x
        return output

    def bprop(self, *args):
        return (self.w * args[-1],), {self.w: args[0] * args[-1]}


def custom_program(mode="PYNATIVE_MODE"):
    set_mode(mode)
    out = {}
    m = Threshold(0.1, 20)
    inputs = mindspore.Tensor([0.1, 0.2, 0.3], mindspore.float32)
    out["threshold"] = m(inputs)

    dropout_2d = Dropout2d(0.8)
    dropout_2d.bprop_debug = True
    x = Tensor(np.ones((2, 8, 4, 4), np.float32))
    g = ms.grad(dropout_2d)(x)
    # the mask is random (each framework its own): the custom bprop gives mask / keep_prob
    out["dropout_bprop"] = set(np.unique(g.asnumpy()).tolist()) <= {0.0, 1.25}
    return out


def param_bprop_program():
    """PyNative only: 2.10's Graph mode rejects a bprop that uses a Parameter."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = NetWithParam()
    x = Tensor(np.array([3.0], np.float32))
    return {"param_bprop": ms.grad(net, 0, net.trainable_params())(x),
            "value_and_grad": ms.value_and_grad(net, None, net.trainable_params())(x)}


def hooks_program():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    out = {}

    def hook_fn(grad_out):
        """Print Gradient"""
        out["hook_grad_out"] = grad_out

    hook = ops.HookBackward(hook_fn)

    def hook_test(x, y):
        z = x * y
        z = hook(z)
        z = z * y
        return z

    def net(x, y):
        return ms.grad(hook_test, grad_position=(0, 1))(x, y)

    out["hook_backward"] = net(ms.Tensor(1, ms.float32), ms.Tensor(2, ms.float32))

    def forward_pre_hook_fn(cell, inputs):
        out["pre_hook_inputs"] = inputs
        input_x = inputs[0]
        return input_x

    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.relu = nn.ReLU()
            self.handle = self.relu.register_forward_pre_hook(forward_pre_hook_fn)

        def construct(self, x, y):
            x = x + y
            x = self.relu(x)
            return x

    net = Net()
    grad_net = ms.grad(net, grad_position=(0, 1))
    x = ms.Tensor(np.ones([1]).astype(np.float32))
    y = ms.Tensor(np.ones([1]).astype(np.float32))
    out["pre_hook_output"] = net(x, y)
    out["pre_hook_grad"] = grad_net(x, y)
    net.handle.remove()
    out["pre_hook_removed_grad"] = grad_net(x, y)

    def forward_pre_hook_fn(cell, inputs):
        return ms.Tensor(np.ones([1]).astype(np.float32))

    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.relu = nn.ReLU()
            self.handle = self.relu.register_forward_pre_hook(forward_pre_hook_fn)

        def construct(self, x, y):
            x = x + y
            x = self.relu(x)
            return x

    net = Net()
    grad_net = ms.grad(net, grad_position=(0, 1))
    out["pre_hook_replaced_grad"] = grad_net(x, y)

    def forward_hook_fn(cell, inputs, outputs):
        out["fwd_hook_io"] = (inputs, outputs)
        outputs = outputs + outputs
        return outputs

    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.relu = nn.ReLU()
            self.handle = self.relu.register_forward_hook(forward_hook_fn)

        def construct(self, x, y):
            x = x + y
            x = self.relu(x)
            return x

    net = Net()
    grad_net = ms.grad(net, grad_position=(0, 1))
    out["fwd_hook_grad"] = grad_net(x, y)
    net.handle.remove()
    out["fwd_hook_removed_grad"] = grad_net(x, y)

    def backward_hook_function(cell_id, grad_input, grad_output):
        out["bwd_hook"] = (grad_input, grad_output)

    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.conv = nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=0, weight_init="ones",
                                  pad_mode="valid")
            self.bn = nn.BatchNorm2d(2, momentum=0.99, eps=0.00001, gamma_init="ones")
            self.handle = self.bn.register_backward_hook(backward_hook_function)
            self.relu = nn.ReLU()

        def construct(self, x):
            x = self.conv(x)
            x = self.bn(x)
            x = self.relu(x)
            return x

    net = Net()
    grad_net = ms.grad(net)
    out["bwd_hook_grad"] = grad_net(ms.Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
    net.handle.remove()
    out["bwd_hook_removed_grad"] = grad_net(ms.Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
    return out


def test_parameters():
    # Parameter.set_data(Tensor([3, 4, 5])) keeps the int64 data in the facade; 2.10 casts it
    # to the parameter's float32 (ms/README.md, differences)
    check("test_layer", "parameters_program", parameters_program(),
          values_only=("b_set_data", "b_assigned"))


@pytest.mark.parametrize("mode", MODES)
def test_custom_cells(mode):
    # 2.10's Graph mode fails on this program (RuntimeError "The pointer[graph] is null",
    # with bprop_debug): both modes are compared with its PyNative outputs
    check("test_layer", "custom_program", custom_program(mode), "PYNATIVE_MODE")


def test_param_bprop():
    check("test_layer", "param_bprop_program", param_bprop_program())


def test_hooks():
    check("test_layer", "hooks_program", hooks_program())
