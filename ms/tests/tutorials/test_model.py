"""Tutorial "Building a Network" (docs r2.3.1, tutorials/source_en/beginner/model.md): its
code with only the import renamed, weights set from NumPy (the same in both frameworks), in
PyNative and Graph mode."""
import pytest

import sporeling.ms as mindspore
from sporeling.ms import nn, ops

from ._tutorial import MODES, check, init_weights, set_mode


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28*28, 512, weight_init="normal", bias_init="zeros"),
            nn.ReLU(),
            nn.Dense(512, 512, weight_init="normal", bias_init="zeros"),
            nn.ReLU(),
            nn.Dense(512, 10, weight_init="normal", bias_init="zeros")
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


def model_program(mode):
    set_mode(mode)
    out = {}
    model = init_weights(Network())
    X = ops.ones((1, 28, 28), mindspore.float32)
    logits = model(X)
    out["logits"] = logits
    pred_probab = nn.Softmax(axis=1)(logits)
    y_pred = pred_probab.argmax(1)
    out["pred_probab"], out["y_pred"] = pred_probab, y_pred

    input_image = ops.ones((3, 28, 28), mindspore.float32)
    flatten = nn.Flatten()
    flat_image = flatten(input_image)
    out["flat_shape"] = flat_image.shape
    layer1 = init_weights(nn.Dense(in_channels=28*28, out_channels=20))
    hidden1 = layer1(flat_image)
    out["hidden1"] = hidden1
    hidden1 = nn.ReLU()(hidden1)
    out["relu"] = hidden1
    dense = init_weights(nn.Dense(20, 10))
    seq_modules = nn.SequentialCell(
        flatten,
        layer1,
        nn.ReLU(),
        dense
    )
    logits = seq_modules(input_image)
    softmax = nn.Softmax(axis=1)
    pred_probab = softmax(logits)
    out["seq_probab"] = pred_probab
    out["names"] = [name for name, param in model.parameters_and_names()]
    out["shapes"] = [param.shape for name, param in model.parameters_and_names()]
    out["param_rows"] = [param[:2] for name, param in model.parameters_and_names()]
    return out


@pytest.mark.parametrize("mode", MODES)
def test_model(mode):
    check("test_model", "model_program", model_program(mode), mode)
