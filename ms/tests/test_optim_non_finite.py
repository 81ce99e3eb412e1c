"""The facade's optimisers (MindSpore's names and hyperparameters) refuse NaN and infinite
hyperparameters at construction too (issue 23 §4)."""
import inspect
import math

import pytest

import sporeling.ms as ms
from sporeling.expression.optim.optimizer import Optimizer

OPTIMIZERS = sorted({obj for obj in vars(ms.nn).values() if inspect.isclass(obj)
                     and issubclass(obj, Optimizer) and obj.__name__ != "Optimizer"},
                    key=lambda c: c.__name__)  # the bases take (learning_rate, parameters)


def _build(cls, **override):
    net = ms.nn.Dense(2, 2)
    required = {p.name: 0.1 for p in inspect.signature(cls).parameters.values()
                if p.default is inspect.Parameter.empty
                and p.name not in ("params", "parameters")
                and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    return cls(net.trainable_params(), **{**required, **override})


CASES = [(cls, p.name, bad) for cls in OPTIMIZERS
         for p in inspect.signature(cls).parameters.values()
         if isinstance(p.default, float) and not isinstance(p.default, bool)
         for bad in (math.nan, math.inf)]


def test_the_facade_optimizers_build_and_are_covered():
    for cls in OPTIMIZERS:
        _build(cls)
    assert len(OPTIMIZERS) >= 12 and len(CASES) >= 30


@pytest.mark.parametrize("cls, name, bad", CASES,
                         ids=[f"{c.__name__}-{n}-{b}" for c, n, b in CASES])
def test_a_non_finite_hyperparameter_is_refused(cls, name, bad):
    with pytest.raises(ValueError, match="finite|must be|expected"):
        _build(cls, **{name: bad})
