"""sx.quantize on the digits LeNet: accuracy, file size, save/load, int8 compute."""
import os

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression.deploy import QuantizedCell, load_quantized, quantize
from sporeling.core import SporelingError
from sporeling.expression.serialization import CheckpointError

from deploy_lenet import LeNet5, accuracy, digits, make_lenet, trained_lenet


@pytest.fixture(scope="module")
def float_net():
    return trained_lenet()


@pytest.fixture(scope="module")
def qnet(float_net):
    return quantize(float_net, digits().train_x, num_batches=8, batch_size=64)


def test_the_api_is_at_the_top_level():
    assert sx.quantize is quantize and sx.load_quantized is load_quantized


@pytest.mark.parametrize("observer", ["minmax", "percentile"])
def test_quantised_lenet_stays_within_one_point_of_float(float_net, observer):
    split = digits()
    q = quantize(float_net, split.train_x, num_batches=8, observer=observer)
    float_acc = accuracy(float_net, split.test_x, split.test_y)
    assert float_acc > 0.9  # a trained network, or the comparison means nothing
    assert accuracy(q, split.test_x, split.test_y) >= float_acc - 0.01


def test_the_quantised_cell_computes_in_int8_at_any_batch_size(qnet, float_net):
    x = digits().test_x[:5]
    graph, _, _ = qnet.graph_for(x)
    counts = graph.primitive_counts()
    assert counts["qconv2d"] == 2 and counts["qmatmul"] == 3 and counts["quantize"] == 5
    assert "conv2d" not in counts and "matmul" not in counts
    out = qnet(sx.Tensor(x))
    assert isinstance(out, sx.Tensor) and out.shape == (5, 10)
    np.testing.assert_allclose(qnet(x[:1]).asnumpy(), out.asnumpy()[:1], rtol=1e-5,
                               atol=1e-5)
    assert np.abs(out.asnumpy() - float_net(sx.Tensor(x)).asnumpy()).max() < 0.5


def test_the_file_is_under_0_3x_the_float_file_and_reloads_to_the_same_outputs(
        qnet, float_net, tmp_path):
    qpath, fpath = tmp_path / "int8.safetensors", tmp_path / "float.safetensors"
    qnet.save(qpath)
    sx.save_checkpoint(float_net, str(fpath))
    assert os.path.getsize(qpath) <= 0.3 * os.path.getsize(fpath)
    loaded = load_quantized(make_lenet(), qpath)  # a fresh, untrained network
    assert isinstance(loaded, QuantizedCell)
    x = digits().test_x
    np.testing.assert_array_equal(loaded(x).asnumpy(), qnet(x).asnumpy())
    # the float layers hold the dequantised weights: a usable float approximation
    w = dict(loaded.float_network.parameters_and_names())["features.0.weight"].asnumpy()
    ref = dict(float_net.parameters_and_names())["features.0.weight"].asnumpy()
    assert np.abs(w - ref).max() <= np.abs(ref).max() / 254 + 1e-7


def test_a_float_checkpoint_is_not_taken_for_a_quantised_file(float_net, tmp_path):
    path = tmp_path / "float.safetensors"
    sx.save_checkpoint(float_net, str(path))
    with pytest.raises(CheckpointError, match=r"load_quantized: not a quantised .*expected "
                                              r"format 'sporeling-int8' version '1'.*got"):
        load_quantized(make_lenet(), path)


def test_a_file_for_another_architecture_is_refused_naming_the_layer(qnet, tmp_path):
    path = tmp_path / "int8.safetensors"
    qnet.save(path)
    with pytest.raises(CheckpointError, match=r"does not fit the network; expected a "
                                              r"Parameter 'features.0.weight' of shape "
                                              r"\(32, 1, 3, 3\), got \(16, 1, 3, 3\) \(at "
                                              r".*int8.safetensors, 0.conv2d\)"):
        load_quantized(LeNet5(channels=(16, 64)), path)


class _Dataset:
    """What quantize reads of a sporeling.data Dataset: create_tuple_iterator."""

    def __init__(self, x, y):
        self.x, self.y = x, y

    def create_tuple_iterator(self, num_epochs=-1):
        return ((self.x[i:i + 50], self.y[i:i + 50]) for i in range(0, len(self.y), 50))


@pytest.mark.parametrize("kind", ["dataset", "tuples", "dicts", "tensors"])
def test_calibration_data_may_be_any_batch_source_and_must_not_be_empty(float_net, kind):
    split = digits()
    x, y = split.train_x, split.train_y
    data = {"dataset": _Dataset(x, y),
            "tuples": [(x[i:i + 50], y[i:i + 50]) for i in range(0, 100, 50)],
            "dicts": [{"image": x[i:i + 50], "label": y[i:i + 50]} for i in range(0, 100, 50)],
            "tensors": [sx.Tensor(x[i:i + 50]) for i in range(0, 100, 50)]}[kind]
    q = quantize(float_net, data, num_batches=2)
    assert accuracy(q, split.test_x, split.test_y) > 0.85
    with pytest.raises(SporelingError,
                       match="no calibration data.*expected at least one batch"):
        quantize(float_net, [], num_batches=2)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_model_eval_runs_the_quantised_cell_in_either_mode(qnet, mode):
    split = digits()
    with sx.context(mode=sx.GRAPH_MODE if mode == "graph" else sx.PYNATIVE_MODE):
        result = sx.Model(qnet, metrics={"acc"}).eval([(split.test_x, split.test_y)])
    assert result["acc"] == pytest.approx(accuracy(qnet, split.test_x, split.test_y))
    assert list(qnet.parameters_and_names()) == []  # int8 constants, nothing to train
