"""The executor: programs of kernel calls over slots and a planned arena.

``python test_executor_run.py`` measures the executor's own cost per instruction."""
import numpy as np
import pytest

from sporeling.core import ShapeError

from sporeling.runtime import NumpyBackend, get_backend
from sporeling.runtime.executor import (BufferSpec, ExecutionError, Instruction, Program,
                                        ProgramError, build, run)
from sporeling.runtime.memory import MemoryPool

CPU = get_backend("CPU")
K = CPU.kernel


def test_constants_arena_outputs_and_multiple_results():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    spec = BufferSpec(0, (2, 3), np.float32)
    p = Program([
        Instruction(K("mul"), (0, 1), (2,), out=spec, name="mul"),
        Instruction(K("exp"), (2,), (3,), out=spec, name="exp"),        # over mul's buffer
        Instruction(K("split"), (3,), (4, 5), {"indices": (1,), "axis": 0},
                    multiple_results=True),
        Instruction(K("sum"), (4,), (6,), {"axis": None}),
    ], num_slots=7, input_slots=(0,), output_slots=(6, 5, 0, 1),
        constants={1: np.float32(0.5)}, arena_bytes=64, backend=CPU, name="demo")
    y = np.exp(x * np.float32(0.5))
    for _ in range(2):
        total, rest, same, half = run(p, [x])
        assert total == pytest.approx(y[0].sum()) and same is x and half == 0.5
        np.testing.assert_array_equal(rest, y[1:])


def test_a_bound_kernel_is_called_without_its_params():
    # a backend's kernel prepared for one call (params bound into it): the params stay on
    # the instruction for reports, the call passes none
    calls = []

    def prepared(backend, x, out=None):
        calls.append(out)
        return x * 2

    p = Program([Instruction(prepared, (0,), (1,), {"axis": 0}, bound=True, name="sum")],
                num_slots=2, input_slots=(0,), output_slots=(1,))
    (y,) = run(p, [np.ones(3)])
    np.testing.assert_array_equal(y, [2, 2, 2])
    assert calls == [None] and p.instructions[0].params == {"axis": 0}


def test_a_single_result_of_a_multiple_result_kernel_is_unpacked():
    p = Program([Instruction(K("split"), (0,), (1,), {"indices": (), "axis": 0},
                             multiple_results=True)],
                num_slots=2, input_slots=(0,), output_slots=(1,))
    (part,) = run(p, [np.ones(3)])
    np.testing.assert_array_equal(part, np.ones(3))


def test_a_slot_is_dropped_after_its_last_reader():
    pool = MemoryPool(block_size="1MB")
    cpu = NumpyBackend(pool=pool)
    seen = []

    def probe(backend, x, out=None):
        seen.append(pool.stats().in_use)
        return x

    big = 64 * 1024 * 4  # bytes of the temporary
    p = Program([Instruction(K("exp"), (0,), (1,)),         # 256 KiB from the pool
                 Instruction(K("sum"), (1,), (2,), {"axis": None}),
                 Instruction(probe, (2,), (3,))],
                num_slots=4, input_slots=(0,), output_slots=(3,), backend=cpu)
    run(p, [np.zeros(64 * 1024, np.float32)])
    assert seen[0] < big   # exp's result went back once sum had read it


def test_a_failing_kernel_names_the_instruction_its_source_and_operands():
    def broken(backend, x, y, out=None):
        raise IndexError("index 7 is out of bounds")

    p = Program([Instruction(K("exp"), (0,), (1,), name="exp"),
                 Instruction(broken, (1, 0), (2,), name="gather", where="model.py:7")],
                num_slots=3, input_slots=(0,), output_slots=(2,))
    with pytest.raises(ExecutionError) as info:
        run(p, [np.ones((2, 3), np.float32)])
    text = str(info.value)
    assert "gather" in text and "model.py:7" in text and "float32[2, 3]" in text
    assert "index 7" in text and isinstance(info.value.__cause__, IndexError)


def test_a_kernel_error_of_ours_keeps_its_type_and_gains_the_source_line():
    p = Program([Instruction(K("matmul"), (0, 0), (1,), name="matmul", where="model.py:9")],
                num_slots=2, input_slots=(0,), output_slots=(1,))
    with pytest.raises(ShapeError, match="inner dimensions.*model.py:9"):
        run(p, [np.ones((2, 3), np.float32)])


