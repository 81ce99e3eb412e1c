"""``ms.train``'s MindSpore 2.10 names: the top level's ``export``/``load`` (MindIR) and
``FlopsUtilizationCollector`` (FLOPs checked against counts by hand). ``SummaryRecord`` and
``SummaryCollector`` (the insight plugin's) are tested in tests/test_ms_insight.py."""
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.core import SporelingError

import sporeling.ms as ms
from sporeling.ms import nn, train


def test_export_and_load_round_trip_a_network(tmp_path):
    net = nn.Dense(3, 2)
    x = np.random.default_rng(0).normal(size=(4, 3)).astype(np.float32)
    path = os.path.join(tmp_path, "dense")
    train.export(net, ms.Tensor(x), file_name=path, file_format="MINDIR")
    graph = train.load(path + ".mindir")
    expected = x @ net.weight.asnumpy().T + net.bias.asnumpy()  # NumPy's Dense
    np.testing.assert_allclose(nn.GraphCell(graph)(ms.Tensor(x)).asnumpy(), expected,
                               rtol=1e-5)
    assert train.export is ms.export and train.load is ms.load
    assert {"export", "load"} <= set(train.__all__)


def test_unknown_names_raise_attribute_error():
    with pytest.raises(AttributeError, match="sporeling.ms.train"):
        train.NoSuchWriter  # noqa: B018


def _mlp_model(n_in=3, hidden=5, n_out=2):
    net = nn.SequentialCell(nn.Dense(n_in, hidden), nn.ReLU(), nn.Dense(hidden, n_out))
    return train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))


def _dataset(n_in, n_out, rows, batch):
    from sporeling.ms import dataset as ds
    rng = np.random.default_rng(0)
    data = {"x": rng.normal(size=(rows, n_in)).astype(np.float32),
            "y": rng.normal(size=(rows, n_out)).astype(np.float32)}
    return ds.NumpySlicesDataset(data, shuffle=False).batch(batch)


@settings(max_examples=4, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6), st.integers(1, 3), st.integers(1, 3))
def test_flops_collector_counts_the_training_steps_products(n_in, hidden, n_out, batch):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        cb = train.FlopsUtilizationCollector(data_size=2, computility=1e6)
        _mlp_model(n_in, hidden, n_out).train(1, _dataset(n_in, n_out, 4 * batch, batch),
                                              callbacks=[cb])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    # by hand: each Dense's forward and weight gradient, plus the second Dense's input
    # gradient (the first one's input is data): 2 FLOPs per multiply-add
    first, second = batch * n_in * hidden, batch * hidden * n_out
    assert cb.flops == 2 * (2 * first + 3 * second)
    assert cb.mfu == cb.hfu and cb.mfu > 0


def test_flops_of_a_convolution_graph():
    from sporeling.compiler import ops
    from sporeling.compiler.ir import make_graph
    from sporeling.ms.train.flops_collector import graph_flops
    x, w = np.ones((2, 3, 8, 8), np.float32), np.ones((4, 3, 3, 3), np.float32)
    g = make_graph(lambda a, b: ops.conv2d(a, b, padding=1), x, w)
    assert graph_flops(g) == 2 * (2 * 4 * 8 * 8) * (3 * 3 * 3)  # outputs x products each


def test_flops_collector_prints_and_checks_its_arguments(capsys):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        cb = train.FlopsUtilizationCollector(computility=1e9)
        _mlp_model().train(1, _dataset(3, 2, 12, 4), callbacks=[cb])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert ms.FlopsUtilizationCollector is train.FlopsUtilizationCollector
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"Full model flops is {cb.flops},")
    assert len([ln for ln in lines if ln.startswith("Train per step time:")]) == 1
    with pytest.raises(SporelingError, match="Graph mode"):
        _mlp_model().train(1, _dataset(3, 2, 4, 4),
                           callbacks=[train.FlopsUtilizationCollector()])
    for bad in ({"data_size": 0}, {"computility": -1}, {"full_flops": 1}):
        with pytest.raises(TypeError):
            train.FlopsUtilizationCollector(**bad)
    with pytest.raises(SporelingError, match="ModelArts"):
        train.FlopsUtilizationCollector(enable_ma_collector=True)
