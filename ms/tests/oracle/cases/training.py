"""Training steps: small models (MLP, LeNet-like conv net, LSTM regressor) trained 5 steps in
PyNative and Graph mode, as a ``value_and_grad`` + optimizer step (under ``ms.jit`` in Graph
mode) and as ``nn.TrainOneStepCell``, with a few optimizers: the loss of each step and the
final weights, starting from MindSpore's initial weights. The model code is written once
against the ``ms`` module it is given."""
from __future__ import annotations

import numpy as np

from ..case import Case
from ..inputs import Input, case_rng, draw

STEPS = 5


def mlp(ms):
    nn = ms.nn
    return nn.SequentialCell(nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3))


def lenet(ms):
    nn = ms.nn
    return nn.SequentialCell(nn.Conv2d(1, 4, 3, pad_mode="valid", has_bias=True), nn.ReLU(),
                             nn.MaxPool2d(2, 2), nn.Conv2d(4, 6, 3), nn.ReLU(),
                             nn.Flatten(), nn.Dense(6 * 3 * 3, 3))


def lstm(ms):
    nn = ms.nn

    class LSTMRegressor(nn.Cell):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(3, 5, batch_first=True)
            self.head = nn.Dense(5, 1)

        def construct(self, x):
            out, _ = self.lstm(x)
            return self.head(out[:, -1, :])
    return LSTMRegressor()


# model -> (builder, input spec, label spec, loss)
MODELS = {
    "mlp": (mlp, Input((8, 6)), Input((8,), "int32", "int:0:3"), "classify"),
    "lenet": (lenet, Input((4, 1, 8, 8)), Input((4,), "int32", "int:0:3"), "classify"),
    "lstm": (lstm, Input((4, 6, 3)), Input((4, 1)), "regress"),
}
OPTIMIZERS = {
    "momentum": ("Momentum", {"learning_rate": 0.1, "momentum": 0.9}),
    "adam": ("Adam", {"learning_rate": 0.01}),
    "adamw": ("AdamWeightDecay", {"learning_rate": 0.01, "weight_decay": 0.05}),
}


def _loss(ms, kind):
    if kind == "classify":
        return ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return ms.nn.MSELoss()


def run_training(ms, case: Case, params: dict | None) -> dict:
    from ..runner import initial_params, load_params
    model, opt_name, style = case.api.split(":")[1:]
    build, x_spec, y_spec, loss_kind = MODELS[model]
    rng = case_rng(case.name)
    x, y = ms.Tensor(draw(x_spec, rng)), ms.Tensor(draw(y_spec, rng))
    ms.set_context(mode=ms.GRAPH_MODE if case.mode == "graph" else ms.PYNATIVE_MODE)
    try:
        net, loss_fn = build(ms), _loss(ms, loss_kind)
        out = {}
        load_params(ms, net, initial_params(net, params, out))
        cls, init = OPTIMIZERS[opt_name]
        opt = getattr(ms.nn, cls)(net.trainable_params(), **init)
        if style == "cell":
            step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, loss_fn), opt)
        else:
            def forward(data, label):
                return loss_fn(net(data), label)
            grad_fn = ms.value_and_grad(forward, None, opt.parameters)

            def train_step(data, label):
                loss, grads = grad_fn(data, label)
                opt(grads)
                return loss
            step = ms.jit(train_step) if case.mode == "graph" else train_step
        for i in range(case.steps):
            out[f"loss.{i}"] = np.asarray(step(x, y).asnumpy())
        out.update({f"after.{n}": p.asnumpy() for n, p in net.parameters_and_names()})
        return out
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


CASES = [Case(f"train.{model}/{opt}/{style}/{mode}", f"train:{model}:{opt}:{style}",
              kind="train", steps=STEPS, mode=mode, grad=False)
         for model in MODELS for opt in OPTIMIZERS for style in ("functional", "cell")
         for mode in ("pynative", "graph")]
