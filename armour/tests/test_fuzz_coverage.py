"""Coverage criteria on a 2-3-2 network whose activations are worked out by hand."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.armour.fuzz import (FuzzError, KMultisectionCoverage, LayerTaps, NeuronCoverage,
                                   TopKCoverage)

# Dense(2, 3) -> ReLU -> Dense(3, 2), weights (out, in):
#   x1 = (1, 0): hidden [1, 0, 0.5]  -> relu [1, 0, 0.5]   -> logits [1, 0.5]
#   x2 = (0, 2): hidden [0, 2, -2.5] -> relu [0, 2, 0]     -> logits [2, 0]
#   x3 = (2, 0): hidden [2, 0, 1.5]  -> relu [2, 0, 1.5]   -> logits [2, 1.5]
X = np.array([[1, 0], [0, 2], [2, 0]], np.float32)


@pytest.fixture(scope="module")
def taps():
    net = nn.SequentialCell([nn.Dense(2, 3), nn.ReLU(), nn.Dense(3, 2)])
    d1, _, d2 = list(net)
    d1.weight.set_data(np.array([[1, 0], [0, 1], [1, -1]], np.float32))
    d1.bias.set_data(np.array([0, 0, -0.5], np.float32))
    d2.weight.set_data(np.array([[1, 1, 0], [0, 0, 1]], np.float32))
    d2.bias.set_data(np.zeros(2, np.float32))
    return LayerTaps(net)


def test_taps_default_to_activation_cells_and_logits(taps):
    logits, acts = taps(X)
    assert taps.layers == [1, 2]
    np.testing.assert_allclose(acts[0], [[1, 0, 0.5], [0, 2, 0], [2, 0, 1.5]])
    np.testing.assert_allclose(logits, [[1, 0.5], [2, 0], [2, 1.5]])
    np.testing.assert_allclose(acts[1], logits)


def test_neuron_coverage_by_hand(taps):
    _, acts = taps(X[:2])
    assert NeuronCoverage(0.0).update(acts) == 1.0            # all 5 neurons > 0 somewhere
    nc = NeuronCoverage(0.75)
    assert nc.update([a[:1] for a in acts]) == pytest.approx(2 / 5)   # relu0, logit0
    assert nc.update([a[1:2] for a in acts]) == pytest.approx(3 / 5)  # + relu1


def test_top_k_coverage_by_hand(taps):
    _, acts = taps(X[:2])
    assert TopKCoverage(1).update(acts) == pytest.approx(3 / 5)       # relu0, relu1, logit0
    assert TopKCoverage(2).update(acts) == pytest.approx(1.0)


def test_k_multisection_coverage_by_hand(taps):
    _, acts = taps(X)
    km = KMultisectionCoverage(2).fit(acts)
    # ranges: relu [0,2] [0,2] [0,1.5], logits [1,2] [0,1.5]; x1 hits section 1 of relu0 and
    # section 0 of the other four neurons: 5 of 10 cells.
    assert km.update([a[:1] for a in acts]) == pytest.approx(0.5)
    hits = km.hits([a[:1] for a in acts])[0]
    assert hits.reshape(5, 2).tolist() == [[False, True], [True, False], [True, False],
                                           [True, False], [True, False]]
    # the whole fitting set reaches both ends of every range: full coverage
    assert km.update(acts) == 1.0


def test_k_multisection_ignores_values_outside_the_range():
    km = KMultisectionCoverage(4).fit([np.array([[0.0], [1.0]])])
    assert km.hits([np.array([[-0.1], [1.1], [0.3]])]).tolist() == [
        [False] * 4, [False] * 4, [False, True, False, False]]


def test_gains_mark_only_inputs_that_cover_a_new_cell():
    nc = NeuronCoverage(0.0)
    a = [np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])]
    assert nc.gains(a).tolist() == [True, False, True, False]
    assert nc.coverage == 1.0


def test_bad_input_is_named():
    with pytest.raises(FuzzError, match="expected an integer k >= 1"):
        KMultisectionCoverage(0)
    with pytest.raises(FuzzError, match="fit"):
        KMultisectionCoverage(3).update([np.zeros((2, 2))])
    with pytest.raises(FuzzError, match=r"\(N, units\)"):
        NeuronCoverage().update([np.zeros(3)])
    with pytest.raises(FuzzError, match="SequentialCell"):
        LayerTaps(sx.nn.Dense(2, 2))
