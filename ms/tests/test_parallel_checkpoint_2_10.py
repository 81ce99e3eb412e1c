"""2.10's shard/Layout and the distributed-checkpoint tools (strategy files in MindSpore's
JSON form, per-rank slices merged and re-cut)."""
import json
import os

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sporeling.ms as ms
from sporeling.core.errors import SporelingError
from sporeling.ms.train.distributed_checkpoint import StrategyLayout, _cut, _merge


def _strategy(path, layouts):
    json.dump({"parallel_layout_item": {
        name: {"dev_matrix": [{"dim": list(dm)}], "tensor_map": [{"dim": list(tm)}]}
        for name, (dm, tm) in layouts.items()}}, open(path, "w"))
    return str(path)


class Net(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.zeros((4, 6), np.float32)), name="w")
        self.b = ms.Parameter(ms.Tensor(np.zeros(6, np.float32)), name="b")


W = np.arange(24, dtype=np.float32).reshape(4, 6)
B = np.linspace(0, 1, 6).astype(np.float32)


@pytest.fixture
def ranks(tmp_path):
    """4 ranks: w cut 2 x 2 (dev_matrix (2, 2)), b whole on each."""
    src = _strategy(tmp_path / "src.json", {"w": ((2, 2), (1, 0))})
    layout = ms.build_searched_strategy(src)["w"]
    files = []
    for r in range(4):
        os.makedirs(tmp_path / "src" / f"rank_{r}")
        path = str(tmp_path / "src" / f"rank_{r}" / f"net_{r}.ckpt")
        ms.save_checkpoint({"w": ms.Parameter(ms.Tensor(W[layout.block(W.shape, r)]), name="w"),
                            "b": ms.Parameter(ms.Tensor(B), name="b")}, path)
        files.append(path)
    return tmp_path, src, files


def test_build_searched_strategy_reads_the_layouts(ranks):
    _, src, _ = ranks
    layout = ms.build_searched_strategy(src)["w"]
    assert layout.dev_matrix == (2, 2) and layout.tensor_map == (1, 0)
    assert layout.splits() == (2, 2) and layout.block_index(1) == (0, 1)


def test_load_distributed_checkpoint_merges_the_slices(ranks):
    _, src, files = ranks
    net = Net()
    ms.load_distributed_checkpoint(net, files, train_strategy_filename=src)
    np.testing.assert_array_equal(net.w.asnumpy(), W)
    np.testing.assert_array_equal(net.b.asnumpy(), B)
    mine = ms.load_distributed_checkpoint(net, files, {"w": ((2,), (-1, 0))}, src, rank_id=1,
                                          return_param_dict=True)
    np.testing.assert_array_equal(mine["w"].asnumpy(), W[:, 3:])


def test_transform_checkpoints_recuts_for_another_strategy(ranks):
    tmp, src, _ = ranks
    dst = _strategy(tmp / "dst.json", {"w": ((2,), (-1, 0))})
    ms.transform_checkpoints(str(tmp / "src"), str(tmp / "dst"), "net", src, dst)
    assert sorted(os.listdir(tmp / "dst")) == ["rank_0", "rank_1"]
    for r, cols in ((0, slice(0, 3)), (1, slice(3, 6))):
        loaded = ms.load_checkpoint(str(tmp / "dst" / f"rank_{r}" / f"net{r}.ckpt"))
        np.testing.assert_array_equal(loaded["w"].asnumpy(), W[:, cols])
    assert ms.rank_list_for_transform(1, src, dst) == [1, 3]
    out = str(tmp / "r0.ckpt")
    ms.transform_checkpoint_by_rank(0, {0: ranks[2][0], 1: ranks[2][1], 2: ranks[2][2],
                                        3: ranks[2][3]}, out, src, None)
    np.testing.assert_array_equal(ms.load_checkpoint(out)["w"].asnumpy(), W)


