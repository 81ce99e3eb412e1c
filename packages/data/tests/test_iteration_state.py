"""``state_dict()`` / ``load_state_dict()``: a pipeline rebuilt (with other seeds) and given
a saved state replays the later epochs exactly -- order, batches and augmentations."""
import json

import numpy as np
import pytest

import sporeling.data as sd
from sporeling.core import set_seed
from sporeling.data import DataError


def _pipeline(seed):
    set_seed(seed)

    def jitter(x):
        return x + sd.sample_rng().integers(0, 1000)

    ds = sd.NumpySlicesDataset((np.arange(20),), ["x"], shuffle=True)
    return ds.map(jitter, ["x"]).shuffle(6).batch(4)


def _epoch(ds):
    return [batch[0].tolist() for batch in ds]


@pytest.mark.parametrize("epochs_before", [0, 1, 3])
def test_a_rebuilt_pipeline_replays_the_later_epochs(epochs_before):
    ds = _pipeline(1)
    for _ in range(epochs_before):
        _epoch(ds)
    state = json.loads(json.dumps(ds.state_dict()))  # JSON-able: it goes into a backup
    want = [_epoch(ds) for _ in range(2)]
    again = _pipeline(2)  # other seeds: without the state it would differ
    assert _epoch(_pipeline(2)) != _epoch(_pipeline(1))
    again.load_state_dict(state)
    assert [_epoch(again) for _ in range(2)] == want


def test_the_state_names_the_epoch_and_every_random_operation():
    ds = _pipeline(1)
    _epoch(ds)
    state = ds.state_dict()
    assert state["epoch"] == 1
    assert [name for name, _ in state["seeds"]] == ["Shuffle", "Map", "RandomSampler"]


def test_a_different_pipeline_is_refused():
    state = _pipeline(1).state_dict()
    other = sd.NumpySlicesDataset((np.arange(20),), ["x"], shuffle=True).batch(4)
    with pytest.raises(DataError, match="the pipeline differs from the one whose state"):
        other.load_state_dict(state)
    with pytest.raises(DataError, match="bad iteration state"):
        other.load_state_dict({"epoch": 1})
