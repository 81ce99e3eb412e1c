"""Tutorial "Saving and Loading the Model" (docs r2.3.1, tutorials/source_en/beginner/
save_load.md): its code with only the import renamed, files in a temporary folder; the
reloaded network and the MindIR graph give MindSpore 2.10's outputs."""
import os
import tempfile

import numpy as np

import sporeling.ms as mindspore
from sporeling.ms import nn
from sporeling.ms import Tensor

from ._tutorial import check, init_weights


def save_load_program():
    out = {}
    os.chdir(tempfile.mkdtemp())

    def network():
        model = nn.SequentialCell(
                    nn.Flatten(),
                    nn.Dense(28*28, 512),
                    nn.ReLU(),
                    nn.Dense(512, 512),
                    nn.ReLU(),
                    nn.Dense(512, 10))
        return model

    model = init_weights(network())
    mindspore.save_checkpoint(model, "model.ckpt")
    model = network()
    param_dict = mindspore.load_checkpoint("model.ckpt")
    param_not_load, _ = mindspore.load_param_into_net(model, param_dict)
    out["param_not_load"] = param_not_load
    out["names"] = sorted(param_dict)
    inputs = Tensor(np.ones([1, 1, 28, 28]).astype(np.float32))
    out["reloaded"] = model(inputs)

    mindspore.set_context(mode=mindspore.GRAPH_MODE, jit_syntax_level=mindspore.STRICT)
    mindspore.export(model, inputs, file_name="model", file_format="MINDIR")
    graph = mindspore.load("model.mindir")
    model = nn.GraphCell(graph)
    outputs = model(inputs)
    out["mindir"] = outputs
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    return out


def test_save_load():
    cwd = os.getcwd()
    try:
        check("test_save_load", "save_load_program", save_load_program())
    finally:
        os.chdir(cwd)