def test_a_missing_rank_is_found_through_an_equal_one(tmp_path):
    src = _strategy(tmp_path / "s.json", {"w": ((2, 2), (-1, 0))})  # ranks 0/2, 1/3 equal
    os.makedirs(tmp_path / "rank_2")
    (tmp_path / "rank_2" / "net.ckpt").write_bytes(b"x")
    path = str(tmp_path / "rank_0" / "net.ckpt")
    assert ms.get_ckpt_path_with_strategy(path, src) == str(tmp_path / "rank_2" / "net.ckpt")
    assert ms.get_ckpt_path_with_strategy(str(tmp_path / "rank_1" / "net.ckpt"), src) is None


def test_merge_pipeline_strategys(tmp_path):
    os.makedirs(tmp_path / "stages")
    _strategy(tmp_path / "stages" / "s0.json", {"a": ((2,), (0,))})
    _strategy(tmp_path / "stages" / "s1.json", {"b": ((2,), (-1,))})
    ms.merge_pipeline_strategys(str(tmp_path / "stages"), str(tmp_path / "all.json"))
    assert set(ms.build_searched_strategy(str(tmp_path / "all.json"))) == {"a", "b"}


def test_bad_strategy_files_are_named(tmp_path):
    bad = tmp_path / "s.ckpt"
    bad.write_bytes(b"\x08\x01")
    with pytest.raises(SporelingError, match="JSON strategy"):
        ms.build_searched_strategy(str(bad))
    with pytest.raises(SporelingError, match="not found"):
        ms.build_searched_strategy(str(tmp_path / "none.json"))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([1, 2]), min_size=1, max_size=3), st.data())
def test_cut_then_merge_gives_the_tensor_back(dev_matrix, data):
    ndim = data.draw(st.integers(1, 3))
    axes = data.draw(st.permutations(list(range(len(dev_matrix))) + [-1] * ndim))[:ndim]
    layout = StrategyLayout(tuple(dev_matrix), tuple(axes))
    shape = tuple(2 * s for s in layout.splits())
    full = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    slices = [_cut({"x": full}, {"x": layout}, r)["x"] for r in range(layout.device_num)]
    np.testing.assert_array_equal(_merge("x", slices, layout), full)


def test_layout_gives_blocks_per_dimension_and_mindspores_dict():
    layout = ms.Layout((2, 4), ("dp", "mp"))
    assert layout("dp", "mp").to_dict()["tensor_map"] == (1, 0)
    assert layout(("dp", "mp"), "None").splits() == (8, 1)
    with pytest.raises(ValueError, match="each once"):
        layout("dp", "dp")


def test_shard_runs_split_over_ranks_with_layouts():
    from sporeling.parallel.testing import run_local
    x = np.arange(16, dtype=np.float32).reshape(4, 4)

    def body():
        lay = ms.Layout((2,), ("mp",))
        g = ms.shard(lambda a, b: ms.ops.matmul(a, b),
                     in_strategy=(lay("None", "mp"), lay("mp", "None")))
        return g(ms.Tensor(x), ms.Tensor(x)).asnumpy()

    for out in run_local(2, body):
        np.testing.assert_allclose(out, x @ x)


