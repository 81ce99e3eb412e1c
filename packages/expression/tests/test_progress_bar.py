"""ProgressBar: one bar for the whole run on a terminal; plain lines, one per epoch and no
carriage returns, when the output is a file or a pipe."""
import io

import numpy as np

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.expression.nn import Adam
from sporeling.expression.train import Model, ProgressBar


class Terminal(io.StringIO):
    def isatty(self):
        return True


def _data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 3)).astype(np.float32)
    y = x.sum(axis=1, keepdims=True)
    return [(x[i:i + 8], y[i:i + 8]) for i in range(0, 32, 8)]  # 4 batches


def _model():
    sx.set_seed(0)
    net = nn.Dense(3, 1)
    return Model(net, nn.MSELoss(), Adam(net.trainable_params(), 0.05))


def test_one_bar_for_the_whole_run_on_a_terminal():
    out = Terminal()
    _model().train(3, _data(), callbacks=[ProgressBar(file=out)])
    text = out.getvalue()
    assert "12/12" in text and "4/4" not in text  # one total over 3 epochs x 4 steps
    assert "Epoch 3/3" in text and "loss=" in text
    assert text.count("\n") == 1  # one bar, left on screen once at the end


def test_plain_lines_without_carriage_returns_when_not_a_terminal():
    out = io.StringIO()
    _model().train(3, _data(), callbacks=[ProgressBar(file=out)])
    text = out.getvalue()
    assert "\r" not in text
    lines = text.splitlines()
    assert [line.split(":")[0] for line in lines] == ["Epoch 1/3", "Epoch 2/3", "Epoch 3/3"]
    assert all("loss=" in line and "4 steps" in line for line in lines), lines


def test_plain_can_be_forced_and_disable_writes_nothing():
    out = Terminal()
    _model().train(2, _data(), callbacks=[ProgressBar(file=out, plain=True)])
    assert "\r" not in out.getvalue() and len(out.getvalue().splitlines()) == 2
    quiet = Terminal()
    _model().train(2, _data(), callbacks=[ProgressBar(file=quiet, disable=True)])
    assert quiet.getvalue() == ""


def test_close_ends_a_bar_left_open_by_an_interrupted_run():
    out = Terminal()
    bar = ProgressBar(file=out)

    class Interrupt(sx.train.Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 6:
                raise KeyboardInterrupt

    try:
        _model().train(3, _data(), callbacks=[bar, Interrupt()])
    except KeyboardInterrupt:
        pass
    bar.close()
    assert "6/12" in out.getvalue() and out.getvalue().endswith("\n")
    bar.close()  # twice is harmless
