"""MindSpore 2.10's training helpers in ``ms.train``: the learning-rate callbacks,
``LambdaCallback``, ``OnRequestExit``, loss-scale managers in ``Model``, ``DatasetHelper``,
``data_sink`` and the checkpoint helpers."""
import os
import signal

import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import nn
from sporeling.expression.train.batches import TrainError

_X = np.array([[1, 0], [0, 1]] * 8, np.float32)
_Y = np.array([0, 1] * 8, np.int32)
_DATA = [(_X[i:i + 4], _Y[i:i + 4]) for i in range(0, 16, 4)]


@pytest.fixture(autouse=True)
def _pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _model(lr=0.1, **kwargs):
    ms.set_seed(1)
    net = nn.Dense(2, 2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return net, opt, ms.train.Model(net, loss, opt, **kwargs)


def test_lambda_callback_calls_the_functions_given():
    events = []
    cb = ms.train.LambdaCallback(
        on_train_begin=lambda rc: events.append("begin"),
        on_train_step_end=lambda rc: events.append(rc.original_args().cur_step_num),
        on_train_end=lambda rc: events.append("end"))
    _model()[2].train(1, _DATA[:2], callbacks=[cb])
    assert events == ["begin", 1, 2, "end"]
    with pytest.raises(TypeError):
        ms.train.LambdaCallback(on_train_end=3)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_learning_rate_scheduler_sets_the_rate_the_next_steps_use(mode):
    ms.set_context(mode=mode)
    net, opt, model = _model()
    model.train(1, _DATA[:1])  # a step compiled with the constant rate first
    seen = []
    cb = ms.train.LearningRateScheduler(lambda lr, step: lr / 2 if step % 2 == 0 else lr)
    log = ms.train.LambdaCallback(on_train_step_begin=lambda rc: seen.append(opt.get_lr()))
    model.train(1, _DATA, callbacks=[log, cb])
    assert np.allclose(seen, [0.1, 0.1, 0.05, 0.05], rtol=1e-6)
    zero = ms.train.LearningRateScheduler(lambda lr, step: 0.0)
    model.train(1, _DATA[:1], callbacks=[zero])
    before = net.weight.asnumpy().copy()
    model.train(1, _DATA[:1])  # momentum only: the velocity decays, the rate stays 0
    assert np.allclose(before, net.weight.asnumpy())


def test_reduce_lr_on_plateau_waits_patience_then_cools_down():
    net, opt, model = _model()
    values = iter([1.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.2])
    cb = ms.train.ReduceLROnPlateau(monitor="acc", mode="min", factor=0.5, patience=2,
                                    cooldown=1, min_lr=0.02)
    lrs = []

    class FakeEval(ms.train.Callback):
        def on_train_epoch_end(self, run_context):
            run_context.original_args().eval_results = {"acc": next(values)}

    log = ms.train.LambdaCallback(on_train_epoch_end=lambda rc: lrs.append(opt.get_lr()))
    model.train(7, _DATA[:1], callbacks=[FakeEval(), cb, log])
    # epochs 3, 4 no better -> halve at 4; cooldown epoch 5; 5, 6 -> halve at 6 (0.025)
    assert np.allclose(lrs, [0.1, 0.1, 0.1, 0.05, 0.05, 0.025, 0.025], rtol=1e-6)


def test_reduce_lr_on_plateau_refuses_dynamic_rates():
    ms.set_seed(1)
    net = nn.Dense(2, 2)
    opt = nn.Momentum(net.trainable_params(), [0.1, 0.05, 0.01], 0.9)
    model = ms.train.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                 reduction="mean"), opt)
    with pytest.raises(TrainError, match="fixed"):
        model.train(1, _DATA[:1], callbacks=[ms.train.ReduceLROnPlateau(monitor="loss")])
    with pytest.raises(ValueError):
        ms.train.ReduceLROnPlateau(factor=1.5)


def test_on_request_exit_stops_on_the_signal_and_saves(tmp_path):
    net, _, model = _model()
    cb = ms.train.OnRequestExit(save_mindir=False, file_name="job", directory=str(tmp_path),
                                sig=signal.SIGUSR1)
    steps = []
    send = ms.train.LambdaCallback(on_train_step_end=lambda rc: (
        steps.append(1), len(steps) == 2 and os.kill(os.getpid(), signal.SIGUSR1)))
    model.train(3, _DATA, callbacks=[send, cb])
    assert len(steps) == 2  # stopped after the step the signal came in
    saved = ms.load_checkpoint(str(tmp_path / "job_train.ckpt"))
    assert np.allclose(saved["weight"].asnumpy(), net.weight.asnumpy())
    net2, _, model2 = _model()
    model2.train(1, _DATA[:1], callbacks=[ms.train.OnRequestExit(
        save_mindir=False, file_name="job", directory=str(tmp_path), sig=signal.SIGUSR1)])
    # the next run started from the saved weights (one step further than a fresh run)
    fresh, _, model3 = _model()
    model3.train(1, _DATA[:1])
    assert not np.allclose(net2.weight.asnumpy(), fresh.weight.asnumpy())


