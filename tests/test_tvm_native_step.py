"""A whole training step as one generated function (the TVM backend's native_step): the same parameters as
the step run kernel by kernel, every step; what refuses it (a label out of range, another
layout) still runs and says what it says; a second process loads it from the disk cache
without TVM's compiler."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import set_context
from sporeling.expression import nn
from sporeling.expression.optim import Momentum

pytestmark = pytest.mark.usefixtures("fresh_home_and_context")


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(20, 64)
        self.fc2 = nn.Dense(64, 5)

    def construct(self, x):
        return self.fc2(sx.ops.relu(self.fc1(x)))


class ConvNet(nn.Cell):
    """A convolution and a batch norm (oneDNN's, on channel-blocked arrays): its running
    statistics are written before the loss is computed."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 16, 3, pad_mode="same")
        self.norm = nn.BatchNorm2d(16)
        self.fc = nn.Dense(16 * 4 * 5, 5)

    def construct(self, x):
        x = sx.ops.relu(self.norm(self.conv(x.reshape(x.shape[0], 1, 4, 5))))
        return self.fc(x.reshape(x.shape[0], -1))


class LSTMNet(nn.Cell):
    """Two LSTM layers, the last step into a dense layer: generated RNN kernels, an
    ``add_at`` in the backward, a row times a matrix (BLAS's ``sgemv``)."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 16, num_layers=2, has_bias=True, batch_first=True)
        self.fc = nn.Dense(16, 5)

    def construct(self, x):
        out, _ = self.lstm(x.reshape(1, 5, 4))
        return self.fc(out[:, -1])


def _setup(lr=0.05, norm=False, net=None):
    sx.set_seed(0)
    net = net() if net else ConvNet() if norm else Net()
    net.set_train()
    loss_fn = nn.CrossEntropyLoss()
    opt = Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9)
    grad_fn = sx.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    @sx.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss
    return net, train_step


def _batches(steps, rows=32):
    rng = np.random.default_rng(1)
    return [(rng.standard_normal((rows, 20)).astype(np.float32),
             rng.integers(0, 5, rows).astype(np.int32)) for _ in range(steps)]


def _train(native: bool, batches, lr=0.05, norm=False, net=None):
    set_context(tvm_native_steps=native)
    net, step = _setup(lr, norm, net)
    losses = [float(step(sx.Tensor(x), sx.Tensor(y)).asnumpy()) for x, y in batches]
    return net, step, losses


def test_the_native_step_trains_as_the_kernels_do_bit_for_bit():
    batches = _batches(8)
    net, step, losses = _train(True, batches)
    assert "whole step: one native function of" in step.explain()
    ref_net, ref_step, ref_losses = _train(False, batches)
    assert "whole step: Python (set_context(tvm_native_steps=False))" in ref_step.explain()
    assert losses == ref_losses
    for p, q in zip(net.trainable_params(), ref_net.trainable_params()):
        np.testing.assert_array_equal(p.asnumpy(), q.asnumpy())


def _native_and_as_kernel_by_kernel(batches, **setup):
    """Trains natively (asserting it ran so) and kernel by kernel: equal bit for bit."""
    net, step, losses = _train(True, batches, **setup)
    assert "whole step: one native function" in step.explain()
    ref_net, _, ref_losses = _train(False, batches, **setup)
    assert losses == ref_losses
    for p, q in zip(net.trainable_params(), ref_net.trainable_params()):
        np.testing.assert_array_equal(p.asnumpy(), q.asnumpy())


def test_an_lstm_step_is_native_too():
    _native_and_as_kernel_by_kernel(_batches(6, rows=1), net=LSTMNet)


def test_a_learning_rate_per_step_is_read_at_each_steps_count():
    """A schedule's rate is a row at the step count (a generated copy): a view of it
    would have been replayed at the recorded step's rate."""
    _native_and_as_kernel_by_kernel(_batches(8), lr=[0.1 / (1 + k) for k in range(8)])


def test_a_label_out_of_range_stops_the_native_step_and_is_named():
    batches = _batches(4)
    net, step, _ = _train(True, batches)
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    x, y = batches[0]
    y = y.copy()
    y[3] = 7
    with pytest.raises(Exception, match="7"):
        step(sx.Tensor(x), sx.Tensor(y))
    for p, b in zip(net.trainable_params(), before):  # nothing was updated
        np.testing.assert_array_equal(p.asnumpy(), b)
    assert "one native function" in step.explain()  # and the next good step is native


def test_a_label_out_of_range_after_an_update_is_named_with_its_line():
    """A batch norm's running statistics are written before the loss: the native step
    stops at the loss's check and names it (the statistics moved once, as the kernel by
    kernel step leaves them when its cross entropy raises)."""
    batches = _batches(4)
    x, y = batches[0]
    y = y.copy()
    y[3] = 7
    states = []
    for native in (True, False):
        net, step, _ = _train(native, batches, norm=True)
        assert ("one native function" in step.explain()) == native
        with pytest.raises(Exception) as error:
            step(sx.Tensor(x), sx.Tensor(y))
        if native:
            assert "softmax_cross_entropy" in str(error.value)
            assert "test_tvm_native_step.py" in str(error.value)  # the loss's line
        states.append([p.asnumpy().copy() for p in net.get_parameters()])
    for a, b in zip(*states):
        np.testing.assert_array_equal(a, b)


def test_inputs_of_another_layout_run_kernel_by_kernel():
    batches = _batches(5)
    net, step, losses = _train(True, batches[:4])
    ref_net, ref_step, ref_losses = _train(False, batches[:4])
    x, y = batches[4]
    strided = np.asfortranarray(x)  # the same values, not as the step was recorded
    a = float(step(sx.Tensor(strided), sx.Tensor(y)).asnumpy())
    b = float(ref_step(sx.Tensor(x), sx.Tensor(y)).asnumpy())
    assert a == b


def test_a_second_process_loads_the_step_without_tvms_compiler(tmp_path):
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from test_tvm_native_step import _batches, _train
        net, step, losses = _train(True, _batches(5))
        print("compiler imported:", "tvm.driver" in sys.modules or "tvm.s_tir" in sys.modules)
        print(repr(losses))
        assert "one native function" in step.explain(), step.explain()
        """)
    env = dict(os.environ, SPORELING_HOME=str(tmp_path / "home"))
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, timeout=300) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr[-3000:]
    first, second = (run.stdout.splitlines() for run in runs)
    assert second[0] == "compiler imported: False"
    assert first[1] == second[1]


def test_another_thread_runs_the_step_in_python():
    """oneDNN's plans (the memory objects a step points at its arrays) belong to the thread
    that recorded it: a call from another thread runs the program kernel by kernel, with
    that thread's own plans, and computes the same."""
    import threading
    batches = _batches(5)
    ref_net, ref_step, ref_losses = _train(False, batches)
    net, step, losses = _train(True, batches[:4])
    replay = step.last_executable.program.program._runner.replay
    native, answers = replay.native, []

    def watched(inputs):  # what the native step answered: None sends it to Python
        answers.append(native(inputs))
        return answers[-1]
    replay.native = watched
    x, y = batches[4]
    got = []
    worker = threading.Thread(target=lambda: got.append(
        float(step(sx.Tensor(x), sx.Tensor(y)).asnumpy())))
    worker.start()
    worker.join()
    assert answers == [None] and got == ref_losses[4:]
    for p, q in zip(net.trainable_params(), ref_net.trainable_params()):
        np.testing.assert_array_equal(p.asnumpy(), q.asnumpy())
