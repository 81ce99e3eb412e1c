"""``ms.nn`` basic blocks, containers and wrapper cells."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import nn

from _reference import np_of, t

RNG = np.random.default_rng(6)
X = RNG.normal(size=(8, 3)).astype(np.float32)
Y = (X @ np.array([[1.0], [-1.0], [2.0]], np.float32)).astype(np.float32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 1, weight_init="zeros", bias_init="zeros")

    def construct(self, x):
        return self.dense(x)


class HalfAbs(nn.LossBase):
    def construct(self, logits, labels):
        return self.get_loss(ops_abs(logits - labels) * 0.5)


def ops_abs(x):
    return (x * x) ** 0.5


def test_cell_lossbase_and_containers():
    loss = HalfAbs(reduction="sum")
    np.testing.assert_allclose(np_of(loss(t([1.0, -2.0]), t([0.0, 0.0]))), 1.5)
    seq = nn.SequentialCell(nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2))
    assert len(seq) == 3 and np_of(seq(t(X))).shape == (8, 2)
    cells = nn.CellList([nn.ReLU(), nn.Tanh()])
    cells.append(nn.Sigmoid())
    assert len(cells) == 3 and isinstance(cells[2], nn.Sigmoid)
    d = nn.CellDict({"act": nn.ReLU(), "dense": nn.Dense(3, 2)})
    assert set(d.keys()) == {"act", "dense"} and isinstance(d["act"], nn.ReLU)
    assert [n for n, _ in nn.SequentialCell(d["dense"]).parameters_and_names()] == \
        ["0.weight", "0.bias"]


def test_with_loss_eval_and_train_one_step():
    net = Net()
    with_loss = nn.WithLossCell(net, nn.MSELoss())
    opt = nn.SGD(net.trainable_params(), 0.1)
    step = nn.TrainOneStepCell(with_loss, opt)
    first = float(np_of(step(t(X), t(Y))))
    np.testing.assert_allclose(first, (Y ** 2).mean(), rtol=1e-5)
    for _ in range(30):
        last = float(np_of(step(t(X), t(Y))))
    assert last < 0.1 * first
    loss, out, label = nn.WithEvalCell(net, nn.MSELoss())(t(X), t(Y))
    np.testing.assert_allclose(np_of(out), np_of(net(t(X))))
    np.testing.assert_allclose(np_of(loss), ((np_of(out) - Y) ** 2).mean(), rtol=1e-5)
    grads_step = nn.TrainOneStepCell(with_loss, nn.SGD(net.trainable_params(), 0.0),
                                     return_grad=True)
    loss, grads = grads_step(t(X), t(Y))
    assert len(grads) == 2 and np_of(grads[0]).shape == (1, 3)


def test_with_grad_cell_and_forward_value_and_grad():
    net = Net()
    net.dense.weight.set_data(ms.Tensor(np.array([[0.5, 0.0, -1.0]], np.float32)))
    residual = X @ np.array([[0.5], [0.0], [-1.0]], np.float32) - Y
    expected_gw = 2 * (residual * X).mean(0, keepdims=True)
    grads = nn.WithGradCell(net, nn.MSELoss())(t(X), t(Y))
    np.testing.assert_allclose(np_of(grads[0]), expected_gw, rtol=1e-5)
    scaled = nn.WithGradCell(net, nn.MSELoss(), sens=2.0)(t(X), t(Y))
    np.testing.assert_allclose(np_of(scaled[0]), 2 * expected_gw, rtol=1e-5)
    fvg = nn.ForwardValueAndGrad(nn.WithLossCell(net, nn.MSELoss()),
                                 weights=net.trainable_params(), get_by_list=True)
    value, wgrads = fvg(t(X), t(Y))
    np.testing.assert_allclose(np_of(value), (residual ** 2).mean(), rtol=1e-5)
    np.testing.assert_allclose(np_of(wgrads[0]), expected_gw, rtol=1e-5)
    value, (gx, gy) = nn.ForwardValueAndGrad(nn.WithLossCell(net, nn.MSELoss()),
                                             get_all=True)(t(X), t(Y))
    np.testing.assert_allclose(np_of(gy), -2 * residual / residual.size, rtol=1e-5)
    with pytest.raises(ValueError, match="weights"):
        nn.ForwardValueAndGrad(net, get_by_list=True)


def test_parameter_update_and_time_distributed():
    p = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="p")
    nn.ParameterUpdate(p)(t([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(np_of(p), [1, 2, 3])
    with pytest.raises(Exception, match="shape"):
        nn.ParameterUpdate(p)(t([1.0]))
    dense = nn.Dense(3, 2)
    x = RNG.normal(size=(4, 5, 3)).astype(np.float32)                # (N, T, features)
    out = np_of(nn.TimeDistributed(dense, time_axis=1)(t(x)))
    assert out.shape == (4, 5, 2)
    np.testing.assert_allclose(out[:, 2], np_of(dense(t(x[:, 2]))), rtol=1e-5, atol=1e-6)
    folded = np_of(nn.TimeDistributed(dense, time_axis=1, reshape_with_axis=0)(t(x)))
    np.testing.assert_allclose(folded, out, rtol=1e-5, atol=1e-6)
    xt = np.ascontiguousarray(x.transpose(1, 0, 2))                 # (T, N, features)
    np.testing.assert_allclose(np_of(nn.TimeDistributed(dense, 0, reshape_with_axis=1)(t(xt))),
                               out.transpose(1, 0, 2), rtol=1e-5, atol=1e-6)


def test_loss_scale_update_cells():
    fixed = nn.FixedLossScaleUpdateCell(1024.0)
    assert fixed.get_loss_scale() == 1024.0
    assert bool(np_of(fixed(t(1024.0), t(True, np.bool_))))
    cell = nn.DynamicLossScaleUpdateCell(loss_scale_value=16.0, scale_factor=2,
                                         scale_window=2)
    scale = ms.Parameter(ms.Tensor(np.array(16.0, np.float32)), name="scale")
    cell(scale, t(True, np.bool_))
    assert float(np_of(scale)) == 8.0
    cell(scale, t(False, np.bool_))
    cell(scale, t(False, np.bool_))
    assert float(np_of(scale)) == 16.0 == cell.get_loss_scale()


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")
def test_train_one_step_with_loss_scale_cell_skips_overflow():
    net = Net()
    with_loss = nn.WithLossCell(net, nn.MSELoss())
    update = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 10, scale_factor=2,
                                           scale_window=1000)
    step = nn.TrainOneStepWithLossScaleCell(with_loss, nn.SGD(net.trainable_params(), 0.1),
                                            scale_sense=update)
    loss, overflow, scale = step(t(X), t(Y))
    assert not bool(np_of(overflow)) and float(np_of(scale)) == 1024.0
    np.testing.assert_allclose(float(np_of(loss)), (Y ** 2).mean(), rtol=1e-5)
    assert np.abs(np_of(net.dense.weight)).sum() > 0          # the step was applied
    bad = np.full_like(X, np.inf)
    before = np_of(net.dense.weight).copy()
    _, overflow, scale = step(t(bad), t(Y))
    assert bool(np_of(overflow)) and float(np_of(scale)) == 1024.0
    np.testing.assert_array_equal(np_of(net.dense.weight), before)   # skipped
    fixed = nn.TrainOneStepWithLossScaleCell(with_loss, nn.SGD(net.trainable_params(), 0.1),
                                             scale_sense=t(128.0))
    assert float(np_of(fixed(t(X), t(Y))[2])) == 128.0


def test_cell_mindspore_methods_and_isinstance():
    net = Net()
    assert net.set_grad() is net and net.requires_grad
    net.set_inputs(ms.Tensor(np.zeros((1, 3), np.float32)))
    assert len(net.get_inputs()) == 1
    net.add_flags(fp16=True)
    assert net.get_flags()["fp16"] is True
    net.add_flags_recursive(fused=False)
    assert net.dense._flags["fused"] is False  # a sporeling Dense: flags live in _flags
    net.update_parameters_name("backbone.")
    assert [p.name for p in net.trainable_params()] == ["backbone.dense.weight",
                                                        "backbone.dense.bias"]
    # every sporeling Cell, re-exported layers included, is an nn.Cell
    assert isinstance(nn.Dense(2, 2), nn.Cell) and issubclass(nn.LSTM, nn.Cell)
    assert isinstance(nn.Conv3d(1, 1, 1), nn.Cell) and not isinstance(np.zeros(1), nn.Cell)
    assert not isinstance(nn.Dense(2, 2), Net) and issubclass(Net, nn.Cell)
