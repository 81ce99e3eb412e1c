import numpy as np
import pytest

from sporeling.core import SporelingError, generator, get_seed, set_seed


def test_same_seed_same_numbers_and_streams_independent():
    set_seed(3)
    a, b = generator("ops").random(4), generator("data").random(4)
    set_seed(3)
    generator("data").random(100)  # drawing from one stream does not shift another
    assert np.array_equal(generator("ops").random(4), a) and not np.array_equal(a, b)
    assert get_seed() == 3


def test_different_seeds_differ():
    set_seed(1)
    a = generator("ops").random(4)
    set_seed(2)
    assert not np.array_equal(generator("ops").random(4), a)


@pytest.mark.parametrize("bad", [-1, 1.5, "7", True])
def test_bad_seed(bad):
    with pytest.raises(SporelingError, match="set_seed: bad seed; expected an int >= 0"):
        set_seed(bad)
