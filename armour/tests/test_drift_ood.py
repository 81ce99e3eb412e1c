"""OOD scores: values by hand, the calibrated false-positive rate, detection on digits."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.armour._digits import shared_digits, shared_mlp
from sporeling.armour.drift import (DriftError, OODDetector, auroc, energy, logits_of,
                                    max_softmax)


def test_scores_by_hand():
    z = np.array([[0.0, 0.0], [np.log(3.0), 0.0]])
    np.testing.assert_allclose(max_softmax(z), [0.5, 0.75])
    np.testing.assert_allclose(energy(z), [-np.log(2.0), -np.log(4.0)])
    np.testing.assert_allclose(energy(z, temperature=2.0),
                               [-2 * np.log(2.0), -2 * np.log(np.sqrt(3.0) + 1)])
    np.testing.assert_allclose(max_softmax(sx.Tensor(z.astype(np.float32))), [0.5, 0.75],
                               rtol=1e-6)


def test_calibrated_false_positive_rate_stays_below_alpha():
    # conformal threshold: over many calibration draws the mean in-distribution FPR <= alpha
    fpr = []
    for seed in range(50):
        rng = np.random.default_rng(seed)
        det = OODDetector("energy", alpha=0.1).fit(rng.normal(size=(199, 5)))
        fpr.append(det.predict(rng.normal(size=(400, 5))).mean())
    assert np.mean(fpr) <= 0.1


@pytest.mark.parametrize("score", ["energy", "msp"])
def test_faint_digits_are_out_of_distribution_for_the_digits_mlp(score):
    d, net = shared_digits(), shared_mlp()
    cal, held = logits_of(net, d.x_train[:400]), logits_of(net, d.x_test)
    # an under-exposed sensor: the network's logits shrink, its energy rises. (Bright uniform
    # noise and inverted digits get confident logits: neither score catches them.)
    out = logits_of(net, 0.25 * d.x_test[:300])
    det = OODDetector(score, alpha=0.05).fit(cal)
    assert det.predict(held).mean() <= 0.15            # held-out digits mostly pass
    assert det.predict(out).mean() >= 0.5
    assert auroc(det.scores(held), det.scores(out)) > 0.9


def test_auroc_by_hand():
    assert auroc([0, 1], [2, 3]) == 1.0 and auroc([2, 3], [0, 1]) == 0.0
    assert auroc([1], [1]) == 0.5


def test_bad_input_is_named():
    with pytest.raises(DriftError, match="'energy' or 'msp'"):
        OODDetector("entropy")
    with pytest.raises(DriftError, match="fit"):
        OODDetector().predict(np.zeros((2, 3)))
    with pytest.raises(DriftError, match="classes >= 2"):
        energy(np.zeros(3))
    with pytest.raises(DriftError, match="temperature > 0"):
        energy(np.zeros((2, 3)), temperature=0)


def test_logits_of_agrees_in_both_modes():
    d, net = shared_digits(), shared_mlp()
    py = logits_of(net, d.x_test[:50])
    sx.set_context(mode=sx.GRAPH_MODE)
    try:
        graph = logits_of(net, d.x_test[:50])
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)
    np.testing.assert_allclose(graph, py, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(energy(graph), energy(py), rtol=1e-5, atol=1e-5)
