"""MindSpore's PyNative memory pool: blocks, two regions, best fit, coalescing, statistics.

* Memory comes in blocks of ``block_size`` bytes, but never more than half the cap, so that
  each region can open a block under it (MindSpore likewise keeps room for its persistent
  memory when it sizes blocks); a request larger than a block gets a block of its own,
  rounded up to ``min(block size, 2 MB)``. The pool grows a block at a time while its
  reserved bytes stay within ``max_memory``: when a block would pass the cap, idle blocks
  (nothing allocated in them, either region) are released first, then the new block is
  shrunk to what the cap leaves if that still serves the request, otherwise
  :class:`OutOfMemoryError`. Memory the operating system refuses (``mmap`` failing) is an
  :class:`OutOfMemoryError` too, with the same statistics.
* Lowering the cap (:meth:`MemoryPool.set_max_memory`, or ``set_context(max_device_memory=
  ...)`` for pools that follow the context) releases idle blocks; if live buffers still
  hold more than the new cap, the change is refused with what they hold.
* Two regions with their own blocks: **persistent** (parameters, constants, graph inputs
  and outputs) and **common** (op outputs), so long-lived buffers do not fragment the
  churn of activations.
* A persistent request that finds no free extent in its region retries in the common
  region's free extents before growing -- MindSpore's ``FindMemBufByStatus`` does the same,
  and also only once the persistent region has a block (so the first parameter opens a
  persistent block). The buffer then lives in, and is counted in, the common region;
  ``stats().fallbacks`` counts these. A common request never uses persistent memory.
* A buffer whose last view dies is queued and accounted at the pool's next allocation or
  statistics read (under the lock those take anyway); every reading of the counters
  drains the queue first, so they are exact whenever they are seen. With poison on, or a
  memory listener, the free is accounted (and the bytes poisoned) at once.
* Sizes are rounded up to ``alignment`` (64 bytes: a cache line, AVX-512 loads).
* A freed extent first goes to a cache keyed by (region, exact size), from which the next
  request of that size is served without a search -- in a training loop nearly every
  request repeats one of the previous step. The cached record (:class:`Extent`) is the one
  the buffer had, reused as is: a cache hit builds nothing but the array. The cache is
  flushed into the free extents (coalescing) whenever a request misses it, and before
  statistics are read, so best fit, coalescing and the reported fragmentation are those of
  a pool without a cache.

Buffers are NumPy arrays; they return to the pool when their last view dies, or at
:meth:`MemoryPool.free` (MindSpore frees when a tensor's user count reaches zero).

    >>> import numpy as np
    >>> pool = MemoryPool(block_size="1MB")
    >>> w = pool.allocate((256, 256), np.float32, persistent=True)
    >>> x = pool.allocate((64, 256), np.float32)
    >>> pool.stats().in_use == w.nbytes + x.nbytes
    True
    >>> del x                       # the last reference goes: back to the pool
    >>> pool.stats().regions["common"].in_use
    0
"""
from __future__ import annotations

import collections
import itertools
import math
import threading
import weakref
from typing import NamedTuple

import numpy as np

from sporeling.core import OutOfMemoryError, format_size, get_context
# the list context_version() reads: a subscript where a call would be, on every free
from sporeling.core.context import _version as _CONTEXT_VERSION

from ..errors import PoolError
from ..events import memory_changed, memory_listeners as _memory_listeners
from .block import Block, round_up
from .buffer import BufferOwner, owner_of
from .options import block_size as _check_block_size, max_memory as _check_max_memory
from .region import Region
from .stats import PoolStats, fragmentation

__all__ = ["MemoryPool", "Extent", "POISON_BYTE", "fit_context_followers"]

_ndarray = np.ndarray
_new_array = np.ndarray.__new__

