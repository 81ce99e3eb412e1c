"""Pipeline parallel on local thread-ranks: the 1F1B step equals one device (float64)."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.expression.optim import SGD, Adam
from sporeling.parallel import reset_auto_parallel_context, set_auto_parallel_context
from sporeling.parallel.pipeline import (PipelineCell, PipelineError, PipelineTrainOneStepCell,
                                         bubble_fraction, one_f_one_b)
from sporeling.parallel.testing import run_local

from _pipeline_models import data, mlp, params

SPLITS = {1: [0] * 5, 2: [0, 0, 1, 1, 1], 4: [0, 1, 2, 3, 3]}


@pytest.fixture(autouse=True)
def _context():
    reset_auto_parallel_context()
    yield
    reset_auto_parallel_context()


def _one_device(x, y):
    net = mlp()
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    loss, grads = sx.value_and_grad(loss_net, None, net.trainable_params())(x, y)
    return float(loss), {p.name: g.asnumpy() for p, g in zip(net.trainable_params(), grads)}


@pytest.mark.parametrize("recompute", [False, True])
@pytest.mark.parametrize("stages,micro", [(2, 4), (4, 4), (4, 8), (2, 1)])
def test_1f1b_step_equals_one_device(stages, micro, recompute):
    x, y = data()
    want_loss, want = _one_device(x, y)
    set_auto_parallel_context(pipeline_stages=stages)

    def rank():
        net = mlp(stages=SPLITS[stages])
        pipe = PipelineCell(nn.WithLossCell(net, nn.MSELoss()), micro_size=micro,
                            recompute=recompute)
        loss, grads = pipe.value_and_grad(x, y)
        got = {p.name: g for p, g in zip(net.trainable_params(), grads) if g is not None}
        return float(loss), got, pipe.last_report

    results = run_local(stages, rank)
    merged = {}
    for loss, got, report in results:
        assert abs(loss - want_loss) <= 1e-10
        assert not set(got) & set(merged)          # each parameter on exactly one stage
        merged.update(got)
        assert report.bubble_fraction == pytest.approx((stages - 1) / (micro + stages - 1))
        assert 0.0 <= report.idle_fraction < 1.0
        assert report.most_in_flight == min(stages - report.stage, micro)   # 1F1B's bound
    assert set(merged) == set(want)
    for name, g in want.items():
        np.testing.assert_allclose(merged[name], g, rtol=0, atol=1e-10, err_msg=name)


def test_two_stages_with_two_replicas_each_equal_one_device():
    x, y = data(batch=16)
    want_loss, want = _one_device(x, y)
    set_auto_parallel_context(pipeline_stages=2)

    def rank():
        net = mlp(stages=SPLITS[2])
        pipe = PipelineCell(nn.WithLossCell(net, nn.MSELoss()), micro_size=2)
        loss, grads = pipe.value_and_grad(x, y)
        return float(loss), {p.name: g for p, g in zip(net.trainable_params(), grads)
                             if g is not None}, pipe.last_report.replicas

    results = run_local(4, rank)
    for loss, got, replicas in results:
        assert replicas == 2 and abs(loss - want_loss) <= 1e-10
        for name, g in got.items():
            np.testing.assert_allclose(g, want[name], rtol=0, atol=1e-10, err_msg=name)
    assert set(results[0][1]) | set(results[2][1]) == set(want)


@pytest.mark.parametrize("make_opt", [lambda ps: SGD(ps, 0.1, momentum=0.9),
                                      lambda ps: Adam(ps, 0.01)])
def test_five_training_steps_match_one_device(make_opt):
    x, y = data()
    net1 = mlp()
    step1 = nn.TrainOneStepCell(nn.WithLossCell(net1, nn.MSELoss()),
                                make_opt(net1.trainable_params()))
    want_losses = [float(step1(x, y)) for _ in range(5)]
    want = params(net1)
    set_auto_parallel_context(pipeline_stages=4)

    def rank():
        net = mlp(stages=SPLITS[4])
        pipe = PipelineCell(nn.WithLossCell(net, nn.MSELoss()), micro_size=4)
        step = PipelineTrainOneStepCell(pipe, make_opt(net.trainable_params()))
        losses = [float(step(x, y)) for _ in range(5)]
        owned = {p.name for p in pipe_stage_params(pipe)}
        return losses, {k: v for k, v in params(net).items() if k in owned}

    def pipe_stage_params(pipe):
        from sporeling.parallel.comm import current
        from sporeling.parallel.pipeline.stages import plan_stages
        return plan_stages(pipe.network, 4).parameters(current().rank)

    merged = {}
    for losses, got in run_local(4, rank):
        np.testing.assert_allclose(losses, want_losses, rtol=0, atol=1e-10)
        merged.update(got)
    assert set(merged) == set(want)
    for name, w in want.items():
        np.testing.assert_allclose(merged[name], w, rtol=0, atol=1e-10, err_msg=name)


def test_forward_call_gives_the_loss_on_every_rank():
    x, y = data()
    want_loss, _ = _one_device(x, y)
    set_auto_parallel_context(pipeline_stages=2)
    pipe = lambda: PipelineCell(nn.WithLossCell(mlp(stages=SPLITS[2]), nn.MSELoss()), 4)  # noqa
    for loss in run_local(2, lambda: float(pipe()(x, y))):
        assert abs(loss - want_loss) <= 1e-10


def test_schedule_is_one_forward_one_backward():
    for stages in (1, 2, 4):
        for micro in (1, 3, 8):
            for k in range(stages):
                steps = one_f_one_b(k, stages, micro)
                assert sorted(steps) == sorted([("F", i) for i in range(micro)] +
                                               [("B", i) for i in range(micro)])
                in_flight, most = 0, 0
                for kind, i in steps:
                    assert kind == "F" or ("F", i) in steps[:steps.index((kind, i))]
                    in_flight += 1 if kind == "F" else -1
                    most = max(most, in_flight)
                assert most == min(stages - k, micro)   # 1F1B's memory bound
    assert bubble_fraction(1, 4) == 0.0
    assert bubble_fraction(4, 4) == pytest.approx(3 / 7)


# ---- bad input -----------------------------------------------------------------------------

def _pipe_error(n, stages, build, *inputs):
    set_auto_parallel_context(pipeline_stages=stages)
    with pytest.raises(PipelineError) as info:
        run_local(n, lambda: build().value_and_grad(*inputs))
    return str(info.value)


def test_stages_not_dividing_the_ranks():
    x, y = data()
    msg = _pipe_error(2, 4, lambda: PipelineCell(
        nn.WithLossCell(mlp(stages=SPLITS[4]), nn.MSELoss()), 2), x, y)
    assert "pipeline_stages does not divide" in msg and "pipeline_stages=4" in msg


def test_a_cell_without_a_stage():
    x, y = data()

    def build():
        net = mlp(stages=SPLITS[2])
        del net[2].pipeline_stage
        return PipelineCell(nn.WithLossCell(net, nn.MSELoss()), 2)
    msg = _pipe_error(2, 2, build, x, y)
    assert "cell '2' (Dense) has no pipeline_stage" in msg


def test_stages_out_of_order_or_missing_or_out_of_range():
    x, y = data()
    bad = lambda s: lambda: PipelineCell(nn.WithLossCell(mlp(stages=s), nn.MSELoss()), 2)  # noqa
    assert "goes back to stage 0" in _pipe_error(2, 2, bad([0, 1, 0, 1, 1]), x, y)
    assert "stage(s) [1] have no cell" in _pipe_error(2, 2, bad([0] * 5), x, y)
    assert "bad pipeline_stage" in _pipe_error(2, 2, bad([0, 1, 2, 2, 2]), x, y)


def test_micro_batches_not_dividing_the_batch():
    x, y = data(batch=10)
    msg = _pipe_error(2, 2, lambda: PipelineCell(
        nn.WithLossCell(mlp(stages=SPLITS[2]), nn.MSELoss()), 4), x, y)
    assert "micro-batches do not divide the batch of the data" in msg and "(10, 6)" in msg
    assert "test_pipeline_parallel.py:" in msg          # the user's line that called it


def test_bad_constructor_arguments_and_networks():
    with pytest.raises(PipelineError, match="bad micro_size") as info:
        PipelineCell(mlp(), 0)
    assert f"test_pipeline_parallel.py:{info.tb.tb_lineno}" in str(info.value)
    with pytest.raises(PipelineError, match="bad reduction"):
        PipelineCell(mlp(), 2, reduction="max")
    msg = _pipe_error(2, 2, lambda: PipelineCell(nn.WithLossCell(nn.Dense(6, 4),
                                                                 nn.MSELoss()), 2), *data())
    assert "not a chain of cells" in msg and "Dense" in msg


def test_graph_mode_gives_the_same_steps():
    x, y = data()
    set_auto_parallel_context(pipeline_stages=2)

    def rank():
        net = mlp(stages=SPLITS[2])
        pipe = PipelineCell(nn.WithLossCell(net, nn.MSELoss()), 4)
        step = PipelineTrainOneStepCell(pipe, SGD(net.trainable_params(), 0.1))
        return [float(pipe(x, y))] + [float(step(x, y)) for _ in range(3)]

    eager = run_local(2, rank)
    sx.set_context(mode=sx.GRAPH_MODE)
    try:
        graph = run_local(2, rank)
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)
    np.testing.assert_allclose(graph, eager, rtol=0, atol=1e-10)
    assert eager[0][3] < eager[0][0]     # it trains


def test_one_stage_runs_without_init_as_gradient_accumulation():
    import sporeling.parallel as sp
    x, y = data()
    want_loss, want = _one_device(x, y)
    assert not sp.is_initialized()
    try:
        net = mlp(stages=SPLITS[1])
        loss, grads = PipelineCell(nn.WithLossCell(net, nn.MSELoss()), 4).value_and_grad(x, y)
    finally:
        sp.release()
    assert abs(float(loss) - want_loss) <= 1e-10
    for p, g in zip(net.trainable_params(), grads):
        np.testing.assert_allclose(g, want[p.name], rtol=0, atol=1e-10)


def test_two_stages_x_two_replicas_with_the_sharded_optimizer_equal_one_device():
    """pipeline_stages=2 on 4 ranks with enable_parallel_optimizer: Adam's state split over
    each stage's two replicas; three steps end on one device's parameters."""
    from sporeling.parallel.zero import ShardedOptimizer
    x, y = data(batch=16)
    net1 = mlp()
    step1 = nn.TrainOneStepCell(nn.WithLossCell(net1, nn.MSELoss()),
                                Adam(net1.trainable_params(), 0.01))
    want_losses = [float(step1(x, y)) for _ in range(3)]
    want = params(net1)
    set_auto_parallel_context(pipeline_stages=2, enable_parallel_optimizer=True)

    def rank():
        net = mlp(stages=SPLITS[2])
        pipe = PipelineCell(nn.WithLossCell(net, nn.MSELoss()), micro_size=2)
        step = PipelineTrainOneStepCell(pipe, Adam(net.trainable_params(), 0.01))
        losses = [float(step(x, y)) for _ in range(3)]
        assert isinstance(step.optimizer, ShardedOptimizer)
        stage = pipe.last_report.stage
        owned = [p.name for i, d in enumerate(net) if SPLITS[2][i] == stage
                 for p in d.trainable_params()]
        return losses, {k: v for k, v in params(net).items() if k in owned}, \
            step.optimizer.memory_report()

    merged = {}
    for losses, got, memory in run_local(4, rank):
        np.testing.assert_allclose(losses, want_losses, rtol=0, atol=1e-10)
        for name, w in got.items():
            np.testing.assert_allclose(w, want[name], rtol=0, atol=1e-10, err_msg=name)
        merged.update(got)
        assert memory["ranks"] == 2 and memory["ratio"] <= 0.5 + 0.05
    assert set(merged) == set(want)
