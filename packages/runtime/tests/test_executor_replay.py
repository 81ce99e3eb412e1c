"""Whole programs as one native step (executor.capture, executor.replay), with a backend
whose "native" step replays the recorded calls in Python: what is recorded, when a program
is replayed and when it runs in Python instead."""
import logging

import numpy as np
import pytest

from sporeling.runtime import NumpyBackend, get_backend
from sporeling.runtime.events import add_kernel_listener, remove_kernel_listener
from sporeling.runtime.executor import Instruction, Program, run
from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING
from sporeling.runtime.executor.replay import RECORD_AT, describe


NUMPY = get_backend("numpy")


def _scale_into(x, y):  # a "compiled function": y = 2 x + 1
    np.multiply(x, 2, out=y)
    y += 1


def scale(backend, x, out=None):
    """A native kernel: its work is one recorded call."""
    y = np.empty_like(x) if out is None else out
    if RECORDING:
        capture.packed(_scale_into, (x, y))
        capture.pure()
    _scale_into(x, y)
    return y


def scale_copying(backend, x, out=None):
    """The same, but through a copy of its operand when recording: Python's work."""
    if RECORDING:
        capture.impure("copies its operand")
    return scale(backend, np.array(x), out)


def bump(backend, p, out=None):
    """Adds one to a Parameter's buffer in place."""
    if RECORDING:
        capture.packed(np.add, (p, 1, p))
        capture.pure()
    np.add(p, 1, out=p)
    return p


class FakeNative(NumpyBackend):
    """Replays the recorded calls in Python, an input's array replaced by the call's."""
    name = "fake-native"

    def __init__(self, wrong: bool = False) -> None:
        super().__init__()
        self.made, self.replays, self.wrong = [], 0, wrong

    def kernel(self, primitive):
        return NUMPY.kernel(primitive)

    def kernel_memory(self, primitive):
        return NUMPY.kernel_memory(primitive)

    def native_step(self, program, rec, inputs, outputs):
        self.made.append(rec)
        captured = list(inputs)

        def step(args):
            if any(a.shape != c.shape for a, c in zip(args, captured)):
                return None  # refused: not the recorded layout
            self.replays += 1
            for call in rec.calls:
                swapped = [next((args[k] for k, c in enumerate(captured) if a is c), a)
                           for a in call.args]
                call.target(*swapped)
            if self.wrong:
                outputs[0][...] += 1
            return [next((args[k] for k, c in enumerate(captured) if o is c), None)
                    if any(o is c for c in captured) else np.array(o, copy=True)
                    for o in outputs]
        return step


def _program(backend, kernels=(scale, scale), inputs=1, extra=()):
    """x -> kernels[1](kernels[0](x)), then ``extra`` instructions."""
    ins = [Instruction(kernels[0], (0,), (inputs,), name="a"),
           Instruction(kernels[1], (inputs,), (inputs + 1,), name="b"), *extra]
    last = max(s for i in ins for s in i.outputs)
    return Program(ins, num_slots=last + 1, input_slots=tuple(range(inputs)),
                   output_slots=(inputs + 1,), backend=backend, name="p")


def _expected(x):
    return (2 * x + 1) * 2 + 1


def test_a_program_of_native_kernels_runs_as_one_step_from_its_third_call():
    backend = FakeNative()
    p = _program(backend)
    results = [run(p, [np.full(3, float(i))])[0] for i in range(6)]
    for i, y in enumerate(results):
        np.testing.assert_array_equal(y, _expected(np.full(3, float(i))))
    assert len(backend.made) == 1 and [c.instruction for c in backend.made[0].calls] == [0, 1]
    # call 3 checks the step on copies of its inputs; calls 4, 5, 6 are the step alone
    assert backend.replays == 6 - RECORD_AT
    assert describe(p).startswith("one native function")
    # the step's outputs are fresh arrays, not the buffers it writes every call
    assert not np.shares_memory(results[-1], results[-2])