def test_saved_tensors_hooks_at_the_top_level_and_as_a_decorator():
    log = []

    @ms.register_saved_tensors_hooks(lambda t: log.append("pack") or t,
                                     lambda p: log.append("unpack") or p)
    def f(x, y):
        return ms.ops.sum(x * y)

    x = ms.Tensor(np.ones(2, np.float32))
    ms.grad(f, grad_position=(0, 1))(x, x)
    assert log == ["pack", "pack", "unpack", "unpack"]
    class Net2(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = ms.nn.Dense(2, 2)

        def construct(self, v):
            return ms.ops.exp(self.dense(v))

    net, log2 = Net2(), []
    handle = net.register_saved_tensors_hooks(lambda t: log2.append(1) or t, lambda p: p)
    ms.grad(lambda v: ms.ops.sum(net(v)))(ms.Tensor(np.ones((1, 2), np.float32)))
    assert log2
    handle.remove()
    log2.clear()
    ms.grad(lambda v: ms.ops.sum(net(v)))(ms.Tensor(np.ones((1, 2), np.float32)))
    assert log2 == []


def test_ps_context_keeps_settings_and_refuses_the_ps_mode():
    from sporeling.core.errors import ContextError
    assert ms.get_ps_context("enable_ps") is False
    ms.set_ps_context(enable_ssl=True, config_file_path="/tmp/ps.json")
    try:
        assert ms.get_ps_context("enable_ssl") is True
        assert ms.get_ps_context("config_file_path") == "/tmp/ps.json"
        with pytest.raises(ContextError, match="no parameter-server mode"):
            ms.set_ps_context(enable_ps=True)
        with pytest.raises(ContextError, match="unknown parameter-server key"):
            ms.set_ps_context(worker_num=2)
        assert ms.get_ps_context("enable_ps") is False
    finally:
        ms.set_ps_context(enable_ssl=False, config_file_path="")


def test_untyped_storage_is_the_class_tensors_hand_out():
    t = ms.Tensor(np.arange(4, dtype=np.float32))
    storage = ms.UntypedStorage(t)
    assert storage.nbytes() == 16 and len(storage) == 16


def test_parameter_broadcast_gives_replicas_the_lowest_ranks_values():
    from sporeling.parallel.comm import current
    from sporeling.parallel.testing import run_local
    layout = {"w": StrategyLayout((2, 2), (-1, 0))}  # replica groups {0, 2} and {1, 3}

    def body():
        rank = current().rank
        net = Net()
        net.w.set_data(np.full((4, 6), float(rank), np.float32))
        ms.parameter_broadcast(net, layout)
        return float(net.w.asnumpy()[0, 0])

    assert run_local(4, body) == [0.0, 1.0, 0.0, 1.0]
    net = Net()  # one process: nothing to do
    ms.parameter_broadcast(net, layout)
    np.testing.assert_array_equal(net.w.asnumpy(), 0.0)


def test_unified_safetensors_merges_rank_files(tmp_path):
    src = _strategy(tmp_path / "s.json", {"w": ((2,), (0, -1))})  # rows cut in 2
    for r in range(2):
        os.makedirs(tmp_path / "src" / f"rank_{r}")
        ms.save_checkpoint({"w": ms.Parameter(ms.Tensor(W[2 * r:2 * r + 2]), name="w"),
                            "b": ms.Parameter(ms.Tensor(B), name="b")},
                           str(tmp_path / "src" / f"rank_{r}" / "net.safetensors"),
                           format="safetensors")
    ms.unified_safetensors(str(tmp_path / "src"), src, str(tmp_path / "dst"))
    merged = ms.load_checkpoint(str(tmp_path / "dst" / "part0.safetensors"))
    np.testing.assert_array_equal(merged["w"].asnumpy(), W)
    np.testing.assert_array_equal(merged["b"].asnumpy(), B)
    assert json.load(open(tmp_path / "dst" / "param_name_map.json")) == {
        "w": "part0.safetensors", "b": "part0.safetensors"}


def test_algo_parameters_drive_the_search_knob():
    from sporeling.core import get_context
    from sporeling.core.errors import ContextError
    assert ms.get_algo_parameters("fully_use_devices") is True
    try:
        ms.set_algo_parameters(fully_use_devices=False, tensor_slice_align_size=16)
        assert get_context("fully_use_devices") is False
        assert ms.get_algo_parameters("fully_use_devices") is False
        with pytest.raises(ContextError, match="not a knob"):
            ms.set_algo_parameters(enable_algo_approxi=True)
        with pytest.raises(ContextError, match="unknown algo parameter"):
            ms.set_algo_parameters(depth=3)
    finally:
        ms.reset_algo_parameters()
    assert get_context("fully_use_devices") is True
    assert ms.get_algo_parameters("algo_approxi_epsilon") == 0.1
