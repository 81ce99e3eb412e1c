"""Tests that need two packages at once; they run in the `integration` env, where all are installed."""
import numpy as np
from sklearn.datasets import load_digits

import sporeling.data as sd
import sporeling.expression as sx
from sporeling.compiler import ops
from sporeling.core import set_seed


def test_model_train_accepts_a_data_pipeline():
    set_seed(0)
    digits = load_digits()
    x, y = (digits.data / 16.0).astype(np.float32), digits.target.astype(np.int32)
    ds = sd.NumpySlicesDataset((x, y), ["image", "label"]).shuffle(512).batch(64)
    net = sx.nn.SequentialCell(sx.nn.Dense(64, 32), sx.nn.ReLU(), sx.nn.Dense(32, 10))
    model = sx.Model(net, loss_fn=sx.nn.CrossEntropyLoss(),
                     optimizer=sx.nn.Adam(net.trainable_params(), learning_rate=0.01),
                     metrics={"acc"})
    model.train(3, ds)
    assert model.eval(ds)["acc"] > 0.8


def test_pynative_grad_through_a_compiler_cond():
    x = sx.Tensor([1.0, 2.0])
    f = lambda t: ops.sum(ops.cond(ops.greater(ops.sum(t), 0.0),  # noqa: E731
                                   lambda a: ops.mul(a, a), lambda a: a, t))
    np.testing.assert_allclose(sx.grad(f)(x).asnumpy(), [2.0, 4.0])
