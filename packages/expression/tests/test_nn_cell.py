"""Cell mechanics: registration order, hierarchical names, trainable filtering, modes,
apply, repr, to_float, containers and custom bprop routing."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler import ops
from sporeling.expression import nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 4)
        self.scale = sx.Parameter(np.ones(4, np.float32))
        self.bn = nn.BatchNorm1d(4)

    def construct(self, x):
        return ops.mul(self.bn(self.dense(x)), self.scale)


class Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([Block(), Block()])
        self.head = nn.Dense(4, 2, has_bias=False)

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


def test_hierarchical_names_follow_attribute_order_and_set_parameter_name():
    net = nn.SequentialCell(Encoder())
    names = [n for n, _ in net.parameters_and_names()]
    # each cell's own parameters first, then its children's (MindSpore's and PyTorch's order)
    assert names[:6] == ["0.layers.0.scale", "0.layers.0.dense.weight", "0.layers.0.dense.bias",
                         "0.layers.0.bn.gamma", "0.layers.0.bn.beta",
                         "0.layers.0.bn.moving_mean"]
    assert names[-1] == "0.head.weight"
    assert [p.name for _, p in net.parameters_and_names()] == names
    assert list(net.parameters_dict()) == names


def test_explicitly_named_parameter_keeps_its_name_under_the_prefix():
    class Named(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = sx.Parameter(np.zeros(2, np.float32), name="kernel")

    outer = nn.SequentialCell(Named())
    assert [n for n, _ in outer.parameters_and_names()] == ["0.w"]
    assert outer[0].w.name == "0.kernel"


def test_trainable_and_untrainable_params():
    net = Encoder()
    untrainable = {p.name for p in net.untrainable_params()}
    assert untrainable == {f"layers.{i}.bn.{s}" for i in (0, 1)
                           for s in ("moving_mean", "moving_variance")}
    assert len(net.trainable_params()) == 2 * 5 + 1
    assert len(list(net.get_parameters())) == 2 * 7 + 1
    assert len(list(net.get_parameters(expand=False))) == 0


def test_shared_parameter_is_listed_once():
    a = nn.Dense(2, 2)
    net = nn.SequentialCell(a, a)
    assert len(net.trainable_params()) == 2


def test_cells_and_names_and_children():
    net = Encoder()
    names = [n for n, _ in net.cells_and_names()]
    assert names[:4] == ["", "layers", "layers.0", "layers.0.dense"]
    assert list(net.name_cells()) == ["layers", "head"]
    assert net.cells() == [net.layers, net.head]


def test_set_train_propagates_and_new_cells_are_in_inference_mode():
    net = Encoder()
    assert not any(c.training for _, c in net.cells_and_names())
    assert net.set_train() is net
    assert all(c.training for _, c in net.cells_and_names())
    net.set_train(False)
    assert not net.layers[1].bn.training


def test_apply_visits_children_before_parent():
    seen = []
    Encoder().apply(lambda c: seen.append(type(c).__name__))
    assert seen[-1] == "Encoder" and seen[0] == "Dense" and seen.count("Block") == 2


def test_repr_tree_with_extend_repr():
    text = repr(nn.SequentialCell(nn.Dense(2, 3), nn.ReLU()))
    assert text.splitlines() == [
        "SequentialCell<",
        "  (0): Dense<input_channels=2, output_channels=3, has_bias=True>",
        "  (1): ReLU<>",
        "  >"]


def test_reassigning_and_deleting_attributes():
    net = nn.SequentialCell(nn.Dense(2, 2))
    net[0].bias = None
    assert [n for n, _ in net.parameters_and_names()] == ["0.weight"]
    with pytest.raises(TypeError, match="Parameter"):
        net[0].weight = sx.Tensor(np.zeros((2, 2), np.float32))
    del net[0]
    assert len(net) == 0 and not list(net.get_parameters())


def test_insert_param_to_cell_and_errors():
    cell = nn.Cell()
    cell.insert_param_to_cell("w", sx.Parameter(np.zeros(2, np.float32)))
    assert cell.w.name == "w" and cell.parameters_dict()["w"] is cell.w
    with pytest.raises(KeyError):
        cell.insert_param_to_cell("a.b", sx.Parameter(np.zeros(2, np.float32)))

    class Forgot(nn.Cell):
        def __init__(self):
            self.w = sx.Parameter(np.zeros(2, np.float32))

    with pytest.raises(AttributeError, match="super"):
        Forgot()


def test_sequential_cell_indexing_slicing_append_and_ordered_dict():
    from collections import OrderedDict
    seq = nn.SequentialCell(OrderedDict(fc=nn.Dense(2, 3), act=nn.ReLU()))
    assert [n for n, _ in seq.parameters_and_names()] == ["fc.weight", "fc.bias"]
    seq.append(nn.Dense(3, 1))
    assert len(seq) == 3 and isinstance(seq[-1], nn.Dense)
    head = seq[:2]
    assert isinstance(head, nn.SequentialCell) and len(head) == 2
    x = np.ones((4, 2), np.float32)
    assert seq(x).shape == (4, 1)
    with pytest.raises(IndexError):
        seq[5]


def test_cell_dict():
    d = nn.CellDict({"a": nn.Dense(2, 2), "b": nn.ReLU()})
    d["c"] = nn.Dense(2, 1)
    assert list(d.keys()) == ["a", "b", "c"] and "b" in d and len(d) == 3
    assert [n for n, _ in d.parameters_and_names()] == ["a.weight", "a.bias", "c.weight",
                                                       "c.bias"]
    d.pop("a")
    assert list(d) == ["b", "c"]


def test_to_float_computes_in_the_low_precision_and_gradients_reach_float32():
    net = nn.Dense(3, 2).to_float(sx.float16)
    x = sx.Tensor(np.ones((1, 3), np.float32))
    assert net(x).dtype == np.float16
    assert net.weight.dtype == np.float32
    grads = sx.grad(lambda x: net(x).sum(), None, net.trainable_params())(x)
    assert grads[0].dtype == np.float32
    np.testing.assert_allclose(grads[0].asnumpy(), np.ones((2, 3)))


def test_bprop_replaces_the_backward():
    class Doubler(nn.Cell):
        def construct(self, x):
            return ops.mul(x, 3.0)

        def bprop(self, x, out, dout):
            return (ops.mul(dout, 2.0),)

    cell = Doubler()
    x = sx.Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(cell(x).asnumpy(), [3.0, 6.0])
    np.testing.assert_allclose(sx.grad(lambda x: cell(x).sum())(x).asnumpy(), [2.0, 2.0])


def test_construct_missing_is_an_error():
    with pytest.raises(NotImplementedError, match="Cell"):
        nn.Cell()(1)
