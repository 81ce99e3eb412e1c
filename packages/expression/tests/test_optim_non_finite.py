"""No optimiser accepts a NaN or infinite hyperparameter (issue 23 §4: `Adam(lr=nan)` and
`SGD(momentum=nan)` were accepted and training turned every weight into NaN)."""
import inspect
import math

import pytest

from sporeling.expression import nn
from sporeling.expression.optim.optimizer import Optimizer

OPTIMIZERS = sorted({obj for obj in vars(nn).values() if inspect.isclass(obj)
                     and issubclass(obj, Optimizer) and obj is not Optimizer},
                    key=lambda c: c.__name__)


def _float_keywords(cls):
    """Every constructor argument whose default is a float (the hyperparameters)."""
    return [(p.name, p.default) for p in inspect.signature(cls).parameters.values()
            if isinstance(p.default, float) and not isinstance(p.default, bool)]


CASES = [(cls, name, bad) for cls in OPTIMIZERS for name, _ in _float_keywords(cls)
         for bad in (math.nan, math.inf)]


def _params():
    return nn.Dense(2, 2).trainable_params()


def test_every_optimizer_is_covered():
    assert {c.__name__ for c in OPTIMIZERS} >= {"SGD", "Momentum", "Adam", "AdamW",
                                                "RMSProp", "Adagrad"}
    assert len(CASES) >= 20


@pytest.mark.parametrize("cls, name, bad", CASES,
                         ids=[f"{c.__name__}-{n}-{b}" for c, n, b in CASES])
def test_a_non_finite_hyperparameter_is_refused_at_construction(cls, name, bad):
    required = {p.name: 0.1 for p in inspect.signature(cls).parameters.values()
                if p.default is inspect.Parameter.empty and p.name not in ("params",)}
    with pytest.raises(ValueError, match="finite|must be in"):
        cls(_params(), **{**required, name: bad})


@pytest.mark.parametrize("cls", OPTIMIZERS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("lr", [math.nan, math.inf, [0.1, math.nan]])
def test_a_non_finite_learning_rate_is_refused(cls, lr):
    required = {p.name: 0.1 for p in inspect.signature(cls).parameters.values()
                if p.default is inspect.Parameter.empty and p.name not in ("params",)}
    with pytest.raises(ValueError, match="finite"):
        cls(_params(), **{**required, "learning_rate": lr})
