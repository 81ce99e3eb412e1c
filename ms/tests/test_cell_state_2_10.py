"""``ms.nn.Cell``'s MindSpore 2.10 members: buffers, state dicts and their hooks, and the
bookkeeping members (phase, names, scopes, mixed-precision type, jit config, ...)."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import nn
from sporeling.ms.nn.cell_compat import MixedPrecisionType


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 3)
        self.register_buffer("count", ms.Tensor(np.zeros(1, np.float32)))
        self.register_buffer("scratch", ms.Tensor(np.ones(2, np.float32)), persistent=False)

    def construct(self, x):
        return self.dense(x)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = nn.Dense(3, 1)

    def construct(self, x):
        return self.head(self.block(x))


def test_buffers_are_attributes_listed_by_path():
    net = Net()
    assert [n for n, _ in net.named_buffers()] == ["block.count", "block.scratch"]
    assert len(list(net.buffers())) == 2 and list(net.buffers(recurse=False)) == []
    assert net.get_buffer("block.count") is net.block.count
    assert net.get_sub_cell("block.dense") is net.block.dense
    with pytest.raises(AttributeError):
        net.get_buffer("block.dense")
    with pytest.raises(KeyError):
        net.block.register_buffer("dense", ms.Tensor(np.ones(1)))
    with pytest.raises(TypeError):
        net.block.register_buffer("bad", np.ones(1))


def test_state_dict_orders_keys_and_round_trips():
    net = Net()
    state = net.state_dict()
    assert list(state) == ["block.count", "block.dense.weight", "block.dense.bias",
                           "head.weight", "head.bias"]
    assert all(type(v) is ms.Tensor for v in state.values())  # detached
    assert np.shares_memory(state["head.weight"].asnumpy(), net.head.weight.asnumpy())
    assert net.state_dict(keep_vars=True)["head.weight"] is net.head.weight
    assert list(net.state_dict(prefix="m"))[0] == "m.block.count"
    other = Net()
    other.block.count = ms.Tensor(np.full(1, 7.0, np.float32))
    result = other.load_state_dict(state)
    assert result.missing_keys == [] and result.unexpected_keys == []
    for key, value in other.state_dict().items():
        assert np.array_equal(value.asnumpy(), state[key].asnumpy()), key


def test_load_state_dict_strictness_and_shape_errors():
    net = Net()
    state = dict(net.state_dict())
    del state["head.bias"]
    state["extra"] = ms.Tensor(np.ones(1))
    with pytest.raises(RuntimeError, match="head.bias"):
        Net().load_state_dict(state)
    result = Net().load_state_dict(state, strict=False)
    assert result.missing_keys == ["head.bias"] and result.unexpected_keys == ["extra"]
    state = net.state_dict()
    state["head.weight"] = ms.Tensor(np.ones((2, 2), np.float32))
    with pytest.raises(RuntimeError, match="size mismatch"):
        Net().load_state_dict(state, strict=False)


def test_state_dict_hooks_and_extra_state():
    class WithExtra(Block):
        def get_extra_state(self):
            return {"calls": 3}

        def set_extra_state(self, state):
            self.restored = state

    calls = []
    cell = WithExtra()
    pre = cell.register_state_dict_pre_hook(lambda c, prefix, keep: calls.append("pre"))
    cell.register_state_dict_post_hook(
        lambda c, sd, prefix, meta: sd.__setitem__("tag", ms.Tensor(np.zeros(1))))
    state = cell.state_dict()
    assert calls == ["pre"] and state["_extra_state"] == {"calls": 3} and "tag" in state
    pre.remove()
    cell.state_dict()
    assert calls == ["pre"]
    target = WithExtra()
    target.register_load_state_dict_pre_hook(
        lambda c, sd, prefix, meta, strict, missing, unexpected, errors: sd.pop("tag"))
    seen = []
    target.register_load_state_dict_post_hook(lambda c, keys: seen.append(keys))
    target.load_state_dict(state)
    assert target.restored == {"calls": 3} and seen[0].unexpected_keys == []
    with pytest.raises(RuntimeError, match="get_extra_state"):
        Block().get_extra_state()


def test_phase_names_scopes_and_checks():
    net = Net()
    assert net.phase == "train" and net.cls_name == "Net" and net.create_time > 0
    net.set_train(False)
    assert net.phase == net.block.phase == "predict"
    before = nn.Cell.total_instance_count
    Net()
    assert nn.Cell.total_instance_count == before + 2  # Net and its Block
    net.update_cell_prefix()
    assert net.block.param_prefix == "block"
    net.generate_scope()
    assert net.block.get_scope() == "block" and net.get_scope() == ""
    with pytest.raises(TypeError):
        net.phase = 3
    with pytest.raises(ValueError):
        net.pipeline_stage = -1
    net.check_names()
    assert "head.weight" in net.exist_names
    net.block.dense.weight.name = "head.weight"
    with pytest.raises(ValueError, match="already exists"):
        net.check_names()
    net.check_names_and_refresh_name()
    assert net.block.dense.weight.name == "block.dense.weight"
    assert list(net.parameters_broadcast_dict()) == [p.name for p in net.get_parameters()]


def test_mixed_precision_type_jit_config_and_flags():
    net = Net()
    assert net.get_mixed_precision_type() is MixedPrecisionType.NOTSET
    net.set_mixed_precision_type(MixedPrecisionType.FP16)
    assert net.block.get_mixed_precision_type() is MixedPrecisionType.FP16
    out = net(ms.Tensor(np.ones((1, 2), np.float32)))
    assert out.dtype == ms.float16
    net.set_jit_config(ms.JitConfig(jit_level="O1"))
    assert net.jit_config_dict["jit_level"] == "O1"
    with pytest.raises(ValueError):
        ms.JitConfig(jit_level="O7")
    net.recompute()
    net.set_broadcast_flag()
    assert net.block.get_flags()["recompute"] and net.get_flags()["broadcast_flag"]
    casted = net.cast_inputs((ms.Tensor(np.ones(2, np.float32)),), ms.float16)
    assert casted[0].dtype == ms.float16
    assert net.run_construct((ms.Tensor(np.ones((1, 2), np.float32)),), {}).shape == (1, 1)


def test_compile_builds_the_graph_mode_call_without_running_it():
    from sporeling.expression.graph.cell_call import cache_of

    class WithStats(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense, self.bn = nn.Dense(2, 2), nn.BatchNorm1d(2)

        def construct(self, x):
            return self.bn(self.dense(x))

    x = ms.Tensor(np.random.default_rng(0).random((4, 2), np.float32))
    net = WithStats().set_train(True)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        before = net.bn.moving_mean.asnumpy().copy()
        net.compile(x)
        assert cache_of(net).info()["compile_count"] == 1
        assert np.array_equal(net.bn.moving_mean.asnumpy(), before)  # nothing ran
        net(x)
        assert cache_of(net).info()["compile_count"] == 1  # the call reused the graph
        assert not np.array_equal(net.bn.moving_mean.asnumpy(), before)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    net.set_train(False)
    assert np.allclose(net.compile_and_run(x).asnumpy(), net(x).asnumpy(), atol=1e-6)
