"""``ms.train.BackupAndRestore`` (MindSpore 2.10's signature) in a MindSpore-style script:
a run that fails midway and is started again ends with the uninterrupted run's weights."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import nn


class Failed(Exception):
    pass


class FailAt(ms.train.Callback):
    def __init__(self, step):
        self.step = step

    def on_train_step_end(self, run_context):
        if run_context.original_args().cur_step_num == self.step:
            raise Failed


def _train(callbacks):
    ms.set_seed(3)
    data = np.random.default_rng(0).standard_normal((32, 2)).astype(np.float32)
    labels = (data[:, 0] > 0).astype(np.int32)
    ds = ms.dataset.GeneratorDataset(list(zip(data, labels)), ["data", "label"],
                                     shuffle=True).batch(8)
    net = nn.Dense(2, 2)
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(3, ds, callbacks=callbacks)
    return net.weight.asnumpy().copy(), net.bias.asnumpy().copy()


def test_a_failed_run_resumes_from_the_epoch_backup(tmp_path):
    want = _train([])
    with pytest.raises(Failed):
        _train([ms.train.BackupAndRestore(str(tmp_path)), FailAt(10)])
    assert sorted(p.name for p in tmp_path.iterdir()) == [  # the two newest epoch ends
        "backup-rank0-step4.safetensors", "backup-rank0-step8.safetensors"]
    got = _train([ms.BackupAndRestore(str(tmp_path), save_freq=1)])
    assert all(np.array_equal(a, b) for a, b in zip(got, want))
    assert list(tmp_path.iterdir()) == []  # delete_checkpoint=True


def test_mindspore_s_argument_checks():
    with pytest.raises(ValueError, match="'save_freq' must be 'epoch' or an int"):
        ms.train.callback.BackupAndRestore("backup", save_freq="steps")
