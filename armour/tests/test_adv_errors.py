"""Bad arguments are named errors saying what was expected."""
import numpy as np
import pytest

from sporeling.core.errors import SporelingError
from sporeling.armour.adv import (AdversarialTrainOneStepCell, AttackConfigError,
                                  CarliniWagnerL2Attack, DeepFool, FastGradientSignMethod,
                                  ProjectedGradientDescent, robustness_curve)

from _adv_linear import linear_problem


@pytest.fixture(scope="module")
def net():
    return linear_problem()[0]


@pytest.mark.parametrize("make", [
    lambda n: FastGradientSignMethod(n, eps=-0.1),
    lambda n: ProjectedGradientDescent(n, eps=-0.1),
    lambda n: ProjectedGradientDescent(n, eps=0.1, eps_iter=-0.01),
    lambda n: ProjectedGradientDescent(n, eps=float("nan")),
])
def test_negative_eps_is_named(net, make):
    with pytest.raises(AttackConfigError, match=r"expected eps(_iter)? >= 0, got") as info:
        make(net)
    assert isinstance(info.value, SporelingError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("make", [
    lambda n: FastGradientSignMethod(n, bounds=(1.0, 0.0)),
    lambda n: ProjectedGradientDescent(n, bounds=(0.5, 0.5)),
    lambda n: CarliniWagnerL2Attack(n, bounds=(1.0, -1.0)),
    lambda n: DeepFool(n, bounds=(2.0, 1.0)),
])
def test_inverted_bounds_are_named(net, make):
    with pytest.raises(AttackConfigError, match=r"bounds inverted.*expected finite low < high"):
        make(net)


def test_bounds_that_are_not_a_pair(net):
    with pytest.raises(AttackConfigError, match=r"expected \(low, high\)"):
        FastGradientSignMethod(net, bounds=0.5)


@pytest.mark.parametrize("norm", [1, "l1", 0.5, True])
def test_unsupported_norm(net, norm):
    with pytest.raises(AttackConfigError, match=r"unsupported norm; expected np.inf or 2"):
        ProjectedGradientDescent(net, norm=norm)


@pytest.mark.parametrize("norm", [np.inf, "inf", "linf", 2, "l2"])
def test_supported_norm_spellings(net, norm):
    assert ProjectedGradientDescent(net, norm=norm).norm in (np.inf, 2.0)


def test_iteration_counts_must_be_positive(net):
    with pytest.raises(AttackConfigError, match="nb_iter >= 1"):
        ProjectedGradientDescent(net, nb_iter=0)
    with pytest.raises(AttackConfigError, match="max_iterations >= 1"):
        CarliniWagnerL2Attack(net, max_iterations=0)
    with pytest.raises(AttackConfigError, match="max_iters >= 1"):
        DeepFool(net, max_iters=-3)


def test_labels_must_match_the_batch(net):
    x = np.zeros((4, 5))
    with pytest.raises(AttackConfigError, match=r"expected shape \(4,\), got shape \(3,\)"):
        FastGradientSignMethod(net).generate(x, np.zeros(3, np.int32))


def test_training_ratio_and_evaluation_inputs(net):
    with pytest.raises(AttackConfigError, match="0 <= adv_ratio <= 1"):
        AdversarialTrainOneStepCell(net, lambda o, y: o, None, adv_ratio=1.5)
    x, y = np.zeros((2, 5)), np.zeros(2, np.int32)
    with pytest.raises(AttackConfigError, match="eps >= 0"):
        robustness_curve(net, x, y, {"FGSM": lambda e: None}, [0.1, -0.2])
    with pytest.raises(AttackConfigError, match="at least one attack"):
        robustness_curve(net, x, y, {}, [0.1])
