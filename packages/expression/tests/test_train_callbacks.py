"""Callbacks: event order, stopping, monitors, checkpoints, early stopping, history."""
import io
import os

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.expression.optim import Adam
from sporeling.expression.serialization import load_checkpoint
from sporeling.expression.train import (Callback, CheckpointConfig, EarlyStopping, History,
                                        LossMonitor, Model, ModelCheckpoint, ProgressBar,
                                        TimeMonitor)
from sporeling.expression.train.batches import TrainError


def _data(n=32, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)
    return [(x[i:i + 8], y[i:i + 8]) for i in range(0, n, 8)]  # 4 batches


def _model(lr=0.05, metrics=None):
    sx.set_seed(0)
    net = nn.Dense(3, 1)
    return net, Model(net, nn.MSELoss(), Adam(net.trainable_params(), lr), metrics=metrics)


class Recorder(Callback):
    def __init__(self, stop_at_step=None):
        self.events, self.stop_at_step = [], stop_at_step

    def on_train_begin(self, ctx):
        self.events.append("train_begin")

    def on_train_epoch_begin(self, ctx):
        self.events.append(f"epoch_begin {ctx.original_args().cur_epoch_num}")

    def on_train_step_begin(self, ctx):
        self.events.append("step_begin")

    def on_train_step_end(self, ctx):
        cb = ctx.original_args()
        self.events.append(f"step_end {cb.cur_epoch_num}.{cb.cur_step_in_epoch}"
                           f"/{cb.cur_step_num}")
        if cb.cur_step_num == self.stop_at_step:
            ctx.request_stop()

    def on_train_epoch_end(self, ctx):
        self.events.append(f"epoch_end {ctx.original_args().cur_epoch_num}")

    def on_train_end(self, ctx):
        self.events.append("train_end")


def test_event_order_and_params():
    rec = Recorder()
    _, model = _model()
    model.train(2, _data()[:2], callbacks=[rec])
    assert rec.events == [
        "train_begin", "epoch_begin 1", "step_begin", "step_end 1.1/1", "step_begin",
        "step_end 1.2/2", "epoch_end 1", "epoch_begin 2", "step_begin", "step_end 2.1/3",
        "step_begin", "step_end 2.2/4", "epoch_end 2", "train_end"]


def test_legacy_method_names_are_called():
    class Legacy(Callback):
        seen = []

        def begin(self, ctx): self.seen.append("begin")

        def step_end(self, ctx): self.seen.append("step_end")

        def end(self, ctx): self.seen.append("end")

    _, model = _model()
    model.train(1, _data()[:1], callbacks=Legacy())
    assert Legacy.seen == ["begin", "step_end", "end"]


def test_request_stop_ends_after_the_step():
    rec = Recorder(stop_at_step=3)
    _, model = _model()
    model.train(5, _data(), callbacks=[rec])
    assert rec.events[-3:] == ["step_end 1.3/3", "epoch_end 1", "train_end"]


def test_callbacks_must_be_callback_instances():
    with pytest.raises(TypeError, match="Callback instance"):
        _model()[1].train(1, _data(), callbacks=[LossMonitor])


def test_loss_and_time_monitor_output(capsys):
    _, model = _model()
    model.train(2, _data(), callbacks=[LossMonitor(per_print_times=2), TimeMonitor()])
    out = capsys.readouterr().out.splitlines()
    steps = [line for line in out if line.startswith("epoch:")]
    assert [s.split(",")[0] for s in steps] == ["epoch: 1 step: 2", "epoch: 1 step: 4",
                                                "epoch: 2 step: 2", "epoch: 2 step: 4"]
    assert sum(line.startswith("epoch time:") for line in out) == 2


def test_loss_monitor_stops_on_nan():
    net, model = _model()
    net.weight.set_data(np.full((1, 3), np.nan, np.float32))
    with pytest.raises(ValueError, match="Invalid loss"):
        model.train(1, _data(), callbacks=[LossMonitor()])


