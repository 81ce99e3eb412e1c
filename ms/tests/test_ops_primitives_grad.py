"""ops.GradOperation: MindSpore's four flag combinations and sens_param, on functions and
Cells, in PyNative and Graph mode, against analytic gradients."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core.errors import SporelingError
from sporeling.ms import ops

from array_nn_checks import T, value

X = np.array([[1.0, 2.0], [3.0, -1.0]])
Y = np.array([[0.5, -2.0], [1.5, 4.0]])


class Net(sx.nn.Cell):
    """MindSpore's GradOperation docs example: out = x @ (y * z) with a Parameter z."""

    def __init__(self):
        super().__init__()
        self.z = sx.Parameter(np.array([2.0, 3.0]), name="z")

    def construct(self, x, y):
        return ops.MatMul()(x, y * self.z)


def test_first_input_by_default():
    net = Net()
    grad = ops.GradOperation()(net)(T(X), T(Y))
    # d sum(x @ (y z)) / dx = ones @ (y z).T
    np.testing.assert_allclose(value(grad), np.ones((2, 2)) @ (Y * [2.0, 3.0]).T)


def test_get_all_and_get_by_list():
    net = Net()
    gx, gy = ops.GradOperation(get_all=True)(net)(T(X), T(Y))
    np.testing.assert_allclose(value(gy), (X.T @ np.ones((2, 2))) * [2.0, 3.0])
    weights = sx.ParameterTuple(net.trainable_params())
    (gz,) = ops.GradOperation(get_by_list=True)(net, weights)(T(X), T(Y))
    np.testing.assert_allclose(value(gz), ((X.T @ np.ones((2, 2))) * Y).sum(0))
    inputs, params = ops.GradOperation(get_all=True, get_by_list=True)(net, weights)(T(X), T(Y))
    assert len(inputs) == 2 and len(params) == 1
    np.testing.assert_allclose(value(params[0]), value(gz))
    np.testing.assert_allclose(value(inputs[0]), value(gx))


def test_sens_param_weights_the_output():
    sens = np.array([[1.0, 0.0], [0.0, 2.0]])
    grad = ops.GradOperation(sens_param=True)(Net())(T(X), T(Y), T(sens))
    np.testing.assert_allclose(value(grad), sens @ (Y * [2.0, 3.0]).T)


def test_inside_a_jitted_step():
    net = Net()
    weights = sx.ParameterTuple(net.trainable_params())
    grad_op = ops.GradOperation(get_by_list=True)

    @sx.jit
    def step(x, y):
        return grad_op(net, weights)(x, y)[0]

    np.testing.assert_allclose(value(step(T(X), T(Y))), ((X.T @ np.ones((2, 2))) * Y).sum(0))


def test_plain_function_and_errors():
    grad = ops.GradOperation()(lambda a: ops.ReduceSum()(ops.Square()(a)))(T(X))
    np.testing.assert_allclose(value(grad), 2 * X)
    with pytest.raises(SporelingError, match="get_by_list needs the weights"):
        ops.GradOperation(get_by_list=True)(Net())
    assert ops.GradOperation(get_all=True).attrs["get_all"] is True


class TinyConvNet(sx.nn.Cell):
    """A MindSpore-1.x-style network written only with primitive classes."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.w_conv = sx.Parameter(rng.standard_normal((4, 1, 3, 3)).astype(np.float32) * 0.3,
                                   name="w_conv")
        self.w_fc = sx.Parameter(rng.standard_normal((3, 36)).astype(np.float32) * 0.3,
                                 name="w_fc")
        self.b_fc = sx.Parameter(np.zeros(3, np.float32), name="b_fc")
        self.conv = ops.Conv2D(out_channel=4, kernel_size=3, pad_mode="same")
        self.pool = ops.MaxPool(kernel_size=2, strides=2)
        self.relu = ops.ReLU()
        self.flatten = ops.Flatten()
        self.matmul = ops.MatMul(transpose_b=True)
        self.bias_add = ops.BiasAdd()
        self.loss = ops.SparseSoftmaxCrossEntropyWithLogits()

    def construct(self, x, labels):
        h = self.pool(self.relu(self.conv(x, self.w_conv)))
        logits = self.bias_add(self.matmul(self.flatten(h), self.w_fc), self.b_fc)
        return self.loss(logits, labels)


@pytest.mark.parametrize("mode", [sx.PYNATIVE_MODE, sx.GRAPH_MODE])
def test_training_with_primitive_classes_and_grad_operation(mode):
    rng = np.random.default_rng(1)
    labels = np.arange(12) % 3
    images = rng.standard_normal((12, 1, 6, 6)).astype(np.float32) * 0.1
    images[np.arange(12), 0, labels * 2, :] += 1.0  # the class is the bright row: learnable
    net = TinyConvNet()
    weights = sx.ParameterTuple(net.trainable_params())
    grad_fn = ops.GradOperation(get_by_list=True)(net, weights)
    previous = sx.get_context("mode")
    sx.set_context(mode=mode)
    try:
        step = sx.jit(grad_fn) if mode == sx.GRAPH_MODE else grad_fn
        first = float(value(net(T(images), T(labels))))
        for _ in range(40):
            grads = step(T(images), T(labels))
            for w, g in zip(weights, grads):
                ops.assign_sub(w, g * 0.3)
        last = float(value(net(T(images), T(labels))))
    finally:
        sx.set_context(mode=previous)
    assert last < 0.1 * first, (first, last)
