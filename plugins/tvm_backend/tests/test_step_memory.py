"""A native step's temporaries packed by lifetime (step_memory): what is alive at once never
shares bytes, what is not may; inputs and constants stay where they are; a region keeps
its inner offsets and its alignment."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.runtime.executor.capture import NativeCall

from sporeling.tvm_backend.step_memory import StepMemory


def _calls(uses):
    """One call per (instruction, arrays)."""
    return [NativeCall("packed", None, tuple(arrays), instruction=i) for i, arrays in uses]


def _alive(uses, array):
    touched = [i for i, arrays in uses if any(a is array for a in arrays)]
    return min(touched), max(touched)


@settings(max_examples=40, deadline=None)
@given(sizes=st.lists(st.integers(1, 4096), min_size=2, max_size=12), seed=st.integers(0, 99))
def test_arrays_alive_at_once_never_share_bytes(sizes, seed):
    rng = np.random.default_rng(seed)
    arrays = [np.empty(n, np.uint8) for n in sizes]
    uses = []
    for i, a in enumerate(arrays):  # each written at its own step, read by one or two later
        uses.append((i, [a]))
        for j in rng.integers(i, len(arrays) + 2, size=2):
            uses.append((int(j), [a]))
    uses.sort(key=lambda u: u[0])
    memory = StepMemory(_calls(uses), (), (), ())
    placed = [(memory.address(a), memory.address(a) + a.nbytes, *_alive(uses, a))
              for a in arrays]
    for k, (lo, hi, first, last) in enumerate(placed):
        assert memory.block.ctypes.data <= lo and hi <= memory.block.ctypes.data + \
            memory.block.nbytes
        assert lo % 64 == arrays[k].ctypes.data % 64
        for lo2, hi2, first2, last2 in placed[k + 1:]:
            if first <= last2 and first2 <= last:
                assert hi <= lo2 or hi2 <= lo
    assert memory.nbytes <= sum(a.nbytes + 128 for a in arrays)


def test_one_after_another_share_the_same_bytes():
    a, b = np.empty(1000, np.float32), np.empty(1000, np.float32)
    memory = StepMemory(_calls([(0, [a]), (1, [a]), (2, [b]), (3, [b])]), (), (), ())
    lo_a, lo_b = memory.address(a), memory.address(b)
    assert lo_a < lo_b + b.nbytes and lo_b < lo_a + a.nbytes
    assert memory.nbytes <= 4000 + 2 * 64


def test_views_of_one_buffer_move_together_and_outputs_live_to_the_end():
    base = np.empty(256, np.float32)
    head, tail = base[:128], base[128:]
    other = np.empty(256, np.float32)
    memory = StepMemory(_calls([(0, [base]), (1, [head]), (2, [tail]), (3, [other])]), (),
                        (), (tail,))
    assert memory.address(tail) - memory.address(head) == tail.ctypes.data - head.ctypes.data
    lo, hi = memory.address(other), memory.address(other) + other.nbytes
    assert hi <= memory.address(head) or memory.address(tail) + tail.nbytes <= lo
    out = memory.view(tail)
    assert out.shape == tail.shape and np.shares_memory(out, memory.block)


def test_inputs_and_constants_stay_in_place():
    x, c, t = np.empty(100), np.empty(100), np.empty(100)
    memory = StepMemory(_calls([(0, [x, c, t])]), (x,), (c,), ())
    assert memory.address(c) == c.ctypes.data
    assert memory.address(t) != t.ctypes.data


def test_an_instructions_arrays_live_through_all_its_calls():
    """oneDNN: set_data_handle(memory, a), set_data_handle(memory2, c), then the
    primitive's execution reading a and writing c, naming neither: a and c are alive at
    once though no call names both."""
    a, c = np.empty(1000, np.float32), np.empty(1000, np.float32)
    calls = [NativeCall("extern", ("lib", "bind"), (a,), instruction=0),
             NativeCall("extern", ("lib", "bind"), (c,), instruction=0),
             NativeCall("extern", ("lib", "execute"), (), instruction=0)]
    memory = StepMemory(calls, (), (), ())
    lo_a, lo_c = memory.address(a), memory.address(c)
    assert lo_a + a.nbytes <= lo_c or lo_c + c.nbytes <= lo_a
