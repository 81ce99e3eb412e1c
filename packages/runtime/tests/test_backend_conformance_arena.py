"""The executor takes planned buffers from the backend (``arena_view``), not by slicing a
NumPy array itself: a device backend's arena is its own kind of memory."""
import numpy as np

from sporeling.runtime import NumpyBackend, get_backend
from sporeling.runtime.executor import BufferSpec, Instruction, Program, run


class CountingViews(NumpyBackend):
    name, device_target = "counting_views", "CPU"

    def __init__(self):
        super().__init__()
        self.views = []

    def arena_view(self, arena, offset, shape, dtype):
        self.views.append((offset, tuple(shape), np.dtype(dtype)))
        return super().arena_view(arena, offset, shape, dtype)


def test_the_executor_asks_the_backend_for_each_planned_buffer():
    backend = CountingViews()
    cpu = get_backend("numpy")
    p = Program([Instruction(cpu.kernel("exp"), (0,), (1,), out=BufferSpec(0, (2,), "f4")),
                 Instruction(cpu.kernel("neg"), (1,), (2,), out=BufferSpec(64, (2,), "f4"))],
                num_slots=3, input_slots=(0,), output_slots=(2,), arena_bytes=128,
                backend=backend)
    out = run(p, [np.zeros(2, np.float32)])[0]
    np.testing.assert_array_equal(out, [-1.0, -1.0])
    assert backend.views == [(0, (2,), np.dtype("f4")), (64, (2,), np.dtype("f4"))]


def test_numpys_arena_view_is_a_view_of_the_arena_bytes():
    cpu = get_backend("numpy")
    arena = cpu.allocate((128,), np.uint8)
    v = cpu.arena_view(arena, 64, (2, 3), "f4")
    assert v.shape == (2, 3) and v.dtype == np.float32 and np.shares_memory(v, arena)
    v[...] = 1.0
    assert arena[64:88].view(np.float32).tolist() == [1.0] * 6
