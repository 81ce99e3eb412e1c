"""The ``sporeling_data_shard`` hook (``HOOKSPECS`` of data's plugin): a plugin -- in practice
sporeling.parallel in data_parallel mode -- tells sources which shard this rank reads."""
import types

import numpy as np
import pytest

import sporeling.data as sd
from sporeling.core import get_plugin_host, impl
from sporeling.data import plugin


@pytest.fixture
def answer():
    """Install a plugin answering ``sporeling_data_shard`` with ``answer[0]``."""
    given = [None]

    @impl
    def sporeling_data_shard():
        return given[0]
    module = types.ModuleType("shard_plugin")
    module.sporeling_data_shard = sporeling_data_shard
    host = get_plugin_host()
    host.pm.register(module, name="shard_plugin")
    try:
        yield given
    finally:
        host.pm.unregister(name="shard_plugin")


def _rows(**kwargs):
    ds = sd.NumpySlicesDataset((np.arange(10),), ["i"], shuffle=False, **kwargs)
    return [int(r[0]) for r in ds]


def test_data_owns_the_shard_hook():
    assert hasattr(plugin.HOOKSPECS, "sporeling_data_shard")
    assert "sporeling_data_shard" in get_plugin_host().hookspecs()


def test_sources_read_the_shard_a_plugin_names(answer):
    assert _rows() == list(range(10))               # no answer: everything
    answer[0] = (3, 1)
    assert _rows() == [1, 4, 7, 0]                  # shard 1 of 3, padded to equal length
    assert sd.NumpySlicesDataset((np.arange(10),), ["i"]).batch(2).get_dataset_size() == 2
    answer[0] = (1, 0)
    assert _rows() == list(range(10))               # one shard: everything


def test_explicit_shards_and_samplers_win_over_the_plugin(answer):
    answer[0] = (2, 1)
    assert _rows(num_shards=5, shard_id=0) == [0, 5]
    assert _rows(sampler=sd.SequentialSampler()) == list(range(10))
