"""Loss scalers and the loss-scaled training step: overflow skipped, scale halved,
training continues; callbacks see the overflow."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling import amp
from sporeling.core import SporelingError
from sporeling.expression import nn
from sporeling.expression.optim import SGD
from sporeling.expression.train import Model
from sporeling.expression.train.callbacks import Callback

from amp_helpers import digits_like, train_eval


def test_dynamic_scaler_halves_on_overflow_and_grows_after_the_window():
    s = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=3)
    assert not s.adjust(amp.all_finite([np.array([1.0, np.nan], np.float32)]))
    assert s.scale_value == 512
    for _ in range(2):
        assert s.adjust(True)
    assert s.scale_value == 512
    s.adjust(True)
    assert s.scale_value == 1024 and s.counter == 0
    s.adjust(True)
    s.adjust(False)  # an overflow restarts the count
    assert s.scale_value == 512 and s.counter == 0
    tiny = amp.DynamicLossScaler(1.0, 2, 1)
    tiny.adjust(False)
    assert tiny.scale_value == 1.0  # never below 1


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_a_compiled_step_scales_checks_and_adjusts_as_an_eager_one(mode):
    # MindSpore's loss-scaling pattern inside one (jitted) step: the scale it reads and the
    # adjustment it makes are the scaler's Parameters, so each call sees the last one's
    s = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=2)
    sx.set_context(mode=sx.GRAPH_MODE if mode == "graph" else sx.PYNATIVE_MODE)

    def step(grad):
        scaled = s.scale(grad)            # as a loss scaled before backward
        finite = amp.all_finite((scaled,))
        unscaled = s.unscale(scaled)
        s.adjust(finite)
        return unscaled
    step = sx.jit(step) if mode == "graph" else step
    try:
        scales = []
        for g in [1.0, np.inf, 1.0, 1.0, 1.0, np.nan, 2.0]:
            out = step(sx.Tensor(np.array([g, 3.0], np.float32)))
            scales.append(s.scale_value)
            if np.isfinite(g):
                assert float(out.asnumpy()[0]) == g  # unscaled by the scale it was scaled by
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)
    assert scales == [1024, 512, 512, 1024, 1024, 512, 512]
    assert s.counter == 1


def test_scale_unscale_and_all_finite():
    s = amp.StaticLossScaler(8.0)
    loss = sx.Tensor(np.float32(0.5))
    assert float(s.scale(loss)) == 4.0
    g = s.unscale((sx.Tensor(np.array([8.0, 16.0], np.float32)), None))
    np.testing.assert_array_equal(g[0].asnumpy(), [1.0, 2.0]) and g[1] is None
    assert s.adjust(False) is False and s.scale_value == 8.0
    assert bool(amp.all_finite([np.ones(2, np.float32), None]))
    assert not bool(amp.all_finite([np.ones(2, np.float32), np.array([np.inf])]))
    assert bool(amp.all_finite([]))


def test_bad_scaler_arguments():
    with pytest.raises(SporelingError, match="scale_factor.*> 1.*0.5"):
        amp.DynamicLossScaler(2.0, 0.5, 10)
    with pytest.raises(SporelingError, match="scale_window"):
        amp.DynamicLossScaler(2.0, 2, 0)
    with pytest.raises(SporelingError, match="scale_value"):
        amp.StaticLossScaler(float("nan"))
    net = nn.Dense(2, 2).to_float(sx.float16)
    for p in net.trainable_params():
        p.set_data(p.asnumpy().astype(np.float16))
    with pytest.raises(SporelingError, match="master weights must be float32"):
        amp.TrainOneStepWithLossScaleCell(net, SGD(net.trainable_params(), 0.1))


@pytest.mark.parametrize("mode", [sx.PYNATIVE_MODE, sx.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the inf we inject
def test_injected_overflow_is_skipped_scale_halved_and_training_continues(mode):
    x, y, xt, yt = digits_like()
    scaler = amp.DynamicLossScaler(2 ** 10, 2, 1000)
    acc, step = train_eval("O2", mode, epochs=1, scaler=scaler)
    sx.set_context(mode=mode)
    try:
        before = [p.asnumpy().copy() for p in step.weights]
        bad = x[:50].copy()
        bad[0, 0, 0, 0] = np.inf
        loss, overflow, scale = step(bad, y[:50])
        assert bool(overflow) and float(scale) == 1024.0 and scaler.scale_value == 512.0
        assert step.overflow_steps == 1
        for p, old in zip(step.weights, before):
            np.testing.assert_array_equal(p.asnumpy(), old)   # the update was skipped
        loss, overflow, scale = step(x[:50], y[:50])
        assert not bool(overflow) and float(scale) == 512.0 and np.isfinite(float(loss))
        assert any(not np.array_equal(p.asnumpy(), old) for p, old in zip(step.weights, before))
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_model_callbacks_see_the_overflow_in_net_outputs():
    x, y, _, _ = digits_like(100, 1)
    x[0, 0, 0, 0] = np.inf  # the first batch overflows
    net = nn.SequentialCell(nn.Flatten(), nn.Dense(64, 10))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = amp.build_train_network(net, SGD(net.trainable_params(), 0.1), loss, level="O2",
                                   loss_scaler=amp.DynamicLossScaler(2 ** 8, 2, 100))
    seen = []

    class Overflows(Callback):
        def on_train_step_end(self, run_context):
            _, overflow, scale = run_context.original_args().net_outputs
            seen.append((bool(overflow), float(scale)))
    Model(step).train(1, [(x[i:i + 25], y[i:i + 25]) for i in range(0, 100, 25)],
                      callbacks=[Overflows()])
    assert seen == [(True, 256.0), (False, 128.0), (False, 128.0), (False, 128.0)]


def test_build_train_network_defaults():
    net = nn.Dense(2, 2)
    step = amp.build_train_network(net, SGD(net.trainable_params(), 0.1), level="O0")
    assert type(step).__name__ == "TrainOneStepCell"
    net = nn.Dense(2, 2)
    step = amp.build_train_network(net, SGD(net.trainable_params(), 0.1), nn.MSELoss(),
                                   level="O3", dtype=sx.bfloat16)
    assert isinstance(step.loss_scaler, amp.StaticLossScaler) and step.loss_scaler.scale_value == 1
    with pytest.raises(SporelingError, match="unknown keyword.*keep_batchnorm"):
        amp.build_train_network(nn.Dense(2, 2), SGD(net.trainable_params(), 0.1),
                                keep_batchnorm_fp32=True)
