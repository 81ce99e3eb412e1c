"""Each attack on a linear model, where the answer is known in closed form."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.armour.adv import (CarliniWagnerL2Attack, DeepFool, FastGradientSignMethod,
                                  ProjectedGradientDescent)

from _adv_linear import linear_problem, softmax

WIDE = (-10.0, 10.0)


@pytest.fixture(params=[sx.PYNATIVE_MODE, sx.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    before = sx.get_context("mode")
    sx.set_context(mode=request.param)
    yield request.param
    sx.set_context(mode=before)


def _ce_input_grad(w, b, x, y):
    """d CE / d x for a linear model: (softmax(xW + b) - onehot(y)) W^T per sample."""
    p = softmax(x @ w + b)
    return (p - np.eye(w.shape[1])[y]) @ w.T


@pytest.mark.parametrize("targeted", [False, True])
def test_fgsm_linf_is_the_sign_step(mode, targeted):
    net, w, b, x, y = linear_problem()
    adv = FastGradientSignMethod(net, eps=0.3, bounds=WIDE, targeted=targeted).generate(x, y)
    sign = -1 if targeted else 1
    np.testing.assert_allclose(adv, x + sign * 0.3 * np.sign(_ce_input_grad(w, b, x, y)),
                               atol=1e-12)


def test_fgsm_clips_to_bounds(mode):
    net, w, b, x, y = linear_problem()
    adv = FastGradientSignMethod(net, eps=0.5, bounds=(-0.8, 0.8)).generate(x, y)
    expected = np.clip(x + 0.5 * np.sign(_ce_input_grad(w, b, x, y)), -0.8, 0.8)
    np.testing.assert_allclose(adv, expected, atol=1e-12)


def test_fgm_l2_is_the_normalised_gradient(mode):
    net, w, b, x, y = linear_problem()
    g = _ce_input_grad(w, b, x, y)
    adv = FastGradientSignMethod(net, eps=0.7, norm=2, bounds=WIDE).generate(x, y)
    np.testing.assert_allclose(adv, x + 0.7 * g / np.linalg.norm(g, axis=1, keepdims=True),
                               atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(adv - x, axis=1), 0.7, atol=1e-12)


def test_pgd_one_step_without_random_start_equals_fgsm(mode):
    net, w, b, x, y = linear_problem()
    pgd = ProjectedGradientDescent(net, eps=0.2, eps_iter=0.2, nb_iter=1, bounds=WIDE,
                                   rand_init=False)
    fgsm = FastGradientSignMethod(net, eps=0.2, bounds=WIDE)
    np.testing.assert_allclose(pgd.generate(x, y), fgsm.generate(x, y), atol=1e-12)


def _binary(seed=1):
    """Two classes: the CE gradient is p_other (w_other - w_y), a fixed direction."""
    net, w, b, x, y = linear_problem(n=8, d=6, c=2, seed=seed)
    direction = w[:, 1 - y].T - w[:, y].T          # (n, d): w_other - w_true
    return net, w, b, x, y, direction


@pytest.mark.parametrize("rand_init", [False, True])
@pytest.mark.parametrize("targeted", [False, True])
def test_pgd_linf_reaches_the_corner_of_the_ball(mode, rand_init, targeted):
    net, w, b, x, y, d = _binary()
    labels = 1 - y if targeted else y              # target the other class: same answer
    adv = ProjectedGradientDescent(net, eps=0.25, eps_iter=0.05, nb_iter=12, bounds=WIDE,
                                   targeted=targeted, rand_init=rand_init,
                                   seed=3).generate(x, labels)
    np.testing.assert_allclose(adv, x + 0.25 * np.sign(d), atol=1e-12)


def test_pgd_l2_goes_eps_along_the_weight_difference(mode):
    net, w, b, x, y, d = _binary()
    adv = ProjectedGradientDescent(net, eps=0.6, eps_iter=0.1, nb_iter=10, norm=2,
                                   bounds=WIDE, rand_init=False).generate(x, y)
    np.testing.assert_allclose(adv, x + 0.6 * d / np.linalg.norm(d, axis=1, keepdims=True),
                               atol=1e-10)


def test_pgd_l2_random_start_stays_in_the_ball_and_converges(mode):
    net, w, b, x, y, d = _binary()
    pgd = ProjectedGradientDescent(net, eps=0.6, eps_iter=0.15, nb_iter=60, norm=2,
                                   bounds=WIDE, rand_init=True, seed=0)
    adv = pgd.generate(x, y)
    assert np.all(np.linalg.norm(adv - x, axis=1) <= 0.6 + 1e-9)
    np.testing.assert_allclose(adv, x + 0.6 * d / np.linalg.norm(d, axis=1, keepdims=True),
                               atol=1e-3)


def test_pgd_random_start_is_seeded():
    net, w, b, x, y = linear_problem()
    runs = [ProjectedGradientDescent(net, eps=0.3, eps_iter=0.01, nb_iter=1, bounds=WIDE,
                                     seed=s).generate(x, y) for s in (5, 5, 6)]
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.allclose(runs[0], runs[2])


def test_deepfool_steps_to_the_boundary_plus_overshoot(mode):
    net, w, b, x, y, d = _binary()
    logits = x @ w + b
    rows = np.arange(len(x))
    f = logits[rows, 1 - y] - logits[rows, y]                  # < 0 where correct
    correct = f < 0
    n = np.linalg.norm(d, axis=1)
    r = ((np.abs(f) / n + 1e-4) / n)[:, None] * d
    adv = DeepFool(net, num_classes=2, overshoot=0.02, bounds=WIDE).generate(x, y)
    np.testing.assert_allclose(adv[correct], (x + 1.02 * r)[correct], atol=1e-10)
    np.testing.assert_array_equal(adv[~correct], x[~correct])  # already wrong: unchanged
    assert np.all((adv @ w + b).argmax(1)[correct] != y[correct])


def test_carlini_wagner_finds_the_minimal_l2_perturbation(mode):
    net, w, b, x, y, d = _binary()
    logits = x @ w + b
    rows = np.arange(len(x))
    margin = logits[rows, y] - logits[rows, 1 - y]
    correct = margin > 0
    minimal = margin / np.linalg.norm(d, axis=1)               # distance to the boundary
    adv = CarliniWagnerL2Attack(net, num_classes=2, bounds=(-3.0, 3.0), learning_rate=0.05,
                                binary_search_steps=4, max_iterations=80,
                                initial_const=1.0).generate(x, y)
    dist = np.linalg.norm(adv - x, axis=1)
    assert np.all((adv @ w + b).argmax(1)[correct] != y[correct])
    assert np.all(dist[correct] >= minimal[correct] - 1e-9)
    assert np.all(dist[correct] <= minimal[correct] * 1.05 + 1e-3), (dist, minimal)
