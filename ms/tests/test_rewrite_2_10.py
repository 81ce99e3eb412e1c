"""ms.rewrite (2.10's SymbolTree, Node, NodeType, ScopedValue): construct parsed into
nodes, edited, and turned into a new network that runs the edited code."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sporeling.ms as ms
from sporeling.core.errors import SporelingError
from sporeling.ms import nn, ops
from sporeling.ms.rewrite import Node, NodeType, ScopedValue, SymbolTree, ValueType


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 3)
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.dense(x)
        y = ops.abs(x)
        if y.sum() > 100:
            y = y * 2
        x = self.relu(y)
        return x


def _x(seed=0):
    return ms.Tensor(np.random.default_rng(seed).normal(size=(2, 3)).astype(np.float32))


def test_nodes_follow_the_statements():
    tree = SymbolTree.create(Net())
    kinds = [(n.get_node_type(), n.get_name()) for n in tree.nodes()]
    assert kinds == [(NodeType.Input, "input_x"), (NodeType.CallCell, "dense"),
                     (NodeType.CallFunction, "abs"), (NodeType.ControlFlow, "if"),
                     (NodeType.CallCell, "relu"), (NodeType.Output, "return")]
    dense = tree.get_node("dense")
    assert isinstance(dense.get_instance(), nn.Dense)
    assert dense.get_targets() == [ScopedValue.create_naming_value("x")]
    assert [n.get_name() for n in dense.get_users()] == ["abs"]
    assert [n.get_name() for n in tree.get_node("relu").get_inputs()] == ["if"]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 1000))
def test_an_inserted_cell_runs_in_the_new_network(seed):
    net = Net()
    tree = SymbolTree.create(net)
    relu = tree.get_node("relu")
    sig = Node.create_call_cell(nn.Sigmoid(), targets=["x"],
                                args=[ScopedValue.create_naming_value("x")], name="sig")
    tree.insert(tree.after(relu), sig)
    new = tree.get_network()
    x = _x(seed)
    np.testing.assert_allclose(new(x).asnumpy(), 1 / (1 + np.exp(-net(x).asnumpy())),
                               rtol=1e-5)
    assert "x = self.sig(x)" in tree.get_code() and not hasattr(net, "sig")


def test_replace_and_erase():
    net = Net()
    tree = SymbolTree.create(net)
    tree.replace(tree.get_node("relu"),
                 [Node.create_call_cell(nn.Tanh(), ["x"], ["y"], name="tanh")])
    x = _x()
    y = np.abs(net.dense(x).asnumpy())
    np.testing.assert_allclose(tree.get_network()(x).asnumpy(), np.tanh(y), rtol=1e-5)
    tree2 = SymbolTree.create(net)
    tree2.erase(tree2.get_node("if"))
    tree2.erase(tree2.get_node("relu"))
    tree2.get_node("return").set_arg(0, "y")
    np.testing.assert_allclose(tree2.get_network()(x).asnumpy(), y, rtol=1e-6)
    with pytest.raises(SporelingError, match="cannot be erased"):
        tree2.erase(tree2.get_node("return"))


def test_scoped_values():
    v = ScopedValue.create_naming_value("dense", "self")
    assert str(v) == "self.dense" and v.type is ValueType.NamingValue
    assert ScopedValue.create_variable_value(3).type is ValueType.IntValue
    assert [str(s) for s in ScopedValue.create_name_values(["a", "b"], ["", "self"])] == \
        ["a", "self.b"]
    with pytest.raises(TypeError, match="Cell"):
        Node.create_call_cell(lambda t: t, ["x"])
    with pytest.raises(TypeError, match="Cell"):
        SymbolTree.create(lambda t: t)


def test_top_level_names():
    assert ms.SymbolTree is SymbolTree and ms.rewrite.NodeType is NodeType
