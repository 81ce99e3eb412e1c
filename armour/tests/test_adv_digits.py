"""Attacks, adversarial training and the robustness curve on the digits MLP / LeNet."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.armour._digits import (_batches, accuracy, make_mlp, predict, shared_digits,
                                      shared_lenet, shared_mlp)
from sporeling.armour.adv import (AdversarialTrainOneStepCell, CarliniWagnerL2Attack, DeepFool,
                                  FastGradientSignMethod, ProjectedGradientDescent,
                                  adversarial_model, format_table, plot_robustness,
                                  robustness_curve)


@pytest.fixture(scope="session")
def digits():
    return shared_digits()


@pytest.fixture(scope="session")
def mlp():
    return shared_mlp()


@pytest.fixture
def graph_mode():
    before = sx.get_context("mode")
    sx.set_context(mode=sx.GRAPH_MODE)
    yield
    sx.set_context(mode=before)


def _xy(digits, n=128):
    return digits.x_test[:n], digits.y_test[:n]


def test_the_shared_mlp_is_accurate(digits, mlp):
    assert accuracy(mlp, digits.x_test, digits.y_test) > 0.9


def test_pgd_is_at_least_as_strong_as_fgsm(digits, mlp):
    x, y = _xy(digits)
    clean = accuracy(mlp, x, y)
    fgsm = accuracy(mlp, FastGradientSignMethod(mlp, eps=0.1).generate(x, y), y)
    pgd = accuracy(mlp, ProjectedGradientDescent(mlp, eps=0.1, eps_iter=0.02, nb_iter=20,
                                                 seed=0).generate(x, y), y)
    assert pgd <= fgsm < clean - 0.3


def test_tensor_inputs_give_the_array_result(digits, mlp):
    x, y = _xy(digits, 16)
    fgsm = FastGradientSignMethod(mlp, eps=0.1)
    np.testing.assert_array_equal(fgsm.generate(sx.Tensor(x), sx.Tensor(y)),
                                  fgsm.generate(x, y))


def test_targeted_pgd_reaches_its_target(digits, mlp):
    x, y = _xy(digits, 64)
    target = (y + 1) % 10
    adv = ProjectedGradientDescent(mlp, eps=0.3, eps_iter=0.05, nb_iter=20, targeted=True,
                                   seed=0).generate(x, target)
    assert (predict(mlp, adv) == target).mean() > 0.9
    assert np.abs(adv - x).max() <= 0.3 + 1e-6 and adv.min() >= 0 and adv.max() <= 1


@pytest.mark.parametrize("make", [
    lambda n: DeepFool(n, overshoot=0.02),
    lambda n: DeepFool(n, candidates=3),
    lambda n: CarliniWagnerL2Attack(n, binary_search_steps=3, max_iterations=40),
], ids=["deepfool", "deepfool-top3", "cw"])
def test_minimal_perturbation_attacks_fool_every_correct_sample(digits, mlp, make):
    x, y = _xy(digits, 48)
    correct = predict(mlp, x) == y
    adv = make(mlp).generate(x, y)
    assert np.all(predict(mlp, adv)[correct] != y[correct])
    assert 0 <= adv.min() and adv.max() <= 1
    assert np.linalg.norm((adv - x)[correct], axis=1).mean() < 1.5   # small, not arbitrary


def test_graph_mode_gives_the_pynative_result(digits, mlp, graph_mode):
    x, y = _xy(digits, 32)
    def run():   # fresh attacks: a seeded PGD's random starts differ from call to call
        return [ProjectedGradientDescent(mlp, eps=0.1, eps_iter=0.02, nb_iter=5,
                                         seed=0).generate(x, y),
                DeepFool(mlp, max_iters=3).generate(x, y)]
    graph = run()
    sx.set_context(mode=sx.PYNATIVE_MODE)
    eager = run()
    for g, e in zip(graph, eager):
        np.testing.assert_allclose(g, e, atol=1e-5)


def test_pgd_on_lenet_images(digits):
    lenet = shared_lenet()
    x, y = digits.images("test")[:64], digits.y_test[:64]
    adv = ProjectedGradientDescent(lenet, eps=0.15, eps_iter=0.03, nb_iter=10,
                                   seed=0).generate(x, y)
    assert adv.shape == x.shape
    assert accuracy(lenet, adv, y) < accuracy(lenet, x, y) - 0.3


def _train(digits, adversarial, epochs=4):
    net = make_mlp(seed=1)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = sx.optim.Adam(net.trainable_params(), 0.01)
    if adversarial:
        attack = ProjectedGradientDescent(net, eps=0.1, eps_iter=0.04, nb_iter=3, seed=0)
        model = adversarial_model(net, loss, opt, attack, metrics={"acc"})
    else:
        model = sx.Model(net, loss, opt, metrics={"acc"})
    model.train(epochs, _batches(digits.x_train, digits.y_train, 64, 0))
    return net, model


def test_madry_training_raises_robust_accuracy(digits):
    x, y = _xy(digits, 200)
    robust = {}
    for adversarial in (False, True):
        net, model = _train(digits, adversarial)
        attack = ProjectedGradientDescent(net, eps=0.1, eps_iter=0.02, nb_iter=10, seed=0)
        robust[adversarial] = accuracy(net, attack.generate(x, y), y)
        assert model.eval([(x, y)])["acc"] > 0.85            # still accurate on clean data
    assert robust[True] > robust[False] + 0.1, robust


def test_adversarial_step_trains_in_graph_mode(digits, graph_mode):
    net = make_mlp(seed=2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = AdversarialTrainOneStepCell(net, loss, sx.optim.Adam(net.trainable_params(), 0.01),
                                       adv_ratio=0.5)
    x, y = digits.x_train[:64], digits.y_train[:64]
    losses = [float(step(x, y).asnumpy()) for _ in range(15)]
    assert losses[-1] < losses[0] * 0.7


def test_robustness_curve_table_and_png(digits, mlp, tmp_path):
    x, y = _xy(digits, 96)
    curve = robustness_curve(mlp, x, y, {
        "FGSM": lambda eps: FastGradientSignMethod(mlp, eps=eps),
        "PGD-Linf": lambda eps: ProjectedGradientDescent(mlp, eps=eps, eps_iter=eps / 4,
                                                         nb_iter=8, seed=0)},
        eps_values=[0.0, 0.05, 0.2])
    assert curve["FGSM"][0] == curve["PGD-Linf"][0] == curve.clean_accuracy
    for accs in curve.values():
        assert accs[0] > accs[1] > accs[2]                    # more ε, less accuracy
    table = format_table(curve).splitlines()
    assert table[0] == "| attack | ε=0 | ε=0.05 | ε=0.2 |"
    assert table[2].startswith(f"| FGSM | {curve.clean_accuracy:.3f} |")
    png = plot_robustness(curve, tmp_path / "robustness.png")
    import matplotlib.image
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert matplotlib.image.imread(png).shape[:2] == (350, 500)
