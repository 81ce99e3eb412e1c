"""auto_mixed_precision: what each level computes in low precision, training accuracy at
every level in both modes, and the errors."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling import amp
from sporeling.core import SporelingError
from sporeling.expression import nn

from amp_helpers import SmallCNN, digits_like, train_eval

_BASELINE = {}


def _baseline(mode):
    if mode not in _BASELINE:
        _BASELINE[mode] = train_eval("O0", mode)[0]
    return _BASELINE[mode]


@pytest.mark.parametrize("mode", [sx.PYNATIVE_MODE, sx.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("level", ["O1", "O2", "O3", "auto"])
def test_every_level_trains_to_the_float32_accuracy(level, mode):
    base = _baseline(mode)
    acc, step = train_eval(level, mode)
    assert base > 0.6  # the task is learnt at all
    assert abs(acc - base) <= 0.01, (level, mode, acc, base)
    assert step.overflow_steps == 0
    assert all(p.dtype == np.float32 for p in step.weights)  # float32 master weights


def _dtypes_seen(level, dtype=sx.float16):
    net = SmallCNN()
    converted = amp.auto_mixed_precision(net, level, dtype)
    seen = {}
    for name in ("conv", "bn", "relu", "fc"):
        cell = getattr(net, name)
        inner = cell.construct

        def spy(*args, _inner=inner, _name=name):
            out = _inner(*args)
            seen[_name] = (str(args[0].dtype), str(out.dtype))
            return out
        cell.construct = spy
    out = converted(digits_like(8, 1)[0][:4])
    assert out.dtype == np.float32
    return seen


def test_o1_runs_the_white_cells_low_and_returns_float32_from_them():
    seen = _dtypes_seen("O1")
    assert seen["conv"] == ("float16", "float32") and seen["fc"] == ("float16", "float32")
    assert seen["bn"] == ("float32", "float32") and seen["relu"] == ("float32", "float32")


def test_o2_keeps_the_black_cells_in_float32():
    seen = _dtypes_seen("O2", sx.bfloat16)
    assert seen["conv"] == ("bfloat16", "bfloat16") and seen["relu"][1] == "bfloat16"
    assert seen["bn"] == ("float32", "float32")


def test_o3_runs_everything_low():
    assert set(_dtypes_seen("O3").values()) == {("float16", "float16")}


def test_auto_goes_by_primitive():
    seen = _dtypes_seen("auto")
    assert seen["conv"][1] == "float16"        # conv2d: white
    assert seen["bn"][1] == "float32"          # mean/var: black, the rest promotes
    assert seen["fc"] == ("float32", "float32")  # matmul low, then + bias promotes


def test_o0_returns_the_network_itself():
    net = nn.Dense(2, 2)
    assert amp.auto_mixed_precision(net, "O0") is net


def test_gradients_reach_the_float32_parameters():
    net = nn.Dense(3, 2)
    converted = amp.auto_mixed_precision(net, "O3")
    grads = sx.grad(lambda x: converted(x).sum(), None, net.trainable_params())(
        np.ones((4, 3), np.float32))
    assert [g.dtype for g in grads] == [np.float32, np.float32]
    np.testing.assert_allclose(grads[1].asnumpy(), [4.0, 4.0])


def test_converting_twice_is_an_error():
    net = nn.Dense(2, 2)
    converted = amp.auto_mixed_precision(net, "O2")
    for target in (net, converted):
        with pytest.raises(SporelingError, match="already converted.*'O2'"):
            amp.auto_mixed_precision(target, "O1")
    with pytest.raises(SporelingError, match="already converted"):
        amp.custom_mixed_precision(net, white_list=[nn.Dense])


def test_bad_level_dtype_and_list_entries_name_the_value_and_the_valid_ones():
    with pytest.raises(SporelingError, match=r"unknown amp_level.*'O4'") as info:
        amp.auto_mixed_precision(nn.Dense(2, 2), "O4")
    assert "'O1'" in str(info.value) and "'auto'" in str(info.value)
    with pytest.raises(SporelingError, match="float16 or bfloat16.*float64"):
        amp.auto_mixed_precision(nn.Dense(2, 2), "O2", sx.float64)
    with pytest.raises(SporelingError, match="names no Cell class or primitive.*'matmull'"):
        amp.custom_mixed_precision(nn.Dense(2, 2), white_list=["matmull"])
    with pytest.raises(SporelingError, match="names no Cell class or primitive.*int"):
        amp.custom_mixed_precision(nn.Dense(2, 2), black_list=[int])
    with pytest.raises(SporelingError, match="exactly one"):
        amp.custom_mixed_precision(nn.Dense(2, 2))
    with pytest.raises(SporelingError, match="unknown amp_level"):
        sx.set_context(amp_level="O5")
    with pytest.raises(SporelingError, match="unknown amp_level"):
        amp.build_train_network(nn.Dense(2, 2), None, level="fast")


def test_custom_lists():
    net = nn.SequentialCell(nn.Dense(4, 4), nn.ReLU(), nn.LayerNorm((4,)))
    amp.custom_mixed_precision(net, black_list=[nn.LayerNorm, "exp"])
    assert net[0]._cast_dtype == np.float16 and net[2]._cast_dtype == np.float32
    other = nn.SequentialCell(nn.Dense(4, 4), nn.Dense(4, 4))
    amp.custom_mixed_precision(other, white_list=["matmul"])
    assert other[0]._cast_dtype is None  # primitives only: no Cell converted


def test_lists_are_copies_with_cells_and_primitives():
    white, black = amp.get_white_list(), amp.get_black_list()
    assert nn.Dense in white and nn.Conv2d in white and "matmul" in white
    assert "einsum" in white and nn.PReLU in white
    assert nn.BatchNorm2d in black and nn.LayerNorm in black and "softmax" in black
    assert "sum" in black and "exp" in black and nn.LossBase in black
    white.clear()
    assert amp.get_white_list()
