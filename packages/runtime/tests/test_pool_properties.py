"""Hypothesis: random allocate/free sequences against a model of the pool."""
import numpy as np
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from sporeling.runtime import MemoryPool

from runtime_helpers import KB, MB


def aligned(nbytes):
    return -(-max(nbytes, 1) // 64) * 64


class PoolModel(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.pool = MemoryPool(block_size="1MB", max_memory="256MB")
        self.live = {}          # key -> (array, fill byte)
        self.keys = 0
        self.peak = 0

    def in_use(self):
        return sum(aligned(a.nbytes) for a, _ in self.live.values())

    @rule(n=st.one_of(st.integers(0, 4 * KB), st.integers(0, 1536 * KB)),
          persistent=st.booleans())
    def allocate(self, n, persistent):
        array = self.pool.allocate((n,), np.uint8, persistent=persistent)
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
        assert s.reserved >= s.in_use and s.reserved <= 256 * MB
        assert sum(r.in_use for r in s.regions.values()) == s.in_use
        assert sum(r.reserved for r in s.regions.values()) == s.reserved
        assert 0.0 <= s.fragmentation < 1.0
        assert s.largest_free <= s.free


PoolModel.TestCase.settings = settings(max_examples=40, stateful_step_count=30,
                                       deadline=None)
TestPoolModel = PoolModel.TestCase