POISON_BYTE = 0xFF
"""Freed memory's fill in poison mode: all-ones bytes are NaN in float16/bfloat16/32/64."""
_LARGE_GRANULE = 2 * 1024**2
# Pools whose cap is the ``max_device_memory`` context key: set_context checks a lower cap
# against each of them before accepting it.
_FOLLOWERS: weakref.WeakSet = weakref.WeakSet()


class Extent(NamedTuple):
    """Where one allocation's bytes are: made when an extent is carved from a region's free
    extents, kept by the buffer's owner while it lives and by the pool's cache after, until
    the cache is flushed. ``key`` is the cache's (``size``, negated in the persistent
    region); ``raw`` and ``start`` are what the owner array is built over."""
    region: Region
    block: Block
    offset: int
    size: int
    key: int
    raw: object
    start: int


def fit_context_followers(cap: int) -> None:
    """Make every pool that follows ``max_device_memory`` fit under ``cap`` (the key's
    converter calls this): idle blocks are released; :class:`PoolError` if live buffers
    hold more."""
    for pool in list(_FOLLOWERS):
        pool.fit_under(cap)


class MemoryPool:
    """A best-fit pool of NumPy buffers.

    ``block_size``, ``max_memory`` and ``poison`` left as ``None`` follow the context keys
    ``mempool_block_size``, ``max_device_memory`` and ``mempool_poison``, read each time
    the pool grows (or frees); given values are fixed for this pool. Thread-safe.
    ``allocator``: where the blocks' memory comes from (see :class:`.block.Block`; MindSpore's
    ``PluggableAllocator``); None: anonymous memory maps.
    """

    def __init__(self, block_size: int | str | None = None, max_memory: int | str | None = None,
                 *, alignment: int = 64, poison: bool | None = None, name: str = "pool",
                 allocator=None):
        if alignment <= 0 or alignment & (alignment - 1):
            raise PoolError("bad alignment", expected="a power of two", got=alignment)
        self.name, self.alignment, self._poison = name, alignment, poison
        self._allocator = allocator  # where blocks come from (None: anonymous mmaps)
        self._block_size = None if block_size is None else _check_block_size(block_size)
        self._max_memory = None if max_memory is None else _check_max_memory(max_memory)
        self._regions = {"persistent": Region("persistent"), "common": Region("common")}
        self._block_ids = itertools.count()
        self._in_use = self._peak = self._fallbacks = 0
        self._peak_reserved = 0  # the most bytes of blocks held at once
        # Finalizers may fire inside pool code (a GC pass during an allocation), so they only
        # queue their id; whoever holds the lock drains the queue.
        self._lock = threading.Lock()
        self._pending: collections.deque[Extent] = collections.deque()
        # Frees queued by owners' __del__ when no poison is due (see .buffer): accounted at
        # the next allocation (which may take the last one straight back) or read.
        self._freed: collections.deque[Extent] = collections.deque()
        self._cache: dict[int, list[Extent]] = {}  # Extent.key -> freed extents
        self._poison_version, self._poison_flag = -1, False
        # the context version under which this pool's frees need no poison, so that an
        # owner's __del__ may just queue its extent (see .buffer); -1: ask _release
        self._quiet_version = -1
        if self._max_memory is None:
            _FOLLOWERS.add(self)

    @property
    def block_size(self) -> int:
        return self._block_size or get_context("mempool_block_size")

    @property
    def max_memory(self) -> int:
        return self._max_memory or get_context("max_device_memory")

    @property
    def poison(self) -> bool:
        return get_context("mempool_poison") if self._poison is None else self._poison

    def allocate(self, shape, dtype=np.float32, *, persistent: bool = False) -> np.ndarray:
        """An uninitialised C-contiguous array of ``shape``/``dtype`` in pool memory."""
        if type(shape) is not tuple:
            shape = (shape,) if isinstance(shape, int) else tuple(map(int, shape))
        if not isinstance(dtype, np.dtype):
            dtype = np.dtype(dtype)
        count = math.prod(shape)
        if count < 0:  # a negative size would take a zero-byte extent: refuse it here
            raise PoolError("cannot allocate a negative size", op="allocate",
                            expected="dimensions >= 0", got=shape)
        size = -(-(count * dtype.itemsize or 1) // self.alignment) * self.alignment
        key = -size if persistent else size
        lock = self._lock
        lock.acquire()  # not `with`: half the cost on this path
        try:
            if self._pending:
                self._drain()
            freed = self._freed
            extent = freed.pop() if freed else None
            if extent is not None and extent[4] == key:
                # Hand-off: the last buffer freed has this size and region (an op chain's
                # previous result): the free and this allocation cancel out in every
                # counter but the allocation count, and the peak cannot move (in use is
                # what it was before that free).
                extent[0].allocations += 1
                if freed:
                    self._drain()
                if _memory_listeners:
                    memory_changed(self, -size, self._in_use - size, self._peak)
            else:
                if extent is not None:
                    self._return(extent)
                if freed:
                    self._drain()
                cached = self._cache.get(key)
                if cached:  # Region.claim, inlined
                    extent = cached.pop()
                    region = extent[0]
                    region.in_use += size
                    if region.in_use > region.peak:
                        region.peak = region.in_use
                    region.allocations += 1
                    region.live += 1
                else:
                    # the cached extents are coalesced back (a flush) only when the free
                    # extents cannot serve: a flush on every miss left a step's
                    # allocations missing the cache one after another (91 % of the main
                    # job's went the slow way)
                    extent = self._take(size, persistent)
                    if extent is None:
                        self._flush_cache()
                        extent = self._place(size, persistent)
                self._in_use += size
                if self._in_use > self._peak:
                    self._peak = self._in_use
        finally:
            lock.release()
        try:
            owner = _new_array(BufferOwner, shape, dtype, extent[5], extent[6])
        except BaseException:  # e.g. two negative dimensions: give the bytes back
            self._release(extent)
            raise
        owner.pool = self
        owner.extent = extent
        if _memory_listeners:  # a profiler is on (see runtime.events)
            memory_changed(self, size, self._in_use, self._peak)
        return owner.view(_ndarray)

    def free(self, array: np.ndarray) -> None:
        """Return ``array``'s whole allocation now, whatever views of it still exist.

        For a framework's reference counting; freeing twice, or after the last view died,
        does nothing. Reading a freed buffer is a use-after-free (see ``poison``).
        """
        owner = owner_of(array) if isinstance(array, np.ndarray) else None
        if owner is None or owner.pool is not self:
            raise PoolError("cannot free an array this pool did not allocate", op="free",
                            expected=f"a buffer (or view of one) from pool {self.name!r}",
                            got=f"{type(array).__name__} of shape {np.shape(array)}")
        self._release_owner(owner)

    def owns(self, array: np.ndarray) -> bool:
        """Whether ``array`` views a live allocation of this pool."""
        owner = owner_of(array)
        return owner is not None and owner.pool is self and owner.alive

    def _take(self, size: int, persistent: bool) -> Extent | None:
        """``size`` bytes from the free extents of the request's own region, or None."""
        region = self._regions["persistent" if persistent else "common"]
        hit = region.take(size)
        return None if hit is None else self._extent(region, hit, size)

    def _extent(self, region, hit, size: int) -> Extent:
        block, offset = hit
        return Extent(region, block, offset, size, -size if region.name == "persistent"
                      else size, block.raw, block.start + offset)

    def _place(self, size: int, persistent: bool) -> Extent:
        home = self._regions["persistent" if persistent else "common"]
        hit, region = home.take(size), home
        if hit is None and persistent and home.blocks:
            region = self._regions["common"]
            hit = region.take(size)
            self._fallbacks += hit is not None
        if hit is None:
            region = home
            home.add_block(self._new_block(home.name, size))
            self._peak_reserved = max(self._peak_reserved, self._reserved())
            hit = home.take(size)
        return self._extent(region, hit, size)

    def _new_block(self, region: str, size: int) -> Block:
        cap = self.max_memory
        unit = self._unit(cap)
        want = unit if size <= unit else round_up(size, min(unit, _LARGE_GRANULE))
        left = cap - self._reserved()
        if want > left and self._release_idle():
            left = cap - self._reserved()
        if want > left:
            want = left - left % self.alignment
            if want < size:
                raise self._out_of_memory(size, region)
        try:
            return Block(next(self._block_ids), region, want, alignment=self.alignment,
                         allocator=self._allocator)
        except (OSError, MemoryError, OverflowError) as exc:  # the OS said no (ENOMEM, ...)
            raise self._out_of_memory(size, region, refused=(want, exc)) from exc

    def _unit(self, cap: int) -> int:
        """The block size in effect: at most half the cap, so that the other region can
        open a block too."""
        half = max(cap // 2 - cap // 2 % self.alignment, self.alignment)
        return min(self.block_size, half)

    def _release_idle(self) -> int:
        return sum(r.release_idle_blocks() for r in self._regions.values())

    def _out_of_memory(self, size: int, region: str,
                       refused: tuple[int, BaseException] | None = None) -> OutOfMemoryError:
        s = self._stats_locked()
        why, hint = "", "free buffers sooner, or raise max_device_memory with set_context"
        if refused is not None:
            want, exc = refused
            why = (f"; the operating system refused a block of {format_size(want)} "
                   f"({type(exc).__name__}: {exc})")
            hint = ("the machine has less memory free than max_device_memory allows: free "
                    "memory elsewhere, or lower max_device_memory with set_context")
        error = OutOfMemoryError(
            f"out of memory: requested {format_size(size)} ({size} B) in the {region} region"
            f"{why}; in use {format_size(s.in_use)}, peak {format_size(s.peak)}, reserved "
            f"{format_size(s.reserved)}, cap {format_size(s.cap)}, fragmentation "
            f"{s.fragmentation:.1%} (largest free extent {format_size(s.largest_free)})",
            op="allocate", where=f"memory pool {self.name!r}", hint=hint)
        error.requested, error.stats = size, s
        return error

    def _release(self, extent: Extent) -> None:
        # from BufferOwner.__del__, which took the extent out of its owner. Another thread
        # (or a GC pass inside pool code) may hold the lock: then the extent waits in the
        # queue.
        if not self._lock.acquire(blocking=False):
            self._pending.append(extent)
            return
        try:
            if self._pending:
                self._drain()
            self._return(extent)
        finally:
            self._lock.release()

    def _release_owner(self, owner: BufferOwner) -> None:
        # the explicit free: the owner's extent is taken under the lock, so that of two
        # threads freeing one buffer only one returns it
        with self._lock:
            extent, owner.extent = owner.extent, None
            if extent is not None:
                self._drain()
                self._return(extent)

    def _drain(self) -> None:
        """Account the queued frees (under the lock)."""
        while self._pending:
            self._return(self._pending.popleft())
        while self._freed:
            self._return(self._freed.popleft())

    def _return(self, extent: Extent) -> None:
        region, block, offset, size, key, _, _ = extent
        poison = self._poison
        if poison is None:  # the context key, re-read only when the context changed
            poison = self._poison_flag if self._poison_version == _CONTEXT_VERSION[0] \
                else self._read_poison_key()
        if poison:
            block.fill(offset, size, POISON_BYTE)
        self._quiet_version = -1 if poison else _CONTEXT_VERSION[0]
        region.in_use -= size  # Region.claim's counterpart, inlined
        region.live -= 1
        self._in_use -= size
        if _memory_listeners:
            memory_changed(self, -size, self._in_use, self._peak)
        cached = self._cache.get(key)
        if cached is None:
            self._cache[key] = [extent]
        else:
            cached.append(extent)

    def _read_poison_key(self) -> bool:
        self._poison_flag = get_context("mempool_poison")
        self._poison_version = _CONTEXT_VERSION[0]
        return self._poison_flag

    def _flush_cache(self) -> None:
        """Hand every cached extent to its region's free extents (coalescing them)."""
        if self._cache:
            for extents in self._cache.values():
                for region, block, offset, size, *_ in extents:
                    region.give_back(block, offset, size)
            self._cache.clear()

    def _reserved(self) -> int:
        return sum(r.reserved for r in self._regions.values())

    def _stats_locked(self) -> PoolStats:
        cap = self.max_memory
        regions = {name: r.stats() for name, r in self._regions.items()}
        rs = regions.values()
        return PoolStats(
            self.name, self._in_use, self._peak, self._reserved(),
            sum(r.free for r in rs), max(r.largest_free for r in rs),
            sum(r.blocks for r in rs), sum(r.allocations for r in rs), sum(r.live for r in rs),
            regions=regions, fallbacks=self._fallbacks, block_size=self._unit(cap),
            cap=cap, peak_reserved=max(self._peak_reserved, self._reserved()))

    def stats(self) -> PoolStats:
        """A snapshot of the counters, overall and per region (see :class:`PoolStats`)."""
        with self._lock:
            self._drain()
            self._flush_cache()
            return self._stats_locked()

    def fragmentation(self) -> float:
        """``1 - largest free extent / total free`` over the whole pool (0 if none free)."""
        s = self.stats()
        return fragmentation(s.largest_free, s.free)

    def reset_peak(self) -> None:
        """Start peak tracking again from the current use (overall and per region)."""
        with self._lock:
            self._drain()
            self._peak = self._in_use
            for region in self._regions.values():
                region.reset_peak()

    def reset_peak_reserved(self) -> None:
        """Start the peak of reserved bytes (``stats().peak_reserved``) again from now."""
        with self._lock:
            self._peak_reserved = self._reserved()

    def empty_cache(self) -> int:
        """Release blocks with nothing allocated in them; return the bytes released."""
        with self._lock:
            self._drain()
            self._flush_cache()
            return self._release_idle()

    def set_max_memory(self, max_memory: int | str) -> None:
        """Fix this pool's cap (it stops following ``max_device_memory``). A lower cap
        releases idle blocks first; :class:`PoolError` (and the old cap kept) if live
        buffers still hold more than it."""
        cap = _check_max_memory(max_memory)
        self.fit_under(cap)
        self._max_memory = cap
        _FOLLOWERS.discard(self)

    def fit_under(self, cap: int) -> int:
        """Bring the reserved bytes within ``cap`` by releasing idle blocks (the bytes
        released); :class:`PoolError` naming what is held when live buffers need more."""
        # Unlocked first look: the key's default is converted while options are collected,
        # which can happen inside this pool's lock (a first get_context from _new_block).
        if self._reserved() <= cap:
            return 0
        with self._lock:
            self._drain()
            self._flush_cache()
            released = self._release_idle() if self._reserved() > cap else 0
            if self._reserved() > cap:
                s = self._stats_locked()
                raise PoolError(
                    f"memory pool {self.name!r} cannot fit under a cap of "
                    f"{format_size(cap)}: reserved {format_size(s.reserved)} in {s.blocks} "
                    f"blocks, in use {format_size(s.in_use)} by {s.live} live buffers; free "
                    f"them first (idle blocks were released)", op="max_device_memory",
                    expected=f"a cap of at least {format_size(s.reserved)}",
                    got=format_size(cap))
            return released

    def summary(self) -> str:
        """A table of the statistics per region and overall."""
        return self.stats().summary()

    def __repr__(self) -> str:
        s = self.stats()
        return (f"<MemoryPool {self.name!r} in use {format_size(s.in_use)}, "
                f"reserved {format_size(s.reserved)} in {s.blocks} blocks>")