def test_progress_bar_writes_to_its_file():
    buf = io.StringIO()
    _, model = _model()
    model.train(2, _data(), callbacks=[ProgressBar(file=buf)])
    text = buf.getvalue()
    assert "Epoch 1/2" in text and "Epoch 2/2" in text and "loss=" in text


def test_history_records_each_epoch():
    hist = History()
    _, model = _model(lr=0.1, metrics={"loss"})
    model.fit(3, _data(), valid_dataset=_data(seed=1), callbacks=[hist])
    assert hist.epoch == [1, 2, 3]
    assert len(hist.history["net_output"]) == 3 and len(hist.history["loss"]) == 3
    assert hist.history["train_loss"][-1] < hist.history["train_loss"][0]


def test_model_checkpoint_keeps_last_n(tmp_path):
    cfg = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3,
                           append_info=["epoch_num", "step_num"])
    ckpt = ModelCheckpoint("net", str(tmp_path), cfg)
    net, model = _model()
    model.train(3, _data(), callbacks=[ckpt])  # 12 steps: saves at 2, 4, ..., 12
    files = sorted(os.listdir(tmp_path))
    assert files == ["net-2_4.safetensors", "net-3_2.safetensors", "net-3_4.safetensors"]
    assert ckpt.latest_ckpt_file_name == str(tmp_path / "net-3_4.safetensors")
    params = load_checkpoint(ckpt.latest_ckpt_file_name)
    assert int(params["epoch_num"]) == 3 and int(params["step_num"]) == 12
    np.testing.assert_array_equal(params["weight"].asnumpy(), net.weight.asnumpy())
    # a second run does not overwrite the first one's files
    model.train(1, _data()[:1], callbacks=[ModelCheckpoint("net", str(tmp_path), cfg)])
    assert "net_1-1_1.safetensors" in os.listdir(tmp_path)


def test_model_checkpoint_saves_at_train_end(tmp_path):
    cfg = CheckpointConfig(save_checkpoint_steps=100, keep_checkpoint_max=0)
    _, model = _model()
    model.train(1, _data(), callbacks=[ModelCheckpoint("last", str(tmp_path), cfg)])
    assert os.listdir(tmp_path) == ["last-1_4.safetensors"]


def test_early_stopping_on_train_loss_with_patience():
    _, model = _model(lr=0.0)  # a constant loss never improves
    stopper = EarlyStopping(monitor="loss", patience=2)
    rec = Recorder()
    model.train(10, _data(), callbacks=[stopper, rec])
    assert stopper.stopped_epoch == 3 and stopper.best_epoch == 1
    assert rec.events.count("train_end") == 1 and "epoch_begin 4" not in rec.events


def test_early_stopping_restores_best_weights():
    class Diverge(Callback):
        """Makes later epochs worse, so the best weights are the first epoch's."""

        def on_train_epoch_end(self, ctx):
            net = ctx.original_args().network
            self.kept = getattr(self, "kept", net.weight.asnumpy().copy())
            net.weight.set_data(net.weight.asnumpy() + 10.0)

    net, model = _model(lr=0.0, metrics={"loss"})
    stopper = EarlyStopping(monitor="eval_loss", patience=1, restore_best_weights=True)
    div = Diverge()
    model.fit(10, _data(), valid_dataset=_data(), callbacks=[stopper, div])
    assert stopper.stopped_epoch == 2 and stopper.best_epoch == 1  # patience 1
    np.testing.assert_allclose(net.weight.asnumpy(), div.kept)  # epoch 1's weights


def test_early_stopping_names_missing_monitor():
    _, model = _model()
    with pytest.raises(TrainError, match="'acc' is not available"):
        model.train(2, _data(), callbacks=[EarlyStopping(monitor="acc")])
    with pytest.raises(ValueError, match="mode"):
        EarlyStopping(mode="up")
