"""Tutorial "Accelerating with Static Graphs" (docs r2.3.1, tutorials/source_en/beginner/
accelerate_with_static_graph.md): its five ways of running the network (PyNative, GRAPH_MODE,
``@ms.jit`` on a function, ``ms.jit(run)``, ``@ms.jit`` on ``construct``), only the import
renamed, weights set from NumPy where the network is built outside the compiled function."""
import numpy as np

import sporeling.ms as ms
from sporeling.ms import nn, Tensor

from ._tutorial import check, init_weights


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28*28, 512),
            nn.ReLU(),
            nn.Dense(512, 512),
            nn.ReLU(),
            nn.Dense(512, 10)
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


class JitNetwork(Network):
    @ms.jit  # Use the ms.jit decorator to make the decorated function run in static graph mode
    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


def accelerate_program():
    out = {}
    input = Tensor(np.ones([64, 1, 28, 28]).astype(np.float32))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    model = init_weights(Network())
    out["pynative"] = model(input)

    ms.set_context(mode=ms.GRAPH_MODE)
    model = init_weights(Network())
    out["graph_mode"] = model(input)
    ms.set_context(mode=ms.PYNATIVE_MODE)

    @ms.jit
    def run(x):
        model = Network()  # initialised inside: each framework's random weights
        return model(x)

    out["jit_decorator_shape"] = run(input).shape

    def run(x):
        model = Network()
        return model(x)

    run_with_jit = ms.jit(run)
    out["jit_call_shape"] = run_with_jit(input).shape

    model = init_weights(JitNetwork())
    out["jit_construct"] = model(input)
    return out


def test_accelerate_with_static_graph():
    check("test_accelerate_with_static_graph", "accelerate_program", accelerate_program(),
          rtol=1e-4)
