"""Tutorial "Optimizer" (docs r2.3.1, tutorials/source_en/advanced/modules/optimizer.md): its
code with only the import renamed. The tutorial builds each optimizer; here each one also
takes two steps on the tutorial's ``Net`` (weights set from NumPy) so that the updated
parameters, learning rates and weight decays can be compared with MindSpore 2.10's, in
PyNative and Graph mode. (Its last two snippets unpack ``(loss, _)`` from a single loss with
``has_aux=True`` and are left out.)"""
import numpy as np
import pytest

import sporeling.ms as mindspore
import sporeling.ms as ms
from sporeling.ms import nn, ops
from sporeling.ms import Tensor, Parameter
from sporeling.ms.nn import Cell

from ._tutorial import MODES, check, init_weights, set_mode


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.param = Parameter(Tensor(np.array([1.0], np.float32)), 'param')

    def construct(self, x):
        x = self.conv(x)
        x = x * self.param
        out = ops.matmul(x, x)
        return out


class ExponentialWeightDecay(Cell):

    def __init__(self, weight_decay, decay_rate, decay_steps):
        super(ExponentialWeightDecay, self).__init__()
        self.weight_decay = weight_decay
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps

    def construct(self, global_step):
        p = global_step / self.decay_steps
        return self.weight_decay * ops.pow(self.decay_rate, p)


class Momentum(nn.Optimizer):
    """Define the optimizer."""
    def __init__(self, params, learning_rate, momentum=0.9):
        super(Momentum, self).__init__(learning_rate, params)
        self.momentum = Parameter(Tensor(momentum, ms.float32), name="momentum")
        self.moments = self.parameters.clone(prefix="moments", init="zeros")

    def construct(self, gradients):
        lr = self.get_lr()
        params = self.parameters

        for i in range(len(params)):
            ops.assign(self.moments[i], self.moments[i] * self.momentum + gradients[i])
            update = params[i] - self.moments[i] * lr
            ops.assign(params[i], update)
        return params


class ApplyMomentumOptimizer(nn.Optimizer):
    """Define the optimizer (the tutorial's second ``Momentum``)."""
    def __init__(self, params, learning_rate, momentum=0.9):
        super(ApplyMomentumOptimizer, self).__init__(learning_rate, params)
        self.moments = self.parameters.clone(prefix="moments", init="zeros")
        self.momentum = momentum
        self.opt = ops.ApplyMomentum()

    def construct(self, gradients):
        params = self.parameters
        success = None
        for param, mom, grad in zip(params, self.moments, gradients):
            success = self.opt(param, mom, self.learning_rate, grad, self.momentum)
        return success


X = np.linspace(-1, 1, 64, dtype=np.float32).reshape(1, 1, 8, 8)


def two_steps(net, optim):
    """Not the tutorial's: two steps of ``optim`` on the mean output; the parameters after."""
    def forward(x):
        return net(x).mean()

    grad_fn = mindspore.value_and_grad(forward, None, optim.parameters)
    for _ in range(2):
        _, grads = grad_fn(Tensor(X))
        optim(grads)
    return [p.asnumpy() for p in net.trainable_params()]


