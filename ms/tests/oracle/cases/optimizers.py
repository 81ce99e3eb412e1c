"""``ms.nn`` optimizers stepped 3 times on two drawn parameters with drawn gradients: the
parameters after each step."""
from ..case import Case
from ..inputs import Input
from ._grid import tag

PARAMS = (Input((3, 4), "float32"), Input((4,), "float32"))

# optimizer -> constructor variants (learning_rate etc.)
OPTIMIZERS = {
    "SGD": ({"learning_rate": 0.1}, {"learning_rate": 0.1, "momentum": 0.9},
            {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True},
            {"learning_rate": 0.1, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01},
            {"learning_rate": 0.1, "weight_decay": 0.1, "loss_scale": 2.0}),
    "Momentum": ({"learning_rate": 0.1, "momentum": 0.9},
                 {"learning_rate": 0.1, "momentum": 0.9, "use_nesterov": True},
                 {"learning_rate": 0.1, "momentum": 0.9, "weight_decay": 0.01}),
    "Adam": ({"learning_rate": 0.01}, {"learning_rate": 0.01, "use_nesterov": True},
             {"learning_rate": 0.01, "weight_decay": 0.1},
             {"learning_rate": 0.01, "use_amsgrad": True},
             {"learning_rate": 0.01, "beta1": 0.8, "beta2": 0.99, "eps": 1e-6}),
    "AdamWeightDecay": ({"learning_rate": 0.01}, {"learning_rate": 0.01, "weight_decay": 0.1}),
    "AdaMax": ({"learning_rate": 0.01},),
    "Adagrad": ({"learning_rate": 0.1}, {"learning_rate": 0.1, "accum": 0.5,
                                         "weight_decay": 0.01}),
    "Adadelta": ({"learning_rate": 1.0}, {"learning_rate": 0.5, "rho": 0.8, "epsilon": 1e-4}),
    "RMSProp": ({"learning_rate": 0.01}, {"learning_rate": 0.01, "centered": True},
                {"learning_rate": 0.01, "momentum": 0.5}),
    "Lamb": ({"learning_rate": 0.01}, {"learning_rate": 0.01, "weight_decay": 0.1}),
    "FTRL": ({"learning_rate": 0.1}, {"learning_rate": 0.1, "l1": 0.01, "l2": 0.01}),
    "ProximalAdagrad": ({"learning_rate": 0.1}, {"learning_rate": 0.1, "l1": 0.01, "l2": 0.01}),
    "ASGD": ({"learning_rate": 0.1},),
    "Rprop": ({"learning_rate": 0.1},),
    "LazyAdam": ({"learning_rate": 0.01},),
}


def _cases():
    return [Case(f"nn.{opt}[{tag(init)}]", f"nn.{opt}", PARAMS, init=dict(init), kind="optim",
                 steps=3, grad=False)
            for opt, inits in OPTIMIZERS.items() for init in inits]


CASES = _cases()
