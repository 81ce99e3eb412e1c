"""Every optimiser and every form of learning rate compiles into a Graph-mode
``TrainOneStepCell`` step (issue 23 §8: RMSProp, Adagrad and schedules used to run their
update eagerly, silently). Checked in float64 against PyNative: the same weights after the
same steps; the update's ``assign``s in the one compiled graph; and no eager call of the
update rule during the compiled steps."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sporeling.expression as sx
from sporeling.expression import nn, ops, optim
from sporeling.expression.graph.cell_call import cache_of
from sporeling.expression.graph.tracing import is_tracing

STEPS = 6

OPTIMIZERS = {
    "SGD-wd": lambda ps: optim.SGD(ps, 0.05, weight_decay=1e-2),
    "SGD-dampening": lambda ps: optim.SGD(ps, 0.05, momentum=0.9, dampening=0.3),
    "SGD-nesterov": lambda ps: optim.SGD(ps, 0.05, momentum=0.9, nesterov=True),
    "Momentum-loss-scale": lambda ps: optim.Momentum(ps, 0.05, 0.9, loss_scale=8.0),
    "Adam-wd": lambda ps: optim.Adam(ps, 1e-2, weight_decay=1e-2),
    "Adam-amsgrad": lambda ps: optim.Adam(ps, 1e-2, use_amsgrad=True),
    "AdamW": lambda ps: optim.AdamW(ps, 1e-2, weight_decay=0.1),
    "RMSProp": lambda ps: optim.RMSProp(ps, 1e-2),
    "RMSProp-centered-momentum-wd": lambda ps: optim.RMSProp(
        ps, 1e-2, momentum=0.5, centered=True, weight_decay=1e-2),
    "Adagrad": lambda ps: optim.Adagrad(ps, learning_rate=0.1),
    "Adagrad-frozen-slots": lambda ps: optim.Adagrad(ps, learning_rate=0.1,
                                                     update_slots=False),
    "Momentum-groups": lambda ps: optim.Momentum(
        [{"params": ps[:2], "lr": 0.02, "weight_decay": 0.1}, {"params": ps[2:]}],
        0.05, 0.9),
}

RATES = {
    "per-step-list": [0.1, 0.05, 0.02, 0.01],  # past its end the last value stays
    "cosine_decay_lr": optim.cosine_decay_lr(0.001, 0.1, 8, 2, 3),
    "warmup_lr": optim.warmup_lr(0.1, 8, 2, 2),
    "ExponentialDecayLR-stair": optim.ExponentialDecayLR(0.1, 0.7, 2, is_stair=True),
    "NaturalExpDecayLR": optim.NaturalExpDecayLR(0.1, 0.3, 2),
    "InverseDecayLR": optim.InverseDecayLR(0.1, 0.5, 3),
    "CosineDecayLR": optim.CosineDecayLR(0.01, 0.1, 4),
    "PolynomialDecayLR-restarts": optim.PolynomialDecayLR(0.1, 0.01, 2, 2.0, True),
    "PolynomialDecayLR": optim.PolynomialDecayLR(0.1, 0.01, 4, 0.5),
    "WarmUpLR": optim.WarmUpLR(0.1, 3),
    "SequentialLR": optim.SequentialLR([optim.WarmUpLR(0.1, 2),
                                        optim.CosineDecayLR(0.0, 0.1, 3)], [2]),
}


class Net(nn.Cell):
    """float64 weights; ``gamma`` is skipped by the default weight decay."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.w1 = sx.Parameter(rng.standard_normal((4, 5)), name="w1")
        self.b1 = sx.Parameter(np.zeros(5), name="b1")
        self.w2 = sx.Parameter(rng.standard_normal((5, 2)), name="w2")
        self.gamma = sx.Parameter(np.ones(2), name="gamma")

    def construct(self, x):
        return ops.matmul(ops.tanh(ops.matmul(x, self.w1) + self.b1), self.w2) * self.gamma


def _mse(out, y):
    return ((out - y) ** 2).mean()


