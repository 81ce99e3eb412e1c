"""Training wrappers and Model: a small synthetic problem, datasets, eval and predict."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.expression.optim import SGD, Adam
from sporeling.expression.train import (Model, TrainOneStepCell, WithEvalCell, WithLossCell,
                                        metrics)
from sporeling.expression.train.batches import TrainError


def _blobs(n=64, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n).astype(np.int32)
    centers = np.array([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.5]], np.float32)
    x = centers[y] + 0.3 * rng.standard_normal((n, 2)).astype(np.float32)
    return [(x[i:i + 16], y[i:i + 16]) for i in range(0, n, 16)]


def _model(lr=0.1, metrics_=("acc", "loss")):
    sx.set_seed(0)
    net = nn.Dense(2, 3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return net, Model(net, loss, Adam(net.trainable_params(), lr), metrics=set(metrics_))


def test_model_trains_to_a_low_loss_and_evaluates():
    data = _blobs()
    net, model = _model()
    before = model.eval(data)["loss"]
    model.train(8, data)
    result = model.eval(data)
    assert result["loss"] < 0.2 < before
    assert result["acc"] == 1.0
    out = model.predict(data[0][0])
    assert tuple(out.shape) == (16, 3)
    assert not net.training  # predict/eval switch to inference mode


def test_dict_batches_and_callable_datasets():
    data = [{"x": x, "y": y} for x, y in _blobs()]
    _, model = _model()
    model.train(2, lambda: iter(data))
    assert model.eval(iter(data))["acc"] > 0.5


def test_generator_serves_one_epoch_only():
    _, model = _model()
    gen = (b for b in _blobs())
    with pytest.raises(TrainError, match="one-shot iterator"):
        model.train(2, gen)
    model.train(1, (b for b in _blobs()))  # one epoch is fine
    exhausted = iter([])
    with pytest.raises(TrainError, match="no batches in epoch 1"):
        model.train(1, exhausted)


def test_model_argument_errors():
    net = nn.Dense(2, 3)
    with pytest.raises(TrainError, match="without an optimizer"):
        Model(net, nn.MSELoss()).train(1, _blobs())
    with pytest.raises(TrainError, match="no metrics"):
        Model(net, nn.MSELoss()).eval(_blobs())
    with pytest.raises(TrainError, match="needs a loss"):
        Model(net, metrics={"loss"}).eval(_blobs())
    with pytest.raises(ValueError, match="epoch"):
        _model()[1].train(0, _blobs())


def test_eval_without_loss_fn_feeds_outputs_and_label():
    net, model = _model()
    model.train(6, _blobs())
    plain = Model(net, metrics={"acc", "top_1_accuracy"})
    result = plain.eval(_blobs())
    assert result["acc"] == result["top_1_accuracy"] == 1.0


def test_custom_eval_network_with_indexes():
    net, model = _model()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    custom = Model(net, eval_network=WithEvalCell(net, loss), eval_indexes=[0, 1, 2],
                   metrics={"loss": metrics.Loss(), "acc": metrics.Accuracy()})
    assert custom.eval(_blobs()) == pytest.approx(model.eval(_blobs()))


def test_train_one_step_cell_matches_manual_sgd():
    sx.set_seed(1)
    net = nn.Dense(2, 1)
    w0, b0 = net.weight.asnumpy().copy(), net.bias.asnumpy().copy()
    x = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
    y = np.array([[1.0], [0.0]], np.float32)
    step = TrainOneStepCell(WithLossCell(net, nn.MSELoss()), SGD(net.trainable_params(), 0.1))
    loss = step(x, y)
    pred = x @ w0.T + b0
    assert float(loss) == pytest.approx(float(np.mean((pred - y) ** 2)), rel=1e-5)
    dpred = 2 * (pred - y) / y.size
    np.testing.assert_allclose(net.weight.asnumpy(), w0 - 0.1 * dpred.T @ x, rtol=1e-5)
    np.testing.assert_allclose(net.bias.asnumpy(), b0 - 0.1 * dpred.sum(0), rtol=1e-5)
    assert [p.name for p in step.trainable_params()] == ["weight", "bias"]  # no wrapper prefix


def test_sens_and_max_grad_norm():
    def run(**kwargs):
        sx.set_seed(2)
        net = nn.Dense(2, 1)
        w0, b0 = net.weight.asnumpy().copy(), net.bias.asnumpy().copy()
        step = TrainOneStepCell(WithLossCell(net, nn.MSELoss()),
                                SGD(net.trainable_params(), 1.0), **kwargs)
        step(np.full((4, 2), 10.0, np.float32), np.zeros((4, 1), np.float32))
        return net.weight.asnumpy() - w0, net.bias.asnumpy() - b0

    (dw, _), (dw2, _) = run(), run(sens=2.0)
    np.testing.assert_allclose(dw2, 2 * dw, rtol=1e-5)
    dw3, db3 = run(max_grad_norm=0.5)
    # lr 1: the update is minus the clipped gradients, whose global norm is 0.5
    assert np.sqrt((dw3 ** 2).sum() + (db3 ** 2).sum()) == pytest.approx(0.5, rel=1e-4)
    with pytest.raises(ValueError, match="max_grad_norm"):
        TrainOneStepCell(nn.Dense(1, 1), SGD(nn.Dense(1, 1).trainable_params(), 1.0),
                         max_grad_norm=0)