def optimizer_program(mode):
    set_mode(mode)
    out = {}
    net = init_weights(Net())
    optim = nn.Adam(params=net.trainable_params())
    out["trainable"] = [p.name for p in net.trainable_params()]
    conv_params = [param for param in net.get_parameters() if 'conv' in param.name]
    for conv_param in conv_params:
        conv_param.requires_grad = False
    out["trainable_frozen"] = [p.name for p in net.trainable_params()]
    optim = nn.Adam(params=net.trainable_params())
    out["adam"] = two_steps(net, optim)
    optim = nn.Momentum(params=net.trainable_params(), learning_rate=0.01, momentum=0.9)
    out["momentum"] = two_steps(net, optim)

    milestone = [1, 3, 10]
    learning_rates = [0.1, 0.05, 0.01]
    lr = nn.piecewise_constant_lr(milestone, learning_rates)
    out["piecewise_lr"] = lr
    net = init_weights(Net())
    optim = nn.SGD(net.trainable_params(), learning_rate=lr)
    out["sgd_piecewise"] = two_steps(net, optim)

    learning_rate = 0.1
    decay_rate = 0.9
    decay_steps = 4
    exponential_decay_lr = nn.ExponentialDecayLR(learning_rate, decay_rate, decay_steps)
    out["exp_decay"] = [exponential_decay_lr(Tensor(i, mindspore.int32))
                        for i in range(decay_steps)]
    net = init_weights(Net())
    optim = nn.Momentum(net.trainable_params(), learning_rate=exponential_decay_lr,
                        momentum=0.9)
    out["momentum_exp_decay"] = two_steps(net, optim)

    net = init_weights(Net())
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.01,
                            momentum=0.9, weight_decay=0.9)
    out["momentum_weight_decay"] = two_steps(net, optimizer)

    net = init_weights(Net())
    conv_params = list(filter(lambda x: 'conv' in x.name, net.trainable_params()))
    no_conv_params = list(filter(lambda x: 'conv' not in x.name, net.trainable_params()))
    fix_lr = 0.01
    polynomial_decay_lr = nn.PolynomialDecayLR(learning_rate=0.1,
                                               end_learning_rate=0.01,
                                               decay_steps=4,
                                               power=0.5)
    group_params = [{'params': conv_params, 'weight_decay': 0.01, 'lr': fix_lr},
                    {'params': no_conv_params, 'lr': polynomial_decay_lr}]
    optim = nn.Momentum(group_params, learning_rate=0.1, momentum=0.9, weight_decay=0.0)
    out["groups"] = two_steps(net, optim)

    net = init_weights(Net())
    opt = Momentum(net.trainable_params(), 0.01)
    out["custom_momentum"] = two_steps(net, opt)
    net = init_weights(Net())
    opt = ApplyMomentumOptimizer(net.trainable_params(), 0.01)
    out["custom_apply_momentum"] = two_steps(net, opt)
    return out


def dynamic_decay_program(mode):
    """The tutorial's weight decay computed by a Cell from the global step."""
    set_mode(mode)
    out = {}
    net = init_weights(Net())
    weight_decay = ExponentialWeightDecay(weight_decay=0.0001, decay_rate=0.1,
                                          decay_steps=10000)
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.01,
                            momentum=0.9, weight_decay=weight_decay)
    out["momentum_dynamic_decay"] = two_steps(net, optimizer)

    return out


def experimental_program():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    out = {}
    from sporeling.ms.experimental import optim
    net = init_weights(Net())
    optimizer = optim.Adam(net.trainable_params(), lr=0.1)
    scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=30, gamma=0.1)
    out["last_lr"] = scheduler.get_last_lr()
    out["adam"] = two_steps(net, optimizer)

    net = init_weights(Net())
    conv_params = list(filter(lambda x: 'conv' in x.name, net.trainable_params()))
    no_conv_params = list(
        filter(lambda x: 'conv' not in x.name, net.trainable_params()))
    group_params = [
        {'params': conv_params, 'weight_decay': 0.01, 'lr': 0.9, "amsgrad": True},
        {'params': no_conv_params, 'lr': 0.66, "eps": 1e-6, "betas": (0.8, 0.88)}]
    optimizer = optim.Adam(params=group_params, lr=0.01)
    out["group1_lr"] = optimizer.param_groups[1]["lr"].value()
    out["group_keys"] = [sorted(g) for g in optimizer.param_groups]
    out["groups"] = two_steps(net, optimizer)
    return out


@pytest.mark.parametrize("mode", MODES)
def test_optimizer(mode):
    check("test_optimizer", "optimizer_program", optimizer_program(mode), mode, rtol=1e-4,
          atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_dynamic_weight_decay(mode):
    check("test_optimizer", "dynamic_decay_program", dynamic_decay_program(mode), mode,
          rtol=1e-4, atol=1e-6)


def test_experimental_optim():
    check("test_optimizer", "experimental_program", experimental_program(), rtol=1e-4,
          atol=1e-6)
