"""Optimizer sharding (ZeRO-1) on local thread-ranks: the same parameters as the unsharded
optimizer, state bytes per rank about 1/N."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.expression.optim import SGD, Adam, AdamW, RMSProp
from sporeling.parallel import reset_auto_parallel_context, set_auto_parallel_context
from sporeling.parallel.testing import run_local
from sporeling.parallel.zero import (OptimizerShardingError, ShardedOptimizer,
                                     parallel_optimizer)

from _pipeline_models import data, mlp, params

SHAPES = [(7, 3), (5,), (1,), (4, 4), (2, 3, 2)]   # sizes not dividing 2 or 4, one tiny
OPTIMIZERS = {
    "sgd_momentum": lambda ps: SGD(ps, 0.05, momentum=0.9, weight_decay=0.01),
    "nesterov": lambda ps: SGD(ps, 0.05, momentum=0.9, nesterov=True),
    "adam": lambda ps: Adam(ps, 0.01, weight_decay=0.01),
    "adamw_amsgrad": lambda ps: AdamW(ps, 0.01, use_amsgrad=True),
    "rmsprop_centered": lambda ps: RMSProp(ps, 0.01, momentum=0.5, centered=True),
}


@pytest.fixture(autouse=True)
def _context():
    reset_auto_parallel_context()
    yield
    reset_auto_parallel_context()


def _weights(dtype=np.float64):
    rng = np.random.default_rng(0)
    return [sx.Parameter(rng.normal(size=s).astype(dtype), name=f"w{i}")
            for i, s in enumerate(SHAPES)]


def _grads(step, rank=0, dtype=np.float64):
    rng = np.random.default_rng(100 * step + rank)
    return [rng.normal(size=s).astype(dtype) for s in SHAPES]


def _reference(make, steps, dtype=np.float64, ranks=1):
    ws = _weights(dtype)
    opt = make(ws)
    for t in range(steps):
        g = [np.mean([_grads(t, r, dtype)[i] for r in range(ranks)], axis=0).astype(dtype)
             for i in range(len(SHAPES))]
        opt(g)
    return [w.asnumpy() for w in ws]


@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_sharded_steps_equal_the_unsharded_optimizer(n, name):
    make = OPTIMIZERS[name]
    want = _reference(make, 5)

    def rank():
        ws = _weights()
        opt = ShardedOptimizer(make(ws))
        for t in range(5):
            opt(_grads(t))
        return [w.asnumpy() for w in ws], opt.global_step

    for got, step in run_local(n, rank):
        assert step == 5
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=0, atol=1e-10)


@pytest.mark.parametrize("n", [2, 4])
def test_local_gradients_reduce_scattered_equal_their_mean(n):
    make = OPTIMIZERS["adam"]
    want = _reference(make, 4, ranks=n)

    def rank():
        from sporeling.parallel import get_rank
        ws = _weights()
        opt = ShardedOptimizer(make(ws), reduce_gradients="mean")
        for t in range(4):
            opt(_grads(t, get_rank()))
        return [w.asnumpy() for w in ws]

    for got in run_local(n, rank):
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=0, atol=1e-10)


def test_float32_parameters_and_a_skipped_gradient():
    make = OPTIMIZERS["adam"]
    ws_ref = _weights(np.float32)
    ref = make(ws_ref)
    for t in range(3):
        g = _grads(t, dtype=np.float32)
        g[1] = None
        ref(g)

    def rank():
        ws = _weights(np.float32)
        opt = ShardedOptimizer(make(ws))
        for t in range(3):
            g = _grads(t, dtype=np.float32)
            g[1] = None
            opt(g)
        return [w.asnumpy() for w in ws]

    for got in run_local(2, rank):
        for g, w in zip(got, ws_ref):
            assert g.dtype == np.float32
            np.testing.assert_allclose(g, w.asnumpy(), rtol=1e-6, atol=1e-7)
        np.testing.assert_array_equal(got[1], _weights(np.float32)[1].asnumpy())


@pytest.mark.parametrize("n", [2, 4])
def test_state_bytes_per_rank_are_about_one_nth(n):
    big = [(64, 33), (100,), (3,)]

    def rank():
        ws = [sx.Parameter(np.ones(s), name=f"w{i}") for i, s in enumerate(big)]
        opt = ShardedOptimizer(Adam(ws, 0.01))
        opt([np.ones(s) for s in big])
        return opt.memory_report()

    reports = run_local(n, rank)
    whole = 2 * 8 * sum(int(np.prod(s)) for s in big)     # m and v, float64
    assert [r["unsharded_state_bytes"] for r in reports] == [whole] * n
    assert sum(r["state_bytes"] for r in reports) == whole     # every element once
    for r in reports:
        assert r["ratio"] <= 1 / n + 0.01
        assert r["parameter_bytes"] == whole // 2


def test_data_parallel_training_with_sharded_adam_equals_one_device():
    x, y = data(batch=16)
    net1 = mlp()
    step1 = nn.TrainOneStepCell(nn.WithLossCell(net1, nn.MSELoss()),
                                Adam(net1.trainable_params(), 0.01))
    want_losses = [float(step1(x, y)) for _ in range(5)]
    want = params(net1)
    set_auto_parallel_context(enable_parallel_optimizer=True)

    def rank():
        from sporeling.parallel import get_rank
        net = mlp()
        loss_net = nn.WithLossCell(net, nn.MSELoss())
        opt = parallel_optimizer(Adam(net.trainable_params(), 0.01), reduce_gradients="mean")
        assert isinstance(opt, ShardedOptimizer)
        vg = sx.value_and_grad(loss_net, None, opt.parameters)
        r = get_rank()
        losses = []
        for _ in range(5):
            loss, grads = vg(x[8 * r:8 * r + 8], y[8 * r:8 * r + 8])
            losses.append(float(loss))
            opt(grads)
        return losses, params(net)

    results = run_local(2, rank)
    np.testing.assert_allclose(np.mean([r[0] for r in results], axis=0), want_losses,
                               rtol=0, atol=1e-10)
    for _losses, got in results:
        for name, w in want.items():
            np.testing.assert_allclose(got[name], w, rtol=0, atol=1e-10, err_msg=name)


def test_parallel_optimizer_follows_the_context():
    def rank():
        opt = Adam(_weights(), 0.01)
        return type(parallel_optimizer(opt)).__name__, parallel_optimizer(opt).optimizer is opt
    assert run_local(2, lambda: parallel_optimizer(opt := Adam(_weights())) is opt) == \
        [True, True]                        # the context key is off by default
    set_auto_parallel_context(enable_parallel_optimizer=True)
    assert run_local(2, rank) == [("ShardedOptimizer", True)] * 2
    opt = Adam(_weights(), 0.01)
    assert run_local(1, lambda: parallel_optimizer(opt) is opt) == [True]  # one rank: as is


def test_bad_input_is_named():
    def rank(build):
        return build()
    with pytest.raises(OptimizerShardingError, match="not a sporeling optimizer"):
        run_local(2, rank, lambda: ShardedOptimizer(object()))
    with pytest.raises(OptimizerShardingError, match="bad reduce_gradients"):
        run_local(2, rank, lambda: ShardedOptimizer(Adam(_weights()), reduce_gradients="max"))
    with pytest.raises(OptimizerShardingError, match="wrong number of gradients") as info:
        run_local(2, rank, lambda: ShardedOptimizer(Adam(_weights()))(_grads(0)[:2]))
    assert "expected 5" in str(info.value)
    assert "test_zero_optimizer.py:" in str(info.value)     # the user's line
    with pytest.raises(OptimizerShardingError, match="gradient of w1 has the wrong shape"):
        run_local(2, rank, lambda: ShardedOptimizer(Adam(_weights()))(
            [np.ones(s) for s in SHAPES[:1]] + [np.ones(6)] + _grads(0)[2:]))


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_train_one_step_cell_in_data_parallel_mode_shards_its_optimizer(mode):
    """enable_parallel_optimizer in data_parallel mode: TrainOneStepCell's optimizer is
    sharded on its own; 2 ranks x batch 8 end where one device with batch 16 does."""
    x, y = data(batch=16)
    net1 = mlp()
    step1 = nn.TrainOneStepCell(nn.WithLossCell(net1, nn.MSELoss()),
                                Adam(net1.trainable_params(), 0.01))
    for _ in range(5):
        step1(x, y)
    want = params(net1)
    set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True,
                              enable_parallel_optimizer=True)

    def rank():
        from sporeling.parallel import current, get_rank
        net = mlp()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   Adam(net.trainable_params(), 0.01))
        # Graph mode: no rank may trace while another still builds (tracing patches
        # PyNative's dispatch process-wide, and thread-ranks share the process)
        current().barrier()
        r = get_rank()
        for _ in range(5):
            step(x[8 * r:8 * r + 8], y[8 * r:8 * r + 8])
        return type(step.optimizer).__name__, step.optimizer.memory_report()["ratio"], \
            params(net)

    if mode == "graph":
        sx.set_context(mode=sx.GRAPH_MODE)
    try:
        results = run_local(2, rank)
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)
    for kind, ratio, got in results:
        assert kind == "ShardedOptimizer" and ratio <= 0.5 + 0.01
        for name, w in want.items():
            np.testing.assert_allclose(got[name], w, rtol=0, atol=1e-10, err_msg=name)
