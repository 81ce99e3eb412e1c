"""Where a native step's temporaries live: one block it owns, packed by lifetime.

The recorded run's kernels wrote into the program's arena and into buffers they allocated
from the pool; the recording held every one of them, so none was reused within it (a
ResNet-20 step at batch 32: 156 MB, where the Python program's buffers go back to the pool
after their last reader). Every memory range the recorded calls touch (but the inputs',
and the program's constants, which keep their place: they are read, never written) is
placed anew in one block: ranges the same calls touch merge into one region, alive from the
first call of the first instruction touching it to the last call of the last one (a
library's memory object is pointed at an array by one call and used by the next ones; an
output lives to the end: it is copied out after), and regions alive at once never overlap
-- placed by the compiler's memory planner (``memplan.pack``), as the arena is. A region
keeps its offset modulo 64 (alignment as recorded). The step then points every call at
the new place: its values are written before they are read within a
step, as they were in the recorded run -- which the step's first run, compared with the
Python program's, confirms.
"""
from __future__ import annotations

import bisect

import numpy as np

from sporeling.compiler.lowering.memplan import Buffer, lower_bound, pack

__all__ = ["StepMemory"]

_ALIGN = 64


def _span(a: np.ndarray) -> tuple[int, int]:
    """The bytes ``[lo, hi)`` array ``a`` covers (its strides may be any)."""
    start = a.ctypes.data
    if a.size == 0:
        return start, start
    lo = start + sum(min(0, s * (n - 1)) for s, n in zip(a.strides, a.shape))
    hi = start + sum(max(0, s * (n - 1)) for s, n in zip(a.strides, a.shape)) + a.itemsize
    return lo, hi


class StepMemory:
    """The new place of every array the recorded ``calls`` pass but ``inputs``'."""

    def __init__(self, calls, inputs, constants, outputs) -> None:
        regions = _regions(calls, inputs, outputs)
        fixed = [_span(c) for c in constants if isinstance(c, np.ndarray)]
        # a region holding a constant stays where it is; the others are packed by lifetime
        # as the compiler's memory planner packs the arena (sizes in whole 64-byte units,
        # so every offset keeps a region's alignment)
        moved = [k for k, (lo, hi, _, _) in enumerate(regions)
                 if not any(f_lo < hi and lo < f_hi for f_lo, f_hi in fixed)]
        buffers = [Buffer([k], -(-(regions[k][1] - regions[k][0] + _ALIGN) // _ALIGN) * _ALIGN,
                          regions[k][2], regions[k][3]) for k in moved]
        offsets, self.nbytes, _ = pack(buffers, lower_bound(buffers, len(calls) + 1))
        raw = np.empty(self.nbytes + _ALIGN, np.uint8)
        self.block = raw[(-raw.ctypes.data) % _ALIGN:]
        base = self.block.ctypes.data
        self._starts = [lo for lo, _, _, _ in regions]
        self._moves = [0] * len(regions)  # per region: new address - old
        for k, off in zip(moved, offsets):
            lo = regions[k][0]
            self._moves[k] = base + off + lo % _ALIGN - lo

    def address(self, array: np.ndarray) -> int:
        """Where ``array``'s first element lives in the step."""
        start = array.ctypes.data
        k = bisect.bisect_right(self._starts, _span(array)[0]) - 1
        return start + (self._moves[k] if k >= 0 else 0)

    def view(self, array: np.ndarray) -> np.ndarray:
        """``array`` as it lies in the step's block (an output, copied out after a step)."""
        move = self.address(array) - array.ctypes.data
        if move == 0:
            return array
        return np.ndarray(array.shape, array.dtype, buffer=self.block,
                          offset=array.ctypes.data + move - self.block.ctypes.data,
                          strides=array.strides)


def _regions(calls, inputs, outputs) -> list[list]:
    """``[lo, hi, first call, last call]`` of each run of bytes the calls touch outside the
    inputs (ranges that overlap merge). An array is alive through every call of its
    instruction: a library's memory object is pointed at it by one call and read or
    written by later ones (oneDNN's set_data_handle, then its primitives' executions); an
    output through the end."""
    inside = [_span(x) for x in inputs]
    spans: dict = {}
    for c, call in enumerate(calls):
        first, last = spans.get(call.instruction, (c, c))
        spans[call.instruction] = (min(first, c), max(last, c))
    touched = [(a, spans[call.instruction]) for call in calls for a in call.args
               if isinstance(a, np.ndarray)]
    touched += [(o, (len(calls), len(calls))) for o in outputs if isinstance(o, np.ndarray)]
    ranges = []
    for a, (first, last) in touched:
        lo, hi = _span(a)
        if not any(s <= lo < e for s, e in inside):
            ranges.append((lo, max(hi, lo + 1), first, last))
    regions: list[list] = []
    for lo, hi, first, last in sorted(ranges):
        if regions and lo < regions[-1][1]:
            r = regions[-1]
            r[1], r[2], r[3] = max(r[1], hi), min(r[2], first), max(r[3], last)
        else:
            regions.append([lo, hi, first, last])
    return regions
