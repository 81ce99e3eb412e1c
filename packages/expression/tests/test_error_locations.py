"""Errors name the user's line and function, in PyNative and Graph mode alike (issue 9,
item 7b): a shape error inside ``construct`` ends with ``file.py:N in Net.construct)``
and keeps its type."""
import inspect

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import DTypeError, ShapeError, SporelingError
from sporeling.expression import nn, ops

MODES = [sx.PYNATIVE_MODE, sx.GRAPH_MODE]


def _line(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def _ends_at(err, fn, text, function):
    where = f"{__file__}:{_line(fn, text)} in {function})"
    message = str(err)
    assert message.endswith(where) or f"{where}." in message, message


def t(*shape, dtype=np.float32):
    return sx.Tensor(np.ones(shape, dtype))


class MatmulNet(nn.Cell):
    def construct(self, a, b):
        y = a + 1.0
        return ops.matmul(y, b)


class BroadcastNet(nn.Cell):
    def construct(self, a, b):
        return a * b


class ReshapeNet(nn.Cell):
    def construct(self, a):
        return a.reshape(7, 2)


class DenseNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 2)

    def construct(self, x):
        h = x * 2.0
        return self.dense(h)          # the library's Dense fails: the user's call is named


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = MatmulNet()

    def construct(self, a, b):
        return self.inner(a, b)


CASES = [
    (MatmulNet, (t(2, 3), t(4, 2)), ShapeError, MatmulNet.construct, "ops.matmul",
     "MatmulNet.construct"),
    (BroadcastNet, (t(2, 3), t(4, 3)), ShapeError, BroadcastNet.construct, "a * b",
     "BroadcastNet.construct"),
    (ReshapeNet, (t(2, 3),), ShapeError, ReshapeNet.construct, "reshape",
     "ReshapeNet.construct"),
    (DenseNet, (t(2, 3),), ShapeError, DenseNet.construct, "self.dense(h)",
     "DenseNet.construct"),
    (Outer, (t(2, 3), t(4, 2)), ShapeError, MatmulNet.construct, "ops.matmul",
     "MatmulNet.construct"),
]


@pytest.mark.parametrize("mode", MODES, ids=["pynative", "graph"])
@pytest.mark.parametrize("cls, args, error, fn, text, function", CASES,
                         ids=[c[0].__name__ for c in CASES])
def test_a_cell_error_ends_with_the_users_line_and_function(mode, cls, args, error, fn,
                                                             text, function):
    net = cls()
    with sx.context(mode=mode):
        with pytest.raises(error) as info:
            net(*args)
    _ends_at(info.value, fn, text, function)


def dtype_mismatch(a, i):
    return ops.matmul(a, i)


def plain_matmul(a, b):
    c = a - 1.0
    return c @ b


@pytest.mark.parametrize("compiled", [False, True], ids=["pynative", "jit"])
def test_a_function_error_names_its_line(compiled):
    f = sx.jit(plain_matmul) if compiled else plain_matmul
    with pytest.raises(ShapeError) as info:
        f(t(2, 3), t(4, 2))
    _ends_at(info.value, plain_matmul, "c @ b", "plain_matmul")


def test_errors_raised_inside_sporeling_never_name_sporeling():
    with pytest.raises((ShapeError, DTypeError)) as info:
        DenseNet()(t(2, 3))
    assert "sporeling/expression/nn" not in str(info.value)


def take(x, i):
    y = x * 2.0
    return ops.gather(y, i, 0)


def test_a_compiled_graph_failing_when_it_runs_names_the_line_and_function():
    f = sx.jit(take)
    f(t(3), sx.Tensor(np.array([1])))                      # compiled, runs
    with pytest.raises(SporelingError) as info:
        f(t(3), sx.Tensor(np.array([5])))                  # the data is out of range
    _ends_at(info.value, take, "ops.gather", "take")
