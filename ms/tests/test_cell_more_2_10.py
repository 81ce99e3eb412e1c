"""``ms.nn.Cell``'s MindSpore 2.10 members of ``cell_runtime.py``: ``to``, ``to_empty``,
``offload``, ``set_boost``, ``set_data_parallel``, ``remove_redundant_parameters``,
``compiled``, ``enable_backward_hook``, ``get_func_graph_proto``. References: NumPy."""
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sporeling.ms as ms
from sporeling.ms import nn


class Affine(nn.Cell):
    """y = x @ w + b, with a float and an int buffer."""

    def __init__(self, n_in=3, n_out=2, seed=0):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.w = ms.Parameter(ms.Tensor(rng.normal(size=(n_in, n_out)).astype(np.float32)),
                              name="w")
        self.b = ms.Parameter(ms.Tensor(rng.normal(size=(n_out,)).astype(np.float32)),
                              name="b")
        self.register_buffer("scale", ms.Tensor(np.full(1, 2.0, np.float32)))
        self.register_buffer("steps", ms.Tensor(np.arange(3, dtype=np.int32)))

    def construct(self, x):
        return ms.ops.matmul(x, self.w) + self.b


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Affine()
        self.head = nn.Dense(2, 1)

    def construct(self, x):
        return self.head(self.inner(x))


def _reference(net, x):
    inner = net.inner
    h = x @ inner.w.asnumpy() + inner.b.asnumpy()
    return h @ net.head.weight.asnumpy().T + net.head.bias.asnumpy()


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.sampled_from(["float16", "float64"]))
def test_to_casts_float_parameters_and_buffers_in_place(n_in, n_out, name):
    net = Affine(n_in, n_out)
    before = {k: v.asnumpy() for k, v in net.state_dict().items()}
    w = net.w
    assert net.to(getattr(ms, name)) is net
    assert net.w is w  # optimizers holding the parameter see the cast
    state = net.state_dict()
    for key in ("w", "b", "scale"):
        assert state[key].asnumpy().dtype == np.dtype(name)
        np.testing.assert_array_equal(state[key].asnumpy(), before[key].astype(name))
    assert state["steps"].asnumpy().dtype == np.int32  # integer buffers are kept
    x = np.ones((2, n_in), name)
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(),
                               x @ before["w"].astype(name) + before["b"].astype(name),
                               rtol=1e-3)


def test_to_reaches_builtin_sub_cells_and_rejects_non_float():
    net = Net()
    net.to(ms.float16)
    assert net.head.weight.dtype == ms.float16
    with pytest.raises(TypeError, match="floating-point"):
        net.to(ms.int32)


def test_to_empty_keeps_shapes_dtypes_and_objects_then_loads():
    net, source = Net(), Net()
    source.inner.w.set_data(np.full((3, 2), 0.5, np.float32))
    params = list(net.get_parameters())
    shapes = [(p.shape, p.dtype) for p in params]
    assert net.to_empty(device="CPU") is net and net.to_empty() is net
    assert list(net.get_parameters()) == params
    assert [(p.shape, p.dtype) for p in net.get_parameters()] == shapes
    assert net.inner.steps.shape == (3,) and net.inner.steps.dtype == ms.int32
    net.load_state_dict(source.state_dict())
    x = np.ones((4, 3), np.float32)
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), _reference(source, x), rtol=1e-6)
    with pytest.raises(ValueError, match="'CPU'"):
        net.to_empty(device="Ascend")


def test_offload_marks_cells_and_keeps_values_and_gradients():
    net = Net()
    x = np.random.default_rng(1).normal(size=(4, 3)).astype(np.float32)
    net.offload(backward_prefetch=2)
    assert all(c._flags["offload"] is True and c._flags["backward_prefetch"] == 2
               for _, c in net.cells_and_names())  # the built-in Dense too
    out = net(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, _reference(net, x), rtol=1e-5)
    # d(sum y)/dx = w @ head.weight.T broadcast over the rows
    grad = ms.grad(lambda t: net(t).sum())(ms.Tensor(x)).asnumpy()
    row = net.inner.w.asnumpy() @ net.head.weight.asnumpy()[0]
    np.testing.assert_allclose(grad, np.tile(row, (4, 1)), rtol=1e-5)
    net.offload()
    assert net.get_flags()["backward_prefetch"] == "Auto"
    for bad in ("auto", 0, -1, True, 1.5):
        with pytest.raises(ValueError, match="backward_prefetch"):
            net.offload(bad)


def test_set_boost_and_set_data_parallel_flag_every_sub_cell():
    net = Net()
    assert net.set_boost("LESS_BN") is net
    assert net.get_flags()["less_bn"] is True and net.inner.get_flags()["less_bn"] is True
    with pytest.raises(ValueError, match="less_bn"):
        net.set_boost("fast")
    net.set_data_parallel()
    assert net.inner.get_flags()["strategy_gen_mode"] == "data_parallel"


def test_remove_redundant_parameters_keeps_the_listed_names():
    net = Net()
    net.parallel_parameter_name_list = ["inner.w", "head.weight"]
    net.remove_redundant_parameters()
    assert sorted(p.name for p in net.get_parameters()) == ["head.weight", "inner.w"]
    assert not hasattr(net.inner, "b")


def test_compiled_and_enable_backward_hook_follow_the_cell():
    net = Affine()
    assert net.compiled is False and net.enable_backward_hook is False
    x = ms.Tensor(np.ones((2, 3), np.float32))
    net.compile(x)
    assert net.compiled is True
    handle = net.register_backward_hook(lambda cell, gi, go: None)
    assert net.enable_backward_hook is True
    handle.remove()
    assert net.enable_backward_hook is False


def test_get_func_graph_proto_is_the_compiled_graph(tmp_path):
    net = Net()
    with pytest.raises(RuntimeError, match="compile"):
        net.get_func_graph_proto()
    x = np.random.default_rng(2).normal(size=(5, 3)).astype(np.float32)
    net.compile(ms.Tensor(x))
    data = net.get_func_graph_proto()
    assert isinstance(data, bytes) and data
    path = os.path.join(tmp_path, "net.mindir")
    with open(path, "wb") as f:
        f.write(data)
    out = nn.GraphCell(ms.load(path))(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, _reference(net, x), rtol=1e-5)
