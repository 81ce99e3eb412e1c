"""Hypothesis: random allocate/free sequences against a model of the pool, under a cap
that may be small, and lowered on the way."""
import numpy as np
import pytest
from hypothesis import settings, strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition,
                                 rule)

from sporeling.core import OutOfMemoryError
from sporeling.runtime import MemoryPool, PoolError
from sporeling.runtime.memory import owner_of

from runtime_helpers import KB, MB


def aligned(nbytes):
    return -(-max(nbytes, 1) // 64) * 64


class PoolModel(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.live = {}          # key -> (array, fill byte)
        self.keys = 0
        self.peak = 0

    @initialize(cap=st.sampled_from([1536 * KB, 2 * MB, 3 * MB, 5 * MB, 256 * MB]))
    def make_pool(self, cap):
        self.cap = cap
        self.pool = MemoryPool(block_size="1MB", max_memory=cap)

    def in_use(self):
        return sum(aligned(a.nbytes) for a, _ in self.live.values())

    def held(self):
        """Bytes of blocks holding a live buffer: what no release of idle blocks frees."""
        blocks = {id(owner_of(a).extent.block): owner_of(a).extent.block.size
                  for a, _ in self.live.values()}
        return sum(blocks.values())

    @rule(n=st.one_of(st.integers(0, 4 * KB), st.integers(0, 1536 * KB)),
          persistent=st.booleans())
    def allocate(self, n, persistent):
        fits = aligned(n) <= self.cap - self.held()
        try:
            array = self.pool.allocate((n,), np.uint8, persistent=persistent)
        except OutOfMemoryError:
            assert not fits, "refused a request that fits once idle blocks are released"
            return
        fill = self.keys % 251
        array[...] = fill
        self.live[self.keys] = (array, fill)
        self.keys += 1
        self.peak = max(self.peak, self.in_use())

    @precondition(lambda self: self.live)
    @rule(data=st.data(), explicit=st.booleans())
    def release(self, data, explicit):
        key = data.draw(st.sampled_from(sorted(self.live)))
        array, _ = self.live.pop(key)
        if explicit:
            self.pool.free(array[1:] if array.size > 1 else array)

    @rule()
    def reset_peak(self):
        self.pool.reset_peak()
        self.peak = self.in_use()

    @rule()
    def empty_cache(self):
        self.pool.empty_cache()

    @rule(cap=st.sampled_from([MB, 1536 * KB, 2 * MB, 3 * MB, 5 * MB]))
    def lower_cap(self, cap):
        if self.held() > cap:
            with pytest.raises(PoolError, match="cannot fit under a cap"):
                self.pool.set_max_memory(cap)
        else:
            self.pool.set_max_memory(cap)
            self.cap = cap
        assert self.pool.max_memory == self.cap

    @invariant()
    def live_buffers_never_overlap_and_keep_their_contents(self):
        spans = sorted((a.ctypes.data, a.ctypes.data + a.nbytes) for a, _ in self.live.values()
                       if a.nbytes)
        for (_, end), (start, _) in zip(spans, spans[1:]):
            assert end <= start
        for array, fill in self.live.values():
            assert (array == fill).all()

    @invariant()
    def statistics_match_the_model(self):
        s = self.pool.stats()
        assert s.in_use == self.in_use()
        assert s.peak == self.peak >= s.in_use
        assert s.live == len(self.live)
        assert s.reserved == sum(b.size for r in self.pool._regions.values()
                                 for b in r.blocks.values())
        assert s.free == s.reserved - s.in_use
        assert s.in_use <= s.reserved <= self.cap == s.cap
        assert sum(r.in_use for r in s.regions.values()) == s.in_use
        assert sum(r.reserved for r in s.regions.values()) == s.reserved
        assert 0.0 <= s.fragmentation < 1.0
        assert s.largest_free <= s.free


PoolModel.TestCase.settings = settings(max_examples=80, stateful_step_count=30,
                                       deadline=None)
TestPoolModel = PoolModel.TestCase