def test_a_kernel_working_in_python_keeps_the_program_in_python(caplog):
    backend = FakeNative()
    p = _program(backend, kernels=(scale, scale_copying))
    with caplog.at_level(logging.INFO, "sporeling.runtime"):
        for i in range(4):
            np.testing.assert_array_equal(run(p, [np.full(3, i, np.float64)])[0],
                                          _expected(np.full(3, i, np.float64)))
    assert backend.made == [] and backend.replays == 0
    assert describe(p) == "Python (instruction 1 (b) copies its operand)"


def test_a_kernel_saying_nothing_is_taken_for_python_work():
    def silent(backend, x, out=None):  # native work it does not record
        return x * 2
    p = _program(FakeNative(), kernels=(scale, silent))
    for _ in range(3):
        run(p, [np.ones(2)])
    assert describe(p) == "Python (instruction 1 (b) runs in Python)"


def test_views_are_taken_but_not_at_an_index_read_from_a_tensor():
    backend = FakeNative()
    view = backend.kernel("reshape")
    p = _program(backend, kernels=(scale, scale), extra=[
        Instruction(view, (2,), (3,), {"shape": (3, 1)}, name="reshape")])
    p.output_slots = (3,)
    for i in range(4):
        np.testing.assert_array_equal(run(p, [np.full(3, float(i))])[0],
                                      _expected(np.full((3, 1), float(i))))
    assert backend.replays == 4 - RECORD_AT
    # a getitem at a position given by an array is replayed at the recorded position
    backend = FakeNative()
    p = Program([Instruction(scale, (0,), (2,), name="a"),
                 Instruction(backend.kernel("getitem"), (2, 1), (3,),
                             {"key": ("array",)}, name="getitem")],
                num_slots=4, input_slots=(0, 1), output_slots=(3,), backend=backend)
    for i in range(4):
        (y,) = run(p, [np.arange(3.0), np.array(i % 3)])
        assert y == 2 * (i % 3) + 1
    assert describe(p) == "Python (instruction 1 (getitem) runs in Python)"


def test_a_step_differing_from_the_python_run_is_dropped(caplog):
    backend = FakeNative(wrong=True)
    p = _program(backend)
    with caplog.at_level(logging.WARNING, "sporeling.runtime"):
        for i in range(5):
            np.testing.assert_array_equal(run(p, [np.full(3, float(i))])[0],
                                          _expected(np.full(3, float(i))))
    assert "differs from its Python run" in caplog.text
    assert describe(p) == "Python (the native step's results differed from the program's)"


def test_inputs_the_step_refuses_run_in_python():
    backend = FakeNative()
    p = _program(backend)
    for i in range(4):
        run(p, [np.full(3, float(i))])
    replays = backend.replays
    x = np.arange(4.0)  # another shape: the step refuses, the Python program serves
    np.testing.assert_array_equal(run(p, [x])[0], _expected(x))
    assert backend.replays == replays and describe(p).startswith("one native function")


def test_in_place_updates_return_the_callers_buffer():
    backend = FakeNative()
    p = Program([Instruction(bump, (0,), (1,), out=0, name="bump")], num_slots=2,
                input_slots=(0,), output_slots=(1,), backend=backend)
    for i in range(5):
        w = np.full(2, float(i))
        (out,) = run(p, [w])
        assert out is w and np.array_equal(w, [i + 1.0, i + 1.0])
    assert backend.replays == 5 - RECORD_AT


def test_a_profiler_sees_the_python_program():
    backend = FakeNative()
    p = _program(backend)
    for i in range(4):
        run(p, [np.ones(3)])
    seen = []

    def listen(name, start, end, program):
        seen.append(name)
    add_kernel_listener(listen)
    try:
        run(p, [np.ones(3)])
    finally:
        remove_kernel_listener(listen)
    assert seen == ["a", "b"]


def test_a_backend_without_native_steps_never_records():
    p = _program(NumpyBackend())
    for _ in range(4):
        run(p, [np.ones(3)])
    assert describe(p) == "Python (backend 'numpy' makes no native steps)"


def test_recording_is_one_program_at_a_time():
    with capture.Recording():
        with pytest.raises(RuntimeError, match="already being recorded"):
            capture.Recording().__enter__()
    assert not RECORDING