def test_wrong_number_of_inputs():
    p = Program([], num_slots=1, input_slots=(0,), output_slots=(0,))
    with pytest.raises(ExecutionError, match="inputs"):
        run(p, [1, 2])
    assert run(p, [5]) == [5]


@pytest.mark.parametrize("bad, match", [
    (dict(instructions=[Instruction(K("exp"), (1,), (2,))]), "read before"),
    (dict(instructions=[Instruction(K("exp"), (0,), (0,))]), "written twice"),
    (dict(instructions=[Instruction(K("exp"), (0,), (1,), out=BufferSpec(0, (32,), "f4"))],
          arena_bytes=64), "outside the arena"),
    (dict(instructions=[Instruction(K("exp"), (0,), (1,), {"out": 1})]), "parameter"),
    # a keyword would be a SyntaxError in the generated code
    (dict(instructions=[Instruction(K("exp"), (0,), (1,), {"lambda": 1})]), "parameter"),
    (dict(output_slots=(2,)), "never written"),
])
def test_malformed_programs_are_rejected(bad, match):
    fields = dict(instructions=[], num_slots=3, input_slots=(0,), output_slots=(0,))
    with pytest.raises(ProgramError, match=match):
        build(Program(**{**fields, **bad}))


def test_the_arena_is_one_pool_allocation_held_by_the_program():
    pool = MemoryPool(block_size="1MB")
    cpu = NumpyBackend(pool=pool)
    p = Program([Instruction(K("neg"), (0,), (1,), out=BufferSpec(64, (4,), "f8")),
                 Instruction(K("sum"), (1,), (2,), {"axis": None})],
                num_slots=3, input_slots=(0,), output_slots=(2,), arena_bytes=128,
                backend=cpu)
    assert run(p, [np.ones(4)]) == [-4.0]
    stats = pool.stats()
    assert stats.live == 1 and stats.in_use == 128     # the arena; sum's result is gone
    del p
    import gc
    gc.collect()
    assert pool.stats().in_use == 0


def test_a_call_while_the_program_runs_gets_an_arena_of_its_own():
    program, depth = None, []

    def reenter(backend, y, out=None):
        if not depth:  # the outer call: run the program again while y sits in the arena
            depth.append(1)
            np.testing.assert_array_equal(run(program, [np.full(4, 5.0)])[0], -25.0)
        return np.sum(y)

    spec = BufferSpec(0, (4,), "f8")
    program = Program([Instruction(K("neg"), (0,), (1,), out=spec),
                       Instruction(reenter, (1,), (2,)),
                       Instruction(K("add"), (1, 2), (3,))],
                      num_slots=4, input_slots=(0,), output_slots=(3,), arena_bytes=64)
    np.testing.assert_array_equal(run(program, [np.ones(4)])[0], np.full(4, -5.0))


def overhead_per_instruction(n: int = 2000, repeat: int = 20) -> dict:
    """µs per instruction: the executor alone (a kernel doing nothing) and a 1-element add
    (executor + kernel) against calling the same kernel in a Python loop."""
    import time

    def nothing(backend, x, out=None):
        return x

    def timed(fn):
        best = float("inf")
        for _ in range(repeat):
            t = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t)
        return best / n * 1e6

    x = np.zeros(1, np.float32)
    chain = [Instruction(nothing, (i,), (i + 1,)) for i in range(n)]
    empty = Program(chain, n + 1, (0,), (n,))
    adds = Program([Instruction(K("add"), (i, i), (i + 1,), out=BufferSpec(64 * (i % 2), (1,),
                                                                        "f4"))
                    for i in range(n)], n + 1, (0,), (n,), arena_bytes=128)
    build(empty), build(adds)
    add = K("add")

    def loop():
        y = x
        for _ in range(n):
            y = add(CPU, y, y)
    return {"executor only": timed(lambda: run(empty, [x])),
            "planned add": timed(lambda: run(adds, [x])),
            "add kernel in a Python loop": timed(loop)}


if __name__ == "__main__":
    for what, us in overhead_per_instruction().items():
        print(f"{what:>28}: {us:.3f} µs per instruction")