@pytest.mark.parametrize("manager, cell", [
    (lambda: ms.train.DynamicLossScaleManager(2 ** 10, 2, 2), "TrainOneStepWithLossScaleCell"),
    (lambda: ms.FixedLossScaleManager(16.0, drop_overflow_update=True),
     "TrainOneStepWithLossScaleCell"),
    (lambda: ms.FixedLossScaleManager(16.0, drop_overflow_update=False), "TrainOneStepCell")])
def test_loss_scale_managers_train_like_an_unscaled_step(manager, cell):
    net, _, plain = _model()
    plain.train(2, _DATA)
    scaled_net, opt, scaled = _model(loss_scale_manager=manager())
    if cell == "TrainOneStepCell":  # the optimizer undoes the fixed scale (MindSpore's rule)
        ms.set_seed(1)
        scaled_net = nn.Dense(2, 2)
        opt = nn.Momentum(scaled_net.trainable_params(), 0.1, 0.9, loss_scale=16.0)
        scaled = ms.train.Model(scaled_net, nn.SoftmaxCrossEntropyWithLogits(
            sparse=True, reduction="mean"), opt, loss_scale_manager=manager())
    assert type(scaled.train_network).__name__ == cell
    scaled.train(2, _DATA)
    assert np.allclose(net.weight.asnumpy(), scaled_net.weight.asnumpy(), atol=1e-5)


def test_model_build_checks_datasets():
    _, _, model = _model()
    model.build(_DATA, _DATA)
    with pytest.raises(TrainError):
        model.build(42)


def test_dataset_helper_and_data_sink():
    data = ms.dataset.NumpySlicesDataset({"x": np.arange(3, dtype=np.int32),
                                          "y": np.ones(3, np.int32)}, shuffle=False)
    helper = ms.train.DatasetHelper(data, dataset_sink_mode=False)
    assert len(helper) == 3 and helper.sink_size() == 3
    assert [int(x.asnumpy()) for x, _ in helper] == [0, 1, 2]
    assert ms.connect_network_with_dataset(nn.ReLU(), helper).__class__ is nn.ReLU
    sink = ms.data_sink(lambda x, y: x + y, data, sink_size=2)
    assert [int(sink().asnumpy()) for _ in range(3)] == [2, 1, 3]  # 1+1, 0+1 (restart), 2+1
    with pytest.raises(ValueError):
        ms.data_sink(lambda x: x, data, sink_size=0)


def test_checkpoint_helpers(tmp_path):
    net = nn.Dense(2, 3)
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path)
    future = ms.load_checkpoint_async(path)
    params = future.result()
    assert np.allclose(params["weight"].asnumpy(), net.weight.asnumpy())
    assert ms.async_ckpt_thread_status() is False
    a = ms.Parameter(np.ones((2, 3), np.float32), name="w")
    b = ms.Parameter(np.zeros((1, 3), np.float32), name="w")
    merged = ms.merge_sliced_parameter([a, b])
    assert merged.name == "w" and merged.shape == (3, 3)
    assert np.array_equal(merged.asnumpy(), np.concatenate([np.ones((2, 3)), np.zeros((1, 3))]))
    with pytest.raises(ValueError, match="names"):
        ms.merge_sliced_parameter([a, ms.Parameter(np.ones((1, 3), np.float32), name="v")])


@pytest.mark.parametrize("manager, cell", [
    (lambda: ms.DynamicLossScaleManager(2 ** 10, 2, 2), "TrainOneStepWithLossScaleCell"),
    (lambda: ms.FixedLossScaleManager(16.0), "TrainOneStepWithLossScaleCell"),
    (lambda: ms.FixedLossScaleManager(16.0, drop_overflow_update=False), "TrainOneStepCell")])
def test_build_train_network_takes_mindspore_loss_scale_managers(manager, cell):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    ms.set_seed(1)
    plain_net = nn.Dense(2, 2)
    plain = ms.amp.build_train_network(plain_net, nn.Momentum(plain_net.trainable_params(),
                                                              0.1, 0.9), loss)
    ms.set_seed(1)
    net = nn.Dense(2, 2)
    scale = 16.0 if cell == "TrainOneStepCell" else 1.0  # the optimizer undoes a fixed sens
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=scale)
    step = ms.train.build_train_network(net, opt, loss, level="O0", boost_level="O0",
                                        loss_scale_manager=manager())
    assert type(step).__name__ == cell
    for x, y in _DATA[:2]:
        plain(ms.Tensor(x), ms.Tensor(y))
        step(ms.Tensor(x), ms.Tensor(y))
    assert np.allclose(plain_net.weight.asnumpy(), net.weight.asnumpy(), atol=1e-5)
    with pytest.raises(Exception, match="boost_level"):
        ms.train.build_train_network(net, opt, loss, boost_level="O1")
