"""Samplers: order, replacement, sharding, weights, subsets."""
import numpy as np
import pytest

import sporeling.data as sd
from sporeling.data import DataError


def test_sequential_and_random():
    assert sd.SequentialSampler(2, 3).indices(10, 0).tolist() == [2, 3, 4]
    r = sd.RandomSampler(seed=1)
    a, b = r.indices(10, 0), r.indices(10, 1)
    assert sorted(a.tolist()) == list(range(10)) and a.tolist() != b.tolist()
    assert r.indices(10, 0).tolist() == a.tolist()
    w = sd.RandomSampler(replacement=True, num_samples=50, seed=1).indices(5, 0)
    assert len(w) == 50 and set(w.tolist()) <= set(range(5)) and len(set(w.tolist())) < 50


@pytest.mark.parametrize("n", [12, 13, 17])
def test_distributed_shards_partition_each_epoch(n):
    k = 4
    for epoch in range(3):
        parts = [sd.DistributedSampler(k, i, seed=7).indices(n, epoch) for i in range(k)]
        assert len({len(p) for p in parts}) == 1            # equal sizes
        flat = np.concatenate(parts).tolist()
        assert set(flat) == set(range(n))                   # every sample somewhere
        assert len(flat) - len(set(flat)) == (-n) % k       # only the padding repeats
    dropped = [sd.DistributedSampler(k, i, seed=7, drop_remainder=True).indices(n, 0)
               for i in range(k)]
    flat = np.concatenate(dropped).tolist()
    assert len(flat) == len(set(flat)) == n - n % k
    with pytest.raises(DataError, match="shard_id"):
        sd.DistributedSampler(2, 2)


def test_distributed_through_a_source():
    parts = [sd.NumpySlicesDataset(np.arange(10), num_shards=2, shard_id=i) for i in range(2)]
    got = [sorted(int(r[0]) for r in p) for p in parts]
    assert sorted(got[0] + got[1]) == list(range(10))
    assert parts[0].get_dataset_size() == 5


def test_weighted_and_subsets():
    idx = sd.WeightedRandomSampler([0, 0, 1, 3], num_samples=400, seed=0).indices(4, 0)
    counts = np.bincount(idx, minlength=4)
    assert counts[0] == counts[1] == 0 and 2 < counts[3] / counts[2] < 4.5
    s = sd.SubsetRandomSampler([5, 1, 7], seed=0)
    assert sorted(s.indices(10, 0).tolist()) == [1, 5, 7]
    ds = sd.NumpySlicesDataset(np.arange(10) * 2, sampler=sd.SubsetSampler([3, 1]))
    assert [int(r[0]) for r in ds] == [6, 2]
    with pytest.raises(DataError, match="out of range"):
        list(sd.NumpySlicesDataset(np.arange(3), sampler=sd.SubsetSampler([5])))
    with pytest.raises(DataError, match="either a sampler"):
        sd.NumpySlicesDataset(np.arange(3), sampler=sd.SequentialSampler(), shuffle=True)
