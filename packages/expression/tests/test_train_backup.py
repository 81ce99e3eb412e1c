"""``BackupAndRestore``: a run that dies at any step and is started again ends with the
weights of an uninterrupted run, bit for bit -- parameters, optimizer state, step counter
(the learning-rate schedule reads it), random states (dropout) and the dataset's state
(its shuffling) restored -- in PyNative and Graph mode."""
import os
import shutil

import numpy as np
import pytest

from sporeling.core import GRAPH_MODE, PYNATIVE_MODE, context, generator, set_seed
from sporeling.expression import nn
from sporeling.expression.train import BackupAndRestore, Callback, Model
from sporeling.expression.train.batches import TrainError

EPOCHS, STEPS = 3, 5  # steps per epoch: 40 rows in batches of 8


class Died(Exception):
    pass


class DieAt(Callback):
    """Raises after step ``step`` (after the backups of that step's end)."""

    def __init__(self, step):
        self.step = step

    def on_train_step_end(self, run_context):
        if run_context.original_args().cur_step_num == self.step:
            raise Died


class Shuffled:
    """Batches in a new order each epoch, drawn from (seed, epoch), with the iteration state
    a ``sporeling.data`` pipeline keeps (``state_dict``/``load_state_dict``; the pipeline
    itself is tested with backups in the repository's tests/test_backup_pipeline.py)."""

    def __init__(self, x, y, batch):
        self.x, self.y, self.batch = x, y, batch
        self.seed, self.epoch = int(generator("data").integers(1 << 62)), 0

    def __len__(self):
        return -(-len(self.x) // self.batch)

    def __iter__(self):
        order = np.random.default_rng([self.seed, self.epoch]).permutation(len(self.x))
        self.epoch += 1
        for i in range(0, len(order), self.batch):
            yield self.x[order[i:i + self.batch]], self.y[order[i:i + self.batch]]

    def state_dict(self):
        return {"seed": self.seed, "epoch": self.epoch}

    def load_state_dict(self, state):
        self.seed, self.epoch = state["seed"], state["epoch"]


def _run(callbacks, seed=5, pipeline=True):
    """A fresh run as a script builds it: seed, network, optimizer, data."""
    set_seed(seed)
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dropout(p=0.3), nn.Dense(8, 3))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((40, 4)).astype(np.float32)
    y = (np.arange(40) % 3).astype(np.int32)
    if pipeline:
        data = Shuffled(x, y, 8)
    else:
        data = [(x[i:i + 8], y[i:i + 8]) for i in range(0, 40, 8)]
    schedule = list(np.linspace(0.05, 0.01, EPOCHS * STEPS))
    model = Model(net, nn.CrossEntropyLoss(), nn.Adam(net.trainable_params(), schedule))
    model.train(EPOCHS, data, callbacks=callbacks)
    return [p.asnumpy().copy() for p in net.trainable_params()]


def _same(a, b):
    return all(np.array_equal(u, v) for u, v in zip(a, b))


@pytest.mark.parametrize("mode", [PYNATIVE_MODE, GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("die_at", [5, 7, 11])  # mid-epoch backup, last step, epoch end
def test_a_run_resumed_after_dying_ends_with_the_uninterrupted_weights(tmp_path, mode,
                                                                       die_at):
    with context(mode=mode):
        want = _run([])
        with pytest.raises(Died):
            _run([BackupAndRestore(tmp_path, save_steps=2), DieAt(die_at)])
        assert os.listdir(tmp_path)
        backup = BackupAndRestore(tmp_path, save_steps=2)
        got = _run([backup], seed=123)  # the seed is restored with the rest
    assert backup.resumed_step == {5: 4, 7: 6, 11: 10}[die_at]
    assert _same(got, want)
    assert not _same(_run([], seed=123), want)  # the check can fail
    assert os.listdir(tmp_path) == []  # delete_checkpoint=True: removed at the end


def test_a_list_dataset_resumes_too_and_backups_can_be_kept(tmp_path):
    want = _run([], pipeline=False)
    with pytest.raises(Died):
        _run([BackupAndRestore(tmp_path), DieAt(12)], pipeline=False)  # epoch ends only
    backup = BackupAndRestore(tmp_path, delete_checkpoint=False)
    assert _same(_run([backup], pipeline=False), want) and backup.resumed_step == 10
    assert sorted(os.listdir(tmp_path)) == ["backup-rank0-step10.safetensors",
                                            "backup-rank0-step15.safetensors"]
    finished = BackupAndRestore(tmp_path)  # a finished run's backup: nothing left to train
    assert _same(_run([finished], pipeline=False, seed=9), want)
    assert finished.resumed_step == 15


def test_ranks_resume_from_the_newest_step_all_of_them_saved(tmp_path):
    """A kill between two ranks' saves of step 6: rank 1 has only step 5."""
    want = _run([])
    with pytest.raises(Died):
        _run([BackupAndRestore(tmp_path, save_steps=2, rank=0), DieAt(7)])
    assert BackupAndRestore(tmp_path).backups() == {0: [5, 6]}
    shutil.copy(tmp_path / "backup-rank0-step5.safetensors",
                tmp_path / "backup-rank1-step5.safetensors")
    backup = BackupAndRestore(tmp_path, save_steps=2, rank=0)
    assert _same(_run([backup]), want) and backup.resumed_step == 5
    lone = tmp_path / "lone"
    lone.mkdir()
    shutil.copy(tmp_path / "backup-rank1-step5.safetensors", lone)
    with pytest.raises(TrainError, match="rank 0 has no backup but ranks \\[1\\] do"):
        _run([BackupAndRestore(lone, rank=0)])


def test_a_backup_of_another_network_is_refused_naming_the_file(tmp_path):
    with pytest.raises(Died):
        _run([BackupAndRestore(tmp_path), DieAt(6)])
    set_seed(0)
    other = nn.Dense(4, 3)
    model = Model(other, nn.CrossEntropyLoss(), nn.Adam(other.trainable_params(), 0.1))
    data = [(np.zeros((8, 4), np.float32), np.zeros(8, np.int32))]
    with pytest.raises(TrainError, match="the backup does not fit this training run") as info:
        model.train(2, data, callbacks=BackupAndRestore(tmp_path))
    assert "backup-rank0-step5.safetensors" in str(info.value)


@pytest.mark.parametrize("kwargs, message", [
    ({"backup_dir": 3}, "'backup_dir' must be a str"),
    ({"backup_dir": "b", "save_freq": 0}, "'save_freq' must be 'epoch' or an int >= 1"),
    ({"backup_dir": "b", "save_freq": "step"}, "'save_freq' must be 'epoch'"),
    ({"backup_dir": "b", "delete_checkpoint": 1}, "'delete_checkpoint' must be bool"),
    ({"backup_dir": "b", "save_steps": 0}, "'save_steps' must be None or an int >= 1"),
])
def test_bad_arguments_are_refused_as_mindspore_does(kwargs, message):
    with pytest.raises(ValueError, match=message):
        BackupAndRestore(**kwargs)
