"""FreeExtents: best fit, split, coalesce -- the allocator's core structure."""
from sporeling.runtime.memory import FreeExtents


def extents(free):
    return sorted(free)


def test_take_splits_the_leftover():
    free = FreeExtents()
    free.add(0, 0, 1000)
    assert free.take(300) == (0, 0)
    assert extents(free) == [(0, 300, 700)]
    assert free.total == 700


def test_best_fit_picks_the_tightest_extent():
    free = FreeExtents()
    # three separate holes in three blocks: 500, 200, 300
    free.add(0, 0, 500)
    free.add(1, 0, 200)
    free.add(2, 0, 300)
    assert free.take(250) == (2, 0)       # 300 is tightest, not the first or largest
    assert free.take(200) == (1, 0)       # exact fit
    assert free.take(10) == (2, 250)      # the 50-byte leftover of the 300 hole
    assert free.take(600) is None


def test_ties_go_to_the_lowest_block_and_offset():
    free = FreeExtents()
    free.add(3, 128, 64)
    free.add(1, 512, 64)
    free.add(1, 0, 64)
    assert free.take(64) == (1, 0)


def test_freed_neighbours_coalesce_on_both_sides():
    free = FreeExtents()
    free.add(0, 0, 100)
    free.add(0, 200, 100)
    assert len(free) == 2
    free.add(0, 100, 100)                 # fills the gap: one extent
    assert extents(free) == [(0, 0, 300)]
    assert free.largest() == 300 and free.total == 300


def test_extents_of_different_blocks_never_merge():
    free = FreeExtents()
    free.add(0, 0, 100)
    free.add(1, 100, 100)                 # same offsets, other block
    assert len(free) == 2


def test_idle_block_is_whole_and_can_be_dropped():
    free = FreeExtents()
    free.add(0, 0, 64)
    free.add(0, 64, 64)
    assert free.is_whole(0, 128)
    free.drop_block(0, 128)
    assert len(free) == 0 and free.total == 0
