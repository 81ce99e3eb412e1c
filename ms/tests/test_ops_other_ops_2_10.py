"""``ops.other_ops`` (2.10's ``mindspore.ops.operations.other_ops``): the facade's primitives
by that module path, and ``stop_gradient_op``."""
import importlib

import numpy as np

import sporeling.ms as ms
from sporeling.ms import ops


def test_module_paths_hold_the_facades_primitives():
    module = importlib.import_module("sporeling.ms.ops.operations.other_ops")
    assert module is ops.other_ops is ops.operations.other_ops
    for name in module.__all__:
        if name != "stop_gradient_op":
            assert getattr(module, name) is getattr(ops, name)
    boxes = ms.Tensor(np.array([[0, 0, 2, 2]], np.float32))
    gts = ms.Tensor(np.array([[1, 1, 3, 3]], np.float32))
    np.testing.assert_allclose(module.IOU()(boxes, gts).asnumpy(), [[4 / 14]], rtol=1e-5)  # +1-pixel areas, as 2.10


def test_stop_gradient_op_stops_the_gradient():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    grad = ms.grad(lambda v: ops.sum(v * v + ops.other_ops.stop_gradient_op(v * v)))(x)
    np.testing.assert_allclose(grad.asnumpy(), [2.0, 4.0])
