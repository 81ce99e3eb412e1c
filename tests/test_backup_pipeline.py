"""``BackupAndRestore`` with a ``sporeling.data`` pipeline (data + expression): the
pipeline's iteration state -- epoch number and the seeds of its shuffles and random
augmentations -- is backed up and put back, so a run resumed midway through an epoch reads
the rest of that epoch and the later ones in the order they would have come, and ends with
the uninterrupted run's weights, in PyNative and Graph mode."""
import numpy as np
import pytest

import sporeling.data as sd
from sporeling.core import GRAPH_MODE, PYNATIVE_MODE, context, set_seed
from sporeling.expression import nn
from sporeling.expression.train import BackupAndRestore, Callback, Model


class Died(Exception):
    pass


class DieAt(Callback):
    def __init__(self, step):
        self.step = step

    def on_train_step_end(self, run_context):
        if run_context.original_args().cur_step_num == self.step:
            raise Died


def _noise(x):
    return (x + 0.1 * sd.sample_rng().standard_normal(x.shape)).astype(np.float32)


def _run(callbacks, seed):
    set_seed(seed)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((40, 4)).astype(np.float32)
    y = (np.arange(40) % 3).astype(np.int32)
    data = sd.NumpySlicesDataset((x, y), ["x", "y"], shuffle=True).map(_noise, ["x"]) \
        .shuffle(8).batch(8)
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 3))
    model = Model(net, nn.CrossEntropyLoss(), nn.Adam(net.trainable_params(), 0.05))
    model.train(3, data, callbacks=callbacks)
    return [p.asnumpy().copy() for p in net.trainable_params()]


@pytest.mark.parametrize("mode", [PYNATIVE_MODE, GRAPH_MODE], ids=["pynative", "graph"])
def test_a_pipeline_resumes_mid_epoch_in_its_order(tmp_path, mode):
    with context(mode=mode):
        want = _run([], seed=5)
        with pytest.raises(Died):
            _run([BackupAndRestore(tmp_path, save_steps=3), DieAt(8)], seed=5)
        backup = BackupAndRestore(tmp_path, save_steps=3)
        got = _run([backup], seed=6)  # other seeds drawn: the backup's are put back
        assert not all(np.array_equal(a, b) for a, b in zip(_run([], seed=6), want))
    assert backup.resumed_step == 6  # step 1 of epoch 2: five batches read past
    assert all(np.array_equal(a, b) for a, b in zip(got, want))
