"""Closed-form per-sample gradients and ghost clipping for Dense/activation-only networks:
the network itself is never traced, the results equal a loop of single-sample gradients,
and anything else falls back to vmap."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.armour._digits import make_mlp, shared_digits
from sporeling.armour.privacy import DPOptimizer, clip_and_noise, per_sample_grads
from sporeling.armour.privacy.per_sample_dense import dense_layers

LOSS = sx.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _loop_grads(net, x, y, params):
    return [[g.asnumpy() for g in sx.grad(lambda a, b: LOSS(net(a), b), None, params)(
        sx.Tensor(x[i:i + 1]), sx.Tensor(y[i:i + 1]))] for i in range(len(x))]


def _nets():
    sx.set_seed(1)
    nn = sx.nn
    return [make_mlp(seed=2),
            nn.SequentialCell([nn.Dense(64, 16, activation="tanh"), nn.Sigmoid(),
                               nn.Dense(16, 12, has_bias=False), nn.ReLU(), nn.Dense(12, 10)]),
            nn.Dense(64, 10)]


def test_mlp_per_sample_grads_do_not_run_the_network(monkeypatch):
    data = shared_digits()
    x, y = data.x_train[:5], data.y_train[:5]
    net = make_mlp(seed=4)
    params = list(net.trainable_params())
    expected = _loop_grads(net, x, y, params)

    def refuse(self, x):
        raise AssertionError("Dense.construct traced: the closed form was not used")
    monkeypatch.setattr(sx.nn.Dense, "construct", refuse)
    _, grads = per_sample_grads(net, LOSS, x, y)
    for i in range(len(x)):
        for got, want in zip(grads, expected[i]):
            np.testing.assert_allclose(got[i], want, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("which", [0, 1, 2])
@pytest.mark.parametrize("mode", [sx.PYNATIVE_MODE, sx.GRAPH_MODE])
def test_closed_form_matches_single_sample_grads_for_any_param_order(which, mode):
    data = shared_digits()
    x, y = data.x_train[:6], data.y_train[:6]
    net = _nets()[which]
    assert dense_layers(net) is not None
    params = list(net.trainable_params())[::-1]   # any order, as asked
    sx.set_context(mode=mode)
    try:
        losses, grads = per_sample_grads(net, LOSS, x, y, params)
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)
    expected = _loop_grads(net, x, y, params)
    for i in range(len(x)):
        for got, want in zip(grads, expected[i]):
            assert got[i].shape == want.shape
            np.testing.assert_allclose(got[i], want, rtol=1e-4, atol=1e-6)
        want_loss = LOSS(net(sx.Tensor(x[i:i + 1])), sx.Tensor(y[i:i + 1])).asnumpy()
        np.testing.assert_allclose(losses[i], want_loss, rtol=1e-5)


def test_other_cells_are_not_taken_for_dense_only():
    nn = sx.nn
    assert dense_layers(nn.SequentialCell([nn.Dense(4, 4), nn.GELU()])) is None
    assert dense_layers(nn.SequentialCell([nn.Flatten(), nn.Dense(4, 4)])) is None
    assert dense_layers(nn.Dense(4, 4, activation="gelu")) is None


def test_ghost_clipped_step_equals_clipping_the_materialised_grads():
    data = shared_digits()
    x, y = data.x_train[:16], data.y_train[:16]
    net = _nets()[1]
    _, grads = per_sample_grads(net, LOSS, x, y)
    norms = np.sqrt(sum(np.square(g.reshape(16, -1)).sum(1) for g in grads))
    clip = float(np.median(norms))        # half the examples get clipped
    expected = clip_and_noise(grads, clip, 0.0, 16.0, np.random.default_rng(0))
    opt = DPOptimizer(sx.optim.SGD(net.trainable_params(), 0.5), net, LOSS,
                      noise_multiplier=0.0, max_grad_norm=clip, expected_batch_size=16)
    _, private = opt.private_grads(x, y)
    for got, want in zip(private, expected):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-7)


@pytest.mark.parametrize("sparse", [True, False])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_softmax_cross_entropy_closed_form_equals_vmap_of_the_loss(sparse, reduction):
    from sporeling.armour.privacy.per_sample import _vmapped
    from sporeling.armour.privacy.per_sample_dense import known_loss_grads
    from sporeling.compiler.autodiff import value_and_grad
    from sporeling.expression.tensor.tensor import wrap
    rng = np.random.default_rng(0)
    h = rng.normal(size=(7, 5)).astype(np.float32) * 3
    y = rng.integers(0, 5, 7) if sparse else rng.dirichlet(np.ones(5), 7).astype(np.float32)
    loss = sx.nn.SoftmaxCrossEntropyWithLogits(sparse=sparse, reduction=reduction)

    def one(_, hi, yi):
        return value_and_grad(lambda a: loss(sx.ops.expand_dims(wrap(a), 0),
                                             sx.ops.expand_dims(wrap(yi), 0))._data)(hi)
    want_l, want_g = _vmapped(one, (), h, y)
    got_l, got_g = known_loss_grads(loss, h, y)
    np.testing.assert_allclose(got_l, want_l, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_g, want_g, rtol=1e-5, atol=1e-6)


def test_other_losses_take_the_vmap_of_the_loss_and_still_match():
    from sporeling.armour.privacy.per_sample_dense import known_loss_grads
    none = sx.nn.SoftmaxCrossEntropyWithLogits(sparse=True)       # reduction "none"
    h, y = np.zeros((2, 3), np.float32), np.array([0, 1])
    assert known_loss_grads(none, h, y) is None
    assert known_loss_grads(lambda a, b: LOSS(a, b), h, y) is None
    data = shared_digits()
    x, yy = data.x_train[:4], data.y_train[:4]
    net = _nets()[1]
    params = list(net.trainable_params())

    def scaled(a, b):
        return LOSS(a * 2.0, b)
    _, grads = per_sample_grads(net, scaled, x, yy)
    expected = [[g.asnumpy() for g in sx.grad(lambda a, b: scaled(net(a), b), None, params)(
        sx.Tensor(x[i:i + 1]), sx.Tensor(yy[i:i + 1]))] for i in range(len(x))]
    for i in range(len(x)):
        for got, want in zip(grads, expected[i]):
            np.testing.assert_allclose(got[i], want, rtol=1e-4, atol=1e-6)
