"""Graph mode for Cells: ``set_context(mode=GRAPH_MODE)``, side effects, the eager fallbacks,
errors that name the user's line, and the state restored after a failed trace."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import SporelingError
from sporeling.expression import nn, ops
from sporeling.expression.autograd import interpreter as pynative


@pytest.fixture(autouse=True)
def graph_mode():
    sx.set_context(mode=sx.GRAPH_MODE)
    yield
    sx.set_context(mode=sx.PYNATIVE_MODE)


def x_of(*shape):
    return sx.Tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))


def test_graph_mode_compiles_each_top_level_call_once_per_signature():
    net = nn.SequentialCell(nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2))
    for _ in range(3):
        out = net(x_of(5, 3))
    assert net.compile_cache_info()["compile_count"] == 1
    assert net[0].compile_cache_info()["compile_count"] == 0   # inlined, not compiled
    net(x_of(7, 3))
    assert net.compile_cache_info()["compile_count"] == 2
    with sx.context(mode=sx.PYNATIVE_MODE):
        np.testing.assert_allclose(net(x_of(5, 3)).asnumpy(), out.asnumpy(), rtol=1e-6)


def test_batchnorm_statistics_are_graph_outputs_written_back():
    sx.set_seed(0)
    bn = nn.BatchNorm1d(3).set_train()
    x = x_of(8, 3)
    y = bn(x)
    mean = bn.moving_mean.asnumpy()
    np.testing.assert_allclose(mean, 0.1 * x.asnumpy().mean(0), rtol=1e-5)
    assert isinstance(bn.moving_mean._data, np.ndarray)
    bn(x)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.19 * x.asnumpy().mean(0),
                               rtol=1e-5)
    with sx.context(mode=sx.PYNATIVE_MODE):             # PyNative is unaffected
        bn(x)
        np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.271 * x.asnumpy().mean(0),
                                   rtol=1e-5)
    assert np.isfinite(y.asnumpy()).all()


def test_a_cell_called_while_grad_records_runs_eagerly_on_the_tape():
    net = nn.Dense(3, 1)
    x = x_of(4, 3)
    g = sx.grad(lambda x: net(x).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), np.tile(net.weight.asnumpy(), (4, 1)), rtol=1e-6)
    assert net.compile_cache_info()["compile_count"] == 0


class Peeks(nn.Cell):
    def __init__(self, how):
        super().__init__()
        self.how = how

    def construct(self, x):
        if self.how == "asnumpy":
            return x.asnumpy()
        if self.how == "float":
            return float(x.sum())
        if self.how == "print":
            print(x)
        if self.how == "bool":
            return x * float(bool(x.sum() > 0))
        return x


# (print(x) is no read: it prints when the graph runs, test_graph_value_reads.py)
@pytest.mark.parametrize("how", ["asnumpy", "float", "bool"])
def test_reading_tensor_data_while_compiling_names_the_users_line(how):
    with pytest.raises(SporelingError) as info:
        Peeks(how)(x_of(2))
    text = str(info.value) + "".join(getattr(info.value, "__notes__", []))
    assert f"{__file__}:" in text and "Graph mode" in text


def test_a_failed_trace_restores_parameters_and_pynative_dispatch():
    net = nn.SequentialCell(nn.Dense(2, 2), Peeks("asnumpy"))
    dispatch = pynative._run
    with pytest.raises(SporelingError):
        net(x_of(3, 2))
    assert all(type(p._data) is np.ndarray for p in net.get_parameters())
    assert pynative._run is dispatch
    with sx.context(mode=sx.PYNATIVE_MODE):
        assert net[0](x_of(3, 2)).shape == (3, 2)


def test_model_train_and_eval_in_graph_mode_match_pynative():
    def run(mode):
        sx.set_seed(0)
        net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 2))
        model = sx.Model(net, nn.CrossEntropyLoss(), nn.Adam(net.trainable_params(), 0.05),
                         metrics={"acc", "loss"})
        rng = np.random.default_rng(0)
        x = rng.standard_normal((32, 4)).astype(np.float32)
        y = (x[:, 0] > 0).astype(np.int32)
        batches = [(x[i:i + 8], y[i:i + 8]) for i in range(0, 32, 8)]
        with sx.context(mode=mode):
            model.train(3, batches)
            result = model.eval(batches)
        return result, model
    eager, _ = run(sx.PYNATIVE_MODE)
    compiled, model = run(sx.GRAPH_MODE)
    assert compiled["acc"] == eager["acc"]
    np.testing.assert_allclose(compiled["loss"], eager["loss"], rtol=1e-5)
    assert model.train_network.compile_cache_info()["compile_count"] == 1
    assert model.eval_network.compile_cache_info()["compile_count"] == 1


def test_pynative_cells_are_not_compiled():
    with sx.context(mode=sx.PYNATIVE_MODE):
        net = nn.Dense(2, 2)
        net(x_of(1, 2))
        assert net.compile_cache_info()["compile_count"] == 0
