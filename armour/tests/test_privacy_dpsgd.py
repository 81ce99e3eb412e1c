"""DP-SGD: per-sample gradients (vs a loop of single-sample grads), clipping, noise, Poisson
sampling, DPOptimizer, the (ε, δ) callback, bad input."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.armour._digits import make_lenet, make_mlp, shared_digits
from sporeling.armour.privacy import (DPOptimizer, PoissonSampler, PrivacyBudget, PrivacyError,
                                      clip_and_noise, compute_epsilon, per_sample_grads,
                                      train_private)

LOSS = sx.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _loop_grads(net, x, y):
    params = list(net.trainable_params())
    return [[g.asnumpy() for g in sx.grad(lambda a, b: LOSS(net(a), b), None, params)(
        sx.Tensor(x[i:i + 1]), sx.Tensor(y[i:i + 1]))] for i in range(len(x))]


@pytest.mark.parametrize("mode", [sx.PYNATIVE_MODE, sx.GRAPH_MODE])
@pytest.mark.parametrize("make, shape", [(make_mlp, (64,)), (make_lenet, (1, 8, 8))])
def test_per_sample_grads_match_a_loop_of_single_sample_grads(make, shape, mode):
    data = shared_digits()
    x = data.x_train[:6].reshape((6,) + shape)
    y = data.y_train[:6]
    net = make(seed=3)
    sx.set_context(mode=mode)
    try:
        losses, grads = per_sample_grads(net, LOSS, x, y)
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)
    expected = _loop_grads(net, x, y)
    for i in range(len(x)):
        for got, want in zip(grads, expected[i]):
            np.testing.assert_allclose(got[i], want, rtol=1e-4, atol=1e-6)
        want_loss = LOSS(net(sx.Tensor(x[i:i + 1])), sx.Tensor(y[i:i + 1])).asnumpy()
        np.testing.assert_allclose(losses[i], want_loss, rtol=1e-5)


def test_clipping_bounds_each_example_and_keeps_small_ones():
    rng = np.random.default_rng(0)
    grads = (rng.normal(size=(5, 3, 4)), rng.normal(size=(5, 4)))
    grads[0][0] *= 1e-3
    grads[1][0] *= 1e-3  # example 0 is under the clip norm: kept as is
    out = clip_and_noise(grads, 1.0, 0.0, 1.0, rng)
    norms = np.sqrt(sum(np.square(g.reshape(5, -1)).sum(1) for g in grads))
    factor = np.minimum(1, 1.0 / norms)
    assert factor[0] == 1 and (factor[1:] < 1).all()
    for g, o in zip(grads, out):
        np.testing.assert_allclose(o, np.tensordot(factor, g, axes=(0, 0)), rtol=1e-6)


def test_noise_has_standard_deviation_sigma_times_clip_over_batch():
    rng = np.random.default_rng(1)
    zero = (np.zeros((3, 200, 100)),)
    out = clip_and_noise(zero, 0.5, 2.0, 10.0, rng)[0]
    assert out.std() == pytest.approx(2.0 * 0.5 / 10.0, rel=0.03)
    assert abs(out.mean()) < 0.003


def test_poisson_sampler_draws_independent_variable_batches():
    s = PoissonSampler(2000, 0.05, seed=0)
    sizes = [len(b) for _ in range(5) for b in s]
    assert len(s) == 20 and len(sizes) == 100
    assert np.mean(sizes) == pytest.approx(100, rel=0.05)
    assert np.std(sizes) == pytest.approx(np.sqrt(2000 * 0.05 * 0.95), rel=0.25)


def _dp_opt(net, **kw):
    args = dict(noise_multiplier=1.0, max_grad_norm=1.0, expected_batch_size=32, seed=0) | kw
    return DPOptimizer(sx.optim.SGD(net.trainable_params(), 0.5), net, LOSS, **args)


@pytest.mark.parametrize("kw, needle", [
    (dict(noise_multiplier=-0.5), "noise_multiplier.*>= 0"),
    (dict(max_grad_norm=0.0), "max_grad_norm.*> 0"),
    (dict(max_grad_norm=-1.0), "max_grad_norm.*> 0"),
    (dict(expected_batch_size=0), "expected_batch_size"),
])
def test_bad_settings_are_named_errors(kw, needle):
    with pytest.raises(PrivacyError, match=needle):
        _dp_opt(make_mlp(), **kw)


def test_dp_step_without_noise_is_the_clipped_mean_step():
    data = shared_digits()
    x, y = data.x_train[:8], data.y_train[:8]
    net = make_mlp(seed=5)
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    _, grads = per_sample_grads(net, LOSS, x, y)
    expected = clip_and_noise(grads, 0.1, 0.0, 8.0, np.random.default_rng(0))
    opt = _dp_opt(net, noise_multiplier=0.0, max_grad_norm=0.1, expected_batch_size=8)
    opt.step(x, y)
    for b, p, g in zip(before, net.trainable_params(), expected):
        np.testing.assert_allclose(p.asnumpy(), b - 0.5 * g, rtol=1e-5, atol=1e-7)
    assert opt.steps == 1 and opt.global_step == 1


def test_training_learns_and_the_callback_reports_epsilon_per_epoch():
    data = shared_digits()
    n, q = len(data.x_train), 64 / len(data.x_train)
    net = make_mlp(seed=0)
    opt = DPOptimizer(sx.optim.Adam(net.trainable_params(), 0.01), net, LOSS,
                      noise_multiplier=1.0, max_grad_norm=1.0, expected_batch_size=q * n, seed=0)
    budget = PrivacyBudget(delta=1e-5)
    sampler = PoissonSampler(n, q, steps_per_epoch=10, seed=0)
    losses = train_private(opt, sampler, data.x_train, data.y_train, epochs=3,
                           callbacks=[budget])
    assert losses[-1] < losses[0]
    assert [e for e, _, _ in budget.history] == [1, 2, 3]
    for epoch, eps, delta in budget.history:
        assert eps == pytest.approx(compute_epsilon(1.0, q, 10 * epoch, 1e-5))
    assert budget.history[0][1] < budget.history[-1][1]


def test_per_sample_grads_leave_no_cells_noted_outside_a_trace():
    from sporeling.expression.graph import tracing
    before = list(tracing._STATE.cells)
    data = shared_digits()
    per_sample_grads(make_mlp(), LOSS, data.x_train[:3], data.y_train[:3])
    assert tracing._STATE.cells == before and not tracing.is_tracing()
