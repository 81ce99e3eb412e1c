"""The runtime's observation points (sporeling.runtime.events) that the profiler listens to:
eager kernels, Graph-mode program instructions, pool allocations and frees."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler import ops
from sporeling.core import SporelingError
from sporeling.runtime import events, get_backend
from sporeling.runtime.executor import BufferSpec, Instruction, Program, run
from sporeling.runtime.memory import MemoryPool


@pytest.fixture
def kernels():
    seen = []

    def on_kernel(name, start, end, program):
        seen.append((name, start, end, program))
    events.add_kernel_listener(on_kernel)
    yield seen
    events.remove_kernel_listener(on_kernel)


def test_an_eager_kernel_is_reported_with_its_times(kernels):
    x = np.ones((4, 4), np.float32)
    y = ops.tanh(ops.matmul(x, x))
    assert [k[0] for k in kernels] == ["matmul", "tanh"]
    assert all(end >= start and program is None for _, start, end, program in kernels)
    assert kernels[0][2] <= kernels[1][1]  # in order, not overlapping
    np.testing.assert_allclose(y, np.tanh(np.full((4, 4), 4.0)), rtol=1e-6)


def test_nothing_is_reported_once_the_listener_is_gone():
    seen = []
    listener = lambda *a: seen.append(a)  # noqa: E731
    events.add_kernel_listener(listener)
    ops.exp(np.ones(2, np.float32))
    events.remove_kernel_listener(listener)
    events.remove_kernel_listener(listener)  # twice: nothing happens
    ops.exp(np.ones(2, np.float32))
    assert len(seen) == 1 and events.kernel_listeners == []


def _program(axis=0):
    cpu = get_backend("CPU")
    return Program([Instruction(cpu.kernel("mul"), (0, 2), (1,), out=BufferSpec(0, (2,), "f4"),
                                name="mul"),
                    Instruction(cpu.kernel("sum"), (1,), (3,), {"axis": axis}, name="sum")],
                   num_slots=4, input_slots=(0,), output_slots=(3,),
                   constants={2: np.float32(3)}, arena_bytes=64, backend=cpu, name="prog")


def test_a_program_reports_each_instruction_only_while_someone_listens():
    p = _program()
    x = np.array([1, 2], np.float32)
    assert float(run(p, [x])[0]) == 9.0  # built and run untimed
    seen = []
    listener = lambda *a: seen.append(a)  # noqa: E731
    events.add_kernel_listener(listener)
    try:
        assert float(run(p, [x])[0]) == 9.0  # the timed twin, same result
    finally:
        events.remove_kernel_listener(listener)
    assert [(name, program) for name, _, _, program in seen] == [("mul", "prog"),
                                                                  ("sum", "prog")]
    run(p, [x])
    assert len(seen) == 2


def test_a_failing_instruction_of_a_timed_program_is_still_named(kernels):
    x = np.ones(2, np.float32)
    with pytest.raises(SporelingError, match=r"instruction 1 \(sum\)"):
        run(_program(axis=3), [x])  # the second instruction fails: its line is found
    assert [k[0] for k in kernels] == ["mul"]


def test_graph_mode_kernels_name_their_program(kernels, mlp_step):
    step, _ = mlp_step
    step(sx.GRAPH_MODE)
    kernels.clear()
    step(sx.GRAPH_MODE)
    programs = {program for *_, program in kernels}
    assert programs == {"TrainOneStepCell.construct"}
    # 2 forward, 2 weight gradients, 1 input gradient (the first layer's is dead code)
    assert sum(name == "matmul" for name, *_ in kernels) == 5


def test_the_pool_reports_allocations_and_frees_with_its_counters():
    pool = MemoryPool(block_size="1MB")
    seen = []
    listener = lambda *a: seen.append(a)  # noqa: E731
    events.add_memory_listener(listener)
    try:
        a = pool.allocate((16,), np.float32)
        b = pool.allocate((32,), np.float32)
        del a
        pool.free(b)
    finally:
        events.remove_memory_listener(listener)
    assert [(p is pool, d) for p, d, _, _ in seen] == [(True, 64), (True, 128), (True, -64),
                                                        (True, -128)]
    assert [(u, pk) for _, _, u, pk in seen] == [(64, 64), (192, 192), (128, 192), (0, 192)]
    assert pool.stats().in_use == 0
