"""Tutorial "Model" (docs r1.9, tutorials/source_en/advanced/model/model.md; the high-level
``Model`` API): its code with only the import renamed, on a small synthetic MNIST read in
order (``drop_remainder=True`` as there), weights set from NumPy: ``Model.fit`` with
``ModelCheckpoint`` and ``LossMonitor``, then ``Model.eval``; in PyNative and Graph mode."""
import os
import tempfile

import pytest

from sporeling.ms import nn
from sporeling.ms.train import Model, CheckpointConfig, ModelCheckpoint, LossMonitor

from ._tutorial import MODES, check, fake_mnist, init_weights, mnist_pipe, set_mode, step_losses


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28*28, 512),
            nn.ReLU(),
            nn.Dense(512, 512),
            nn.ReLU(),
            nn.Dense(512, 10)
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


def model_api_program(mode):
    set_mode(mode)
    out = {}
    root = fake_mnist(n_train=72, n_test=40)
    cwd = os.getcwd()
    os.chdir(tempfile.mkdtemp())
    try:
        train_dataset = mnist_pipe(root + '/train', 16, drop_remainder=True)
        test_dataset = mnist_pipe(root + '/test', 16, drop_remainder=True)
        model = init_weights(Network(), 0.03)
        loss_fn = nn.CrossEntropyLoss()
        optimizer = nn.SGD(model.trainable_params(), 1e-2)
        steps_per_epoch = train_dataset.get_dataset_size()
        config = CheckpointConfig(save_checkpoint_steps=steps_per_epoch)
        ckpt_callback = ModelCheckpoint(prefix="mnist", directory="./checkpoint", config=config)
        loss_callback = LossMonitor(steps_per_epoch)
        trainer = Model(model, loss_fn=loss_fn, optimizer=optimizer, metrics={'accuracy'})
        trainer.fit(3, train_dataset, test_dataset,
                    callbacks=[ckpt_callback, loss_callback, step_losses(out, "losses")])
        out["steps_per_epoch"] = steps_per_epoch
        out["checkpoints"] = sorted(f for f in os.listdir("checkpoint") if f.endswith(".ckpt"))
        acc = trainer.eval(test_dataset)
        out["acc"] = acc["accuracy"]
    finally:
        os.chdir(cwd)
    return out


@pytest.mark.parametrize("mode", MODES)
def test_model_api(mode):
    check("test_model_api", "model_api_program", model_api_program(mode), mode, rtol=1e-4)
