"""Magnitude pruning masks and the polynomial sparsity schedule."""
import numpy as np
import pytest

from sporeling.compiler.prune import (PolynomialSparsity, channel_mask, constant_sparsity,
                                      global_magnitude_masks, magnitude_mask, sparsity_of)
from sporeling.core import SporelingError

rng = np.random.default_rng(0)


@pytest.mark.parametrize("sparsity", [0.0, 0.3, 0.8, 0.99])
def test_unstructured_mask_drops_exactly_the_smallest_magnitudes(sparsity):
    w = rng.standard_normal((16, 9)).astype(np.float32)
    keep = magnitude_mask(w, sparsity)
    assert keep.shape == w.shape and keep.dtype == bool
    assert (~keep).sum() == round(sparsity * w.size)
    if 0 < sparsity:
        assert np.abs(w[~keep]).max() <= np.abs(w[keep]).min()


def test_ties_still_give_the_exact_count():
    keep = magnitude_mask(np.zeros(10, np.float32), 0.3)
    assert (~keep).sum() == 3


def test_global_masks_share_one_threshold_across_layers():
    small = rng.standard_normal(100) * 0.01   # a layer of small weights loses most
    large = rng.standard_normal(100)
    masks = global_magnitude_masks({"a": small, "b": large}, 0.5)
    assert (~masks["a"]).sum() + (~masks["b"]).sum() == 100
    assert (~masks["a"]).sum() > 90
    kept = np.concatenate([small[masks["a"]], large[masks["b"]]])
    dropped = np.concatenate([small[~masks["a"]], large[~masks["b"]]])
    assert np.abs(dropped).max() <= np.abs(kept).min()


def test_channel_mask_drops_whole_output_channels_of_least_norm():
    w = rng.standard_normal((8, 3, 3, 3)).astype(np.float32)
    w[[2, 5]] *= 0.01
    keep = channel_mask(w, 0.25)
    assert keep.shape == w.shape
    per_channel = keep.reshape(8, -1)
    assert (per_channel.all(1) | ~per_channel.any(1)).all()  # all or nothing per channel
    assert sorted(np.flatnonzero(~per_channel.any(1))) == [2, 5]
    rows = channel_mask(rng.standard_normal((6, 4)), 0.5, axis=1)   # columns of a matrix
    assert (rows.all(0) | ~rows.any(0)).all() and (~rows.any(0)).sum() == 2


def test_bad_arguments_say_what_was_expected():
    with pytest.raises(SporelingError, match=r"expected a number in \[0, 1\), got 1.0"):
        magnitude_mask(np.ones(3), 1.0)
    with pytest.raises(SporelingError, match="rank 2 or more.*got \\(3,\\)"):
        channel_mask(np.ones(3), 0.5)
    with pytest.raises(SporelingError, match="begin_step < end_step"):
        PolynomialSparsity(0.0, 0.5, 10, 10)


def test_sparsity_of_counts_exact_zeros():
    assert sparsity_of(np.float32([0, 1, 0, 2])) == 0.5
    assert sparsity_of([np.zeros(3), np.ones(1)]) == 0.75


def test_polynomial_ramp_follows_zhu_and_gupta():
    s = PolynomialSparsity(0.1, 0.8, begin_step=20, end_step=120, frequency=10)
    steps = np.arange(0, 200)
    values = np.array([s(t) for t in steps])
    assert values[:21].tolist() == [0.1] * 21 and (values[120:] == 0.8).all()
    assert (np.diff(values) >= 0).all()                       # never decreases
    t = 70                                                    # halfway: 1 - 0.5^3 of the way
    assert s(t) == pytest.approx(0.8 + (0.1 - 0.8) * 0.5 ** 3)
    assert s(75) == s(70)                                     # held between updates
    assert [t for t in steps if s.updates_at(t)] == list(range(20, 121, 10))
    jumps = np.diff(values[20:121:10])
    assert (np.diff(jumps) <= 1e-12).all()                    # fast first, slow at the end


def test_constant_sparsity_is_one_step():
    s = constant_sparsity(0.6, begin_step=5)
    assert s(0) == s(5) == s(1000) == 0.6 and s.updates_at(5)
