"""Fuzzing the shared digits MLP: coverage grows, misclassifications are real, mutations
stay bounded, both modes agree."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.armour._digits import predict, shared_digits, shared_mlp
from sporeling.armour.fuzz import (Affine, Blur, Contrast, FuzzError, Fuzzer,
                                   KMultisectionCoverage, Noise, NeuronCoverage, TopKCoverage)


@pytest.fixture(scope="module")
def digits():
    return shared_digits()


@pytest.fixture(scope="module")
def net():
    return shared_mlp()


def _fuzzer(net, digits, seed=0, **kw):
    f = Fuzzer(net, [KMultisectionCoverage(10), NeuronCoverage(0.5), TopKCoverage(2)],
               image_shape=(8, 8), batch_size=64, seed=seed, **kw)
    return f.fit(digits.x_train)


def test_fuzzing_grows_coverage_and_finds_real_misclassifications(net, digits):
    report = _fuzzer(net, digits).run(digits.x_test[:60], digits.y_test[:60], 1000)
    assert report.n_mutations == 1000
    first, last = report.history[0][1], report.history[-1][1]
    assert last["KMNC(10)"] > first["KMNC(10)"]
    assert all(last[k] >= first[k] for k in first)            # coverage never shrinks
    assert [m for m, _ in report.history] == sorted({m for m, _ in report.history})
    assert report.n_failures > 0
    assert report.failures_per_1000 == pytest.approx(report.n_failures)
    # the network really mislabels every reported mutant
    np.testing.assert_array_equal(predict(net, report.failures), report.failure_predictions)
    assert (report.failure_predictions != report.failure_labels).all()
    np.testing.assert_array_equal(report.failure_labels,
                                  digits.y_test[:60][report.failure_seeds])
    # ... and each stays within max_linf of its seed and inside the bounds
    seeds = digits.x_test[:60][report.failure_seeds]
    assert np.abs(report.failures - seeds).max() <= 0.3 + 1e-6
    assert report.failures.min() >= 0 and report.failures.max() <= 1
    assert sum(t for t, _ in report.per_mutation.values()) == 1000
    assert "per 1,000 mutations" in report.table(500)


def test_fuzzing_is_reproducible_from_its_seed(net, digits):
    a = _fuzzer(net, digits, seed=3).run(digits.x_test[:30], digits.y_test[:30], 200)
    b = _fuzzer(net, digits, seed=3).run(digits.x_test[:30], digits.y_test[:30], 200)
    assert a.history == b.history and a.n_failures == b.n_failures


def test_graph_mode_gives_the_same_activations_and_runs(net, digits):
    f = _fuzzer(net, digits)
    x = digits.x_test[:64]
    logits_py, acts_py = f.taps(x)
    sx.set_context(mode=sx.GRAPH_MODE)
    try:
        logits_g, acts_g = f.taps(x)
        report = f.run(digits.x_test[:30], digits.y_test[:30], 128)
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)
    np.testing.assert_allclose(logits_g, logits_py, rtol=1e-5, atol=1e-5)
    for a, b in zip(acts_g, acts_py):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    assert report.n_mutations == 128 and len(report.history) == 3
    assert all(c.compile_cache_info()["compile_count"] >= 1 for c in net)   # compiled


@pytest.mark.parametrize("mutation", [Affine(), Noise(0.2), Blur(), Contrast()])
def test_each_mutation_changes_an_image_within_its_bounds(mutation, digits):
    img = digits.x_test[0].reshape(8, 8).astype(np.float64)
    out = mutation(img, np.random.default_rng(0))
    assert out.shape == img.shape and not np.allclose(out, img)
    if isinstance(mutation, Noise):
        assert np.abs(out - img).max() <= 0.2


def test_affine_with_zero_ranges_is_the_identity(digits):
    img = digits.x_test[0].reshape(8, 8).astype(np.float64)
    out = Affine(0, 0, 0)(img, np.random.default_rng(0))
    np.testing.assert_allclose(out, img, atol=1e-12)


def test_bad_input_is_named(net, digits):
    with pytest.raises(FuzzError, match="low < high"):
        Fuzzer(net, NeuronCoverage(), bounds=(1, 0))
    with pytest.raises(FuzzError, match="max_linf > 0"):
        Fuzzer(net, NeuronCoverage(), max_linf=0)
    with pytest.raises(FuzzError, match="CoverageCriterion"):
        Fuzzer(net, ["nc"])
    with pytest.raises(FuzzError, match="max_eps >= 0"):
        Noise(-0.1)
    with pytest.raises(FuzzError, match=r"values in \[0.0, 1.0\]"):
        Fuzzer(net, NeuronCoverage()).run(digits.x_test[:4] * 20, digits.y_test[:4])
    with pytest.raises(FuzzError, match="image_shape"):
        Fuzzer(net, NeuronCoverage(), image_shape=(3, 3)).run(digits.x_test[:4],
                                                               digits.y_test[:4], 4)
