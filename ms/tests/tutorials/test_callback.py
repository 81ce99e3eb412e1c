"""Tutorial "Callback Mechanism" (docs r2.3.1, tutorials/source_en/advanced/model/
callback.md): its code with only the import renamed, on a small synthetic MNIST read in order,
weights set from NumPy: ``ModelCheckpoint``, ``LossMonitor``, ``fit``, ``TimeMonitor``, and
the custom ``StopTimeMonitor`` (its run time 0 s: it stops after the first step, a
deterministic point) and ``SaveCkptMonitor``; in PyNative and Graph mode."""
import os
import tempfile
import time

import pytest

import sporeling.ms as ms
from sporeling.ms import nn
from sporeling.ms.train import Model

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


class StopTimeMonitor(ms.train.Callback):

    def __init__(self, run_time):
        super(StopTimeMonitor, self).__init__()
        self.run_time = run_time

    def on_train_begin(self, run_context):
        cb_params = run_context.original_args()
        cb_params.init_time = time.time()

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        epoch_num = cb_params.cur_epoch_num
        step_num = cb_params.cur_step_num
        cur_time = time.time()
        if (cur_time - cb_params.init_time) > self.run_time:
            self.stopped_at = (epoch_num, step_num)
            run_context.request_stop()


class SaveCkptMonitor(ms.train.Callback):

    def __init__(self, loss):
        super(SaveCkptMonitor, self).__init__()
        self.loss = loss
        self.saved = []

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        cur_loss = cb_params.net_outputs.asnumpy()
        if cur_loss < self.loss:
            file_name = f"./checkpoint/{cb_params.cur_epoch_num}_{cb_params.cur_step_num}.ckpt"
            ms.save_checkpoint(save_obj=cb_params.train_network, ckpt_file_name=file_name)
            self.saved.append(os.path.basename(file_name))


def callback_program(mode):
    set_mode(mode)
    out = {}
    root = fake_mnist(n_train=64, n_test=32)
    cwd = os.getcwd()
    os.chdir(tempfile.mkdtemp())
    try:
        model = init_weights(Network(), 0.03)
        loss_fn = nn.CrossEntropyLoss()
        optimizer = nn.SGD(model.trainable_params(), 1e-2)
        train_dataset = mnist_pipe(root + '/train', 16)
        test_dataset = mnist_pipe(root + '/test', 16)
        trainer = Model(model, loss_fn=loss_fn, optimizer=optimizer, metrics={'accuracy'})

        from sporeling.ms.train import CheckpointConfig, ModelCheckpoint
        config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=10)
        ckpt_callback = ModelCheckpoint(prefix="mnist", directory="./checkpoint", config=config)
        trainer.train(1, train_dataset, callbacks=[ckpt_callback, step_losses(out, "ckpt")])
        out["checkpoints"] = sorted(f for f in os.listdir("checkpoint") if f.endswith(".ckpt"))

        from sporeling.ms.train import LossMonitor
        loss_monitor = LossMonitor(300)
        trainer.train(1, train_dataset, callbacks=[loss_monitor, step_losses(out, "monitor")])
        trainer.fit(1, train_dataset, test_dataset,
                    callbacks=[loss_monitor, step_losses(out, "fit")])

        from sporeling.ms.train import TimeMonitor
        time_monitor = TimeMonitor()
        trainer.train(1, train_dataset, callbacks=[time_monitor, step_losses(out, "time")])

        datasize = train_dataset.get_dataset_size()
        stop = StopTimeMonitor(0)
        trainer.train(5, train_dataset, callbacks=[LossMonitor(datasize), stop,
                                                   step_losses(out, "stop")])
        out["stopped_at"] = stop.stopped_at

        save = SaveCkptMonitor(2.3)
        trainer.train(1, train_dataset, callbacks=[save])
        out["saved"] = save.saved
        out["accuracy"] = trainer.eval(test_dataset)["accuracy"]
    finally:
        os.chdir(cwd)
    return out


@pytest.mark.parametrize("mode", MODES)
def test_callback(mode):
    check("test_callback", "callback_program", callback_program(mode), mode, rtol=1e-4)
