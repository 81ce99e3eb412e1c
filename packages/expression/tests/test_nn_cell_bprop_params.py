"""A Cell's ``bprop`` in MindSpore's other forms: ``bprop(self, *args)`` (``out`` and
``dout`` come last, positionally) and, with ``internal_params``, ``(input grads, {param:
grad})``, whose parameter gradients reach ``grad`` w.r.t. the weights."""
import numpy as np

import sporeling.expression as sx
from sporeling.expression import nn


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = sx.Parameter(np.array([2.0], np.float32), name="w")
        self.internal_params = [self.w]

    def construct(self, x):
        return self.w * x

    def bprop(self, *args):  # (x, out, dout)
        return (self.w * args[-1] * 10,), {self.w: args[0] * args[-1]}


class NoDict(Scale):
    def bprop(self, x, out, dout):
        return (dout * 3,)


def test_star_args_bprop_and_parameter_gradients():
    net, x = Scale(), sx.Tensor(np.array([3.0], np.float32))
    gx = sx.grad(lambda v: net(v).sum())(x)
    np.testing.assert_allclose(np.asarray(gx), [20.0])
    gw = sx.grad(lambda v: net(v).sum(), grad_position=None, weights=[net.w])(x)
    np.testing.assert_allclose(np.asarray(gw[0]), [3.0])


def test_bprop_without_parameter_gradients():
    net, x = NoDict(), sx.Tensor(np.array([3.0], np.float32))
    np.testing.assert_allclose(np.asarray(sx.grad(lambda v: net(v).sum())(x)), [3.0])
