"""Tutorial "Automatic Differentiation" (docs r2.3.1, tutorials/source_en/beginner/
autograd.md): its code with only the import renamed (``np.random.randn`` seeded), in
PyNative and Graph mode."""
import numpy as np
import pytest

import sporeling.ms as mindspore
from sporeling.ms import nn
from sporeling.ms import ops
from sporeling.ms import Tensor, Parameter

from ._tutorial import MODES, check, set_mode


def autograd_program(mode):
    set_mode(mode)
    np.random.seed(0)
    out = {}
    x = ops.ones(5, mindspore.float32)  # input tensor
    y = ops.zeros(3, mindspore.float32)  # expected output
    w = Parameter(Tensor(np.random.randn(5, 3), mindspore.float32), name='w')  # weight
    b = Parameter(Tensor(np.random.randn(3,), mindspore.float32), name='b')  # bias

    def function(x, y, w, b):
        z = ops.matmul(x, w) + b
        loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
        return loss

    out["loss"] = function(x, y, w, b)
    grad_fn = mindspore.grad(function, (2, 3))
    out["grads"] = grad_fn(x, y, w, b)

    def function_with_logits(x, y, w, b):
        z = ops.matmul(x, w) + b
        loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
        return loss, z

    grad_fn = mindspore.grad(function_with_logits, (2, 3))
    out["grads_with_logits"] = grad_fn(x, y, w, b)

    def function_stop_gradient(x, y, w, b):
        z = ops.matmul(x, w) + b
        loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
        return loss, ops.stop_gradient(z)

    grad_fn = mindspore.grad(function_stop_gradient, (2, 3))
    out["grads_stop_gradient"] = grad_fn(x, y, w, b)

    grad_fn = mindspore.grad(function_with_logits, (2, 3), has_aux=True)
    grads, (z,) = grad_fn(x, y, w, b)
    out["grads_has_aux"], out["z"] = grads, z

    class Network(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = w
            self.b = b

        def construct(self, x):
            z = ops.matmul(x, self.w) + self.b
            return z

    model = Network()
    loss_fn = nn.BCEWithLogitsLoss()

    def forward_fn(x, y):
        z = model(x)
        loss = loss_fn(z, y)
        return loss

    grad_fn = mindspore.value_and_grad(forward_fn, None, weights=model.trainable_params())
    loss, grads = grad_fn(x, y)
    out["value_and_grad"] = (loss, grads)
    return out


@pytest.mark.parametrize("mode", MODES)
def test_autograd(mode):
    check("test_autograd", "autograd_program", autograd_program(mode), mode)
