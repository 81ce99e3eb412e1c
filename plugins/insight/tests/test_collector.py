"""SummaryCollector: a Model.train callback writing loss, learning rate, parameter
histograms and the network's graph."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.expression.optim import SGD
from sporeling.expression.train import Model

from sporeling.insight import SummaryCollector, SummaryError

pytest.importorskip("tensorboard")
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402


def _train(log_dir, mode, epochs=2, fit=False, **kwargs):
    sx.set_seed(0)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((48, 1, 4, 4)).astype(np.float32)
    y = (x.reshape(48, -1)[:, :3].argmax(1)).astype(np.int32)
    data = [(x[i:i + 8], y[i:i + 8]) for i in range(0, 48, 8)]  # 6 steps an epoch
    net = nn.SequentialCell(nn.Flatten(), nn.Dense(16, 8), nn.ReLU(), nn.Dense(8, 3))
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  SGD(net.trainable_params(), 0.5), metrics={"acc", "loss"})
    callbacks = [SummaryCollector(log_dir, **kwargs)]
    with sx.context(mode=mode):
        if fit:
            model.fit(epochs, data, data[:2], callbacks=callbacks)
        else:
            model.train(epochs, data, callbacks=callbacks)
    acc = EventAccumulator(str(log_dir), size_guidance={"scalars": 0, "histograms": 0,
                                                         "images": 0})
    acc.Reload()
    return acc


@pytest.mark.parametrize("mode", [sx.PYNATIVE_MODE, sx.GRAPH_MODE])
def test_training_writes_loss_lr_histograms_and_graph(tmp_path, mode):
    acc = _train(tmp_path, mode, collect_freq=4)
    loss = acc.Scalars("loss")
    assert [s.step for s in loss] == [1, 4, 8, 12]
    assert loss[-1].value < loss[0].value  # it learns
    assert [s.value for s in acc.Scalars("learning_rate")] == [0.5] * 4
    assert [s.step for s in acc.Scalars("epoch_loss")] == [6, 12]
    tags = acc.Tags()["histograms"]
    assert sorted(tags) == ["1.bias", "1.weight", "3.bias", "3.weight"]
    assert [h.step for h in acc.Histograms("1.weight")] == [1, 4, 8, 12]
    graph_ops = {n.op for n in acc.Graph().node}
    assert "matmul" in graph_ops
    # Graph mode: the compiled training step (with its updates); PyNative: the forward
    assert ("assign" in graph_ops) == (mode == sx.GRAPH_MODE)


def test_specified_data_selects_what_is_collected(tmp_path):
    acc = _train(tmp_path, sx.PYNATIVE_MODE, epochs=1, collect_freq=3, collect_tensor_freq=6,
                 collect_specified_data={"histogram_regular": r"^3\.", "collect_graph": False,
                                         "collect_input_data": True})
    assert sorted(acc.Tags()["histograms"]) == ["3.bias", "3.weight"]
    assert [h.step for h in acc.Histograms("3.weight")] == [1, 6]
    assert not acc.Tags()["graph"]
    assert [i.step for i in acc.Images("input_data")] == [1, 3, 6]


def test_fit_records_the_evaluation_metrics_each_epoch(tmp_path):
    acc = _train(tmp_path, sx.PYNATIVE_MODE, fit=True, collect_freq=100,
                 collect_specified_data={"histogram_regular": None})
    assert [s.step for s in acc.Scalars("eval/acc")] == [6, 12]
    assert all(0.0 <= s.value <= 1.0 for s in acc.Scalars("eval/acc"))
    assert [s.step for s in acc.Scalars("eval/loss")] == [6, 12]
    assert not acc.Tags()["histograms"]


@pytest.mark.parametrize("kwargs, match", [
    ({"collect_freq": 0}, "collect_freq.*int >= 1.*0"),
    ({"collect_specified_data": {"collect_everything": True}},
     "unknown collect_specified_data keys \\['collect_everything'\\].*collect_metric"),
    ({"collect_specified_data": {"histogram_regular": "("}}, "histogram_regular.*'\\('"),
])
def test_bad_arguments_say_what_is_accepted(tmp_path, kwargs, match):
    with pytest.raises(SummaryError, match=match):
        SummaryCollector(tmp_path, **kwargs)
