"""``ms.ops.MultitypeFuncGraph``, ``HyperMap`` and ``Map`` (MindSpore's composite builders),
eagerly and inside ``jit``."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms.ops import composite as C

add = C.MultitypeFuncGraph("add")


@add.register("Number", "Number")
def _add_numbers(x, y):
    return x + y


@add.register("Tensor", "Tensor")
def _add_tensors(x, y):
    return ms.ops.add(x, y)


def test_multitype_func_graph_dispatches_on_types():
    t = ms.Tensor(np.arange(3, dtype=np.float32))
    assert add(2, 3) == 5
    assert np.array_equal(add(t, t).asnumpy(), [0, 2, 4])
    with pytest.raises(TypeError, match="does not support"):
        add("a", "b")
    with pytest.raises(ValueError):
        add.register("Matrix")


def test_hyper_map_keeps_the_nesting_and_map_goes_one_level():
    t = ms.Tensor(np.ones(2, np.float32))
    out = ms.ops.HyperMap()(add, (1, [t, 2]), (3, [t, 4]))
    assert out[0] == 4 and isinstance(out[1], list) and out[1][1] == 6
    assert np.array_equal(out[1][0].asnumpy(), [2, 2])
    calls = []
    ms.ops.HyperMap(lambda x: calls.append(x) or x, reverse=True)((1, 2, 3))
    assert calls == [3, 2, 1]
    assert ms.ops.Map()(lambda a, b: (a, b), [1, 2], [3, 4]) == [(1, 3), (2, 4)]
    with pytest.raises(ValueError):
        ms.ops.HyperMap()(add, (1, 2), (1,))


def test_hyper_map_compiles_inside_jit():
    square_all = ms.ops.HyperMap(ms.ops.square)

    @ms.jit
    def f(x, y):
        return square_all((x, (y,)))

    a, (b,) = f(ms.Tensor(np.array([2.0], np.float32)), ms.Tensor(np.array([3.0], np.float32)))
    assert a.asnumpy().tolist() == [4.0] and b.asnumpy().tolist() == [9.0]