def count_eager_updates(opt):
    """Wrap ``opt._update`` to count its calls outside a trace (an eager update)."""
    calls = [0]
    rule = opt._update

    def spy(*args):
        calls[0] += not is_tracing()
        return rule(*args)
    opt._update = spy
    return calls


def train(mode, make, steps=STEPS, **cell_kwargs):
    sx.set_context(mode=mode)
    try:
        net = Net()
        opt = make(list(net.trainable_params()))
        calls = count_eager_updates(opt)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, _mse), opt, **cell_kwargs)
        rng = np.random.default_rng(1)
        for _ in range(steps):
            step(sx.Tensor(rng.standard_normal((3, 4))), sx.Tensor(rng.standard_normal((3, 2))))
        return [p.asnumpy().copy() for p in net.trainable_params()], calls[0], step
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)


def assert_graph_equals_pynative(make, **cell_kwargs):
    eager, eager_calls, _ = train(sx.PYNATIVE_MODE, make, **cell_kwargs)
    compiled, calls, step = train(sx.GRAPH_MODE, make, **cell_kwargs)
    for a, b in zip(compiled, eager):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    assert eager_calls == STEPS * 4 and calls == 0  # the update ran in the graph only
    cache = cache_of(step)
    assert cache.compile_count == 1
    opt = step.optimizer
    written = {id(p) for p in cache.last_entry.traced.effect_params}
    state = {id(p) for held in opt._state_params for p in held.values()}
    # every weight and the step counter, and the state the rule changes (all but, e.g.,
    # Adagrad's frozen sum or the step count of SGD without dampening)
    assert {id(p) for p in [*opt.parameters, opt._step_param]} <= written
    assert written - state == {id(p) for p in [*opt.parameters, opt._step_param]}
    frozen = getattr(opt, "update_slots", True) is False
    assert bool(written & state) == (bool(state) and not frozen)
    names = [eq.prim.name for eq in cache.last_graph.equations]
    assert names.count("assign") == len(written)  # each written by the graph's assign
    assert opt.global_step == STEPS


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_every_optimiser_compiles_into_the_step(name):
    assert_graph_equals_pynative(OPTIMIZERS[name])


@pytest.mark.parametrize("name", sorted(RATES))
def test_every_learning_rate_form_compiles_into_the_step(name):
    rate = RATES[name]
    assert_graph_equals_pynative(lambda ps: optim.Momentum(ps, rate, 0.9))


def test_adam_with_a_schedule_sens_and_clipping_compiles():
    assert_graph_equals_pynative(
        lambda ps: optim.AdamW(ps, optim.CosineDecayLR(0.001, 0.05, 4), weight_decay=0.1),
        sens=2.0, max_grad_norm=0.5)


def test_state_parameters_lists_the_step_counter_and_every_state():
    _, _, step = train(sx.GRAPH_MODE, OPTIMIZERS["Adam-amsgrad"], steps=1)
    opt = step.optimizer
    names = [p.name for p in opt.state_parameters()]
    assert names[0] == "Adam.global_step" and len(names) == 1 + 4 * 4
    assert "adam.v_max.w1" in names
    assert all(opt._states[i][k] is s.asnumpy() for i, held in enumerate(opt._state_params)
               for k, s in held.items())  # the NumPy view is the Parameter's own buffer


@settings(max_examples=8, deadline=None)
@given(lr=st.floats(1e-3, 0.2), b1=st.floats(0.0, 0.95), b2=st.floats(0.5, 0.999),
       decay=st.floats(0.0, 0.99), wd=st.floats(0.0, 0.1))
def test_adam_and_rmsprop_match_pynative_for_any_hyperparameters(lr, b1, b2, decay, wd):
    assert_graph_equals_pynative(
        lambda ps: optim.Adam(ps, lr, beta1=b1, beta2=b2, weight_decay=wd))
    assert_graph_equals_pynative(
        lambda ps: optim.RMSProp(ps, lr, decay=decay, momentum=b1, weight_decay=wd))
