"""MindSpore 2.10's JIT Fallback under ``ms.jit``: a tensor's value read inside the function
(``int(x)``, ``x.asnumpy()``) is Sporeling's value specialisation -- the graph is guarded on
the values read, so other values compile again and never run a stale graph -- and
``print(x)`` prints each call's values in 2.10's Graph-mode format."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core import SporelingError
from sporeling.ms import nn, ops


def test_int_and_float_of_an_input_follow_its_value():
    @ms.jit
    def f(x):
        return int(x), float(x), x * int(x)

    for value in (-1.0, 2.5, -1.0, 7.0):
        x = ms.tensor([value], ms.float32)
        a, b, c = f(x)
        assert (a, b) == (int(value), value)
        np.testing.assert_array_equal(c.asnumpy(), x.asnumpy() * int(value))
    assert f.compile_count == 3  # -1.0, 2.5, 7.0


def test_values_read_through_asnumpy():
    @ms.jit()
    def f(w):
        n = w.asnumpy()
        return len(n), isinstance(n, np.ndarray), getattr(n, "shape", None), \
            w + int(n.max())

    length, is_array, shape, out = f(ms.tensor([1, 2, 3, 4]))
    assert (length, is_array, shape) == (4, True, (4,))
    assert out.asnumpy().tolist() == [5, 6, 7, 8]
    assert f(ms.tensor([1, 9]))[3].asnumpy().tolist() == [10, 18]


def test_a_value_changed_in_place_never_runs_the_stale_graph():
    @ms.jit
    def f(x):
        if int(x.sum()) > 2:  # a Python branch on the value read: specialised
            return x * 10
        return x - 10

    x = ms.tensor([1.0, 2.0], ms.float32)
    assert f(x).asnumpy().tolist() == [10.0, 20.0]
    x.asnumpy()[:] = [0.5, 0.5]
    assert f(x).asnumpy().tolist() == [-9.5, -9.5]
    x.asnumpy()[:] = [1.0, 2.0]
    assert f(x).asnumpy().tolist() == [10.0, 20.0]
    assert f.compile_count == 2


def test_a_parameter_value_is_not_read():
    w = ms.Parameter(ms.tensor([1.0, 2.0], ms.float32), name="w")

    @ms.jit
    def f(x):
        return x * int(w.sum())

    with pytest.raises(SporelingError, match="not known while tracing"):
        f(ms.tensor([1.0], ms.float32))


def test_print_shows_each_call_in_the_graph_mode_format(capsys):
    @ms.jit()
    def test(x, y):
        print(x)
        print(y)
        print("m:", ms.tensor(np.ones((2, 2), np.int32)) * y)
        return x, y

    x = ms.tensor(np.array([1, 2, 3]), ms.int32)
    test(x, ms.tensor(3, ms.int32))
    test(x + 1, ms.tensor(3, ms.int32))
    assert test.compile_count == 1
    assert capsys.readouterr().out == (
        "Tensor(shape=[3], dtype=Int32, value=[1 2 3])\n"
        "Tensor(shape=[], dtype=Int32, value=3)\n"
        "m: Tensor(shape=[2, 2], dtype=Int32, value=\n[[3 3]\n [3 3]])\n"
        "Tensor(shape=[3], dtype=Int32, value=[2 3 4])\n"
        "Tensor(shape=[], dtype=Int32, value=3)\n"
        "m: Tensor(shape=[2, 2], dtype=Int32, value=\n[[3 3]\n [3 3]])\n")


def test_ops_print_in_graph_mode_prints_when_the_graph_runs(capsys):
    class PrintDemo(nn.Cell):
        def __init__(self):
            super().__init__()
            self.print = ops.Print()

        def construct(self, x, y):
            self.print('Print Tensor x and Tensor y:', x, y)
            return x

    x = ms.Tensor(np.ones([2, 1]).astype(np.int32))
    y = ms.Tensor(np.ones([2, 2]).astype(np.int32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = PrintDemo()
        net(x, y)
        net(x * 2, y)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    text = ("Print Tensor x and Tensor y:\nTensor(shape=[2, 1], dtype=Int32, value=\n"
            "[[{0}]\n [{0}]])\nTensor(shape=[2, 2], dtype=Int32, value=\n[[1 1]\n [1 1]])\n")
    assert capsys.readouterr().out == text.format(1) + text.format(2)


def test_a_graph_mode_cell_reads_its_input_values():
    class Net(nn.Cell):
        def construct(self, x):
            return x * len(x.asnumpy()) + int(x[0])

    net = Net()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        a = net(ms.tensor([1.0, 2.0], ms.float32))
        b = net(ms.tensor([3.0, 2.0], ms.float32))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert a.asnumpy().tolist() == [3.0, 5.0]
    assert b.asnumpy().tolist() == [9.0, 7.0]
    assert net.compile_cache_info()["compile_count"] == 2
