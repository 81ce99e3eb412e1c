"""``jit(specialize_values=True)``: a function that reads its tensor arguments' values while
tracing (``int(x)``, ``x.asnumpy()``) compiles a graph per value read, guarded on those
values -- a call with other values never runs a stale graph -- and gives what PyNative
gives. ``print(x)`` prints each call's values from the compiled graph."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler.ir.trace import TracedValueError
from sporeling.compiler.ops.debug import print_format
from sporeling.expression.graph.tracing import _tensor_text
from sporeling.core import SporelingError


def scale(x):
    return x * int(x.sum())


def test_graph_equals_pynative_and_each_value_compiles_once():
    f = sx.jit(scale, specialize_values=True)
    for values in ([1.0, 2.0], [2.0, 2.0], [1.0, 2.0], [2.0, 2.0], [0.5, 0.25]):
        x = sx.Tensor(values)
        np.testing.assert_array_equal(f(x).asnumpy(), scale(x).asnumpy())
    assert f.compile_count == 3  # 3.0, 4.0 and 0.75 read: three graphs


def test_a_tensor_changed_in_place_does_not_hit_the_stale_graph():
    f = sx.jit(scale, specialize_values=True)
    x = sx.Tensor([1.0, 2.0])
    np.testing.assert_array_equal(f(x).asnumpy(), [3.0, 6.0])
    x.asnumpy()[:] = [5.0, 5.0]  # same Tensor, shape and dtype: only its values differ
    np.testing.assert_array_equal(f(x).asnumpy(), [50.0, 50.0])
    x.asnumpy()[:] = [1.0, 2.0]
    np.testing.assert_array_equal(f(x).asnumpy(), [3.0, 6.0])
    assert f.compile_count == 2


def test_only_the_arguments_read_guard_the_graph():
    @sx.jit(specialize_values=True)
    def f(n, y):
        return y * len(n.asnumpy()) + float(n.asnumpy()[0])

    y1, y2 = sx.Tensor([1.0, 2.0]), sx.Tensor([3.0, 4.0])
    n = sx.Tensor([2.0, 0.0, 0.0])
    np.testing.assert_array_equal(f(n, y1).asnumpy(), [5.0, 8.0])
    np.testing.assert_array_equal(f(n, y2).asnumpy(), [11.0, 14.0])  # y is not guarded
    assert f.compile_count == 1
    np.testing.assert_array_equal(f(sx.Tensor([1.0, 9.0, 9.0]), y2).asnumpy(),
                                  [10.0, 13.0])
    assert f.compile_count == 2


def test_numpy_and_keyword_arguments_are_guarded_too():
    @sx.jit(specialize_values=True)
    def f(x, *, k):
        return x + int(k)

    x = np.ones(2, np.float32)
    assert f(x, k=np.array(2)).asnumpy().tolist() == [3.0, 3.0]
    assert f(x, k=np.array(5)).asnumpy().tolist() == [6.0, 6.0]
    assert f(x, k=np.array(2)).asnumpy().tolist() == [3.0, 3.0]
    assert f.compile_count == 2


def test_more_values_than_kept_graphs_stay_correct():
    f = sx.jit(scale, specialize_values=True)
    for k in list(range(12)) + list(range(12)):
        x = sx.Tensor([float(k), 1.0])
        np.testing.assert_array_equal(f(x).asnumpy(), scale(x).asnumpy())


def test_a_value_of_a_parameter_is_not_read():
    w = sx.Parameter(np.ones(2, np.float32), name="w")

    @sx.jit(specialize_values=True)
    def f(x):
        return x * int((w * 2).sum())

    with pytest.raises(TracedValueError, match="not known while tracing"):
        f(sx.Tensor([1.0, 2.0]))


def test_without_specialize_values_a_read_still_raises():
    f = sx.jit(scale)
    with pytest.raises(SporelingError, match="no data while the graph is being built"):
        f(sx.Tensor([1.0, 2.0]))
    assert not f.specialize_values
    assert sx.jit(sx.jit(scale, specialize_values=True)).specialize_values


def test_a_method_keeps_specialize_values():
    class Net(sx.nn.Cell):
        @sx.jit(specialize_values=True)
        def construct(self, x):
            return x * int(x[0])

    net = Net()
    np.testing.assert_array_equal(net(sx.Tensor([2.0, 1.0])).asnumpy(), [4.0, 2.0])
    np.testing.assert_array_equal(net(sx.Tensor([3.0, 1.0])).asnumpy(), [9.0, 3.0])


def shows(x):
    print("x:", x)
    y = x + 1
    print(y)
    return y


def shown(t) -> str:
    """How a traced Tensor prints when the graph runs: str(t) -- or the MindSpore facade's
    Graph-mode format, when a test of the same process imported it."""
    return print_format(t)(t.asnumpy())


def test_print_runs_at_every_call_of_the_compiled_function(capsys):
    f = sx.jit(shows)
    f(sx.Tensor([1.0, 2.0]))
    f(sx.Tensor([3.0, 4.0]))
    assert f.compile_count == 1
    assert capsys.readouterr().out.splitlines() == [
        "x: " + shown(sx.Tensor([1.0, 2.0])), shown(sx.Tensor([2.0, 3.0])),
        "x: " + shown(sx.Tensor([3.0, 4.0])), shown(sx.Tensor([4.0, 5.0]))]
    if print_format(sx.Tensor([1.0])) is _tensor_text:  # without the facade: as PyNative
        shows(sx.Tensor([1.0, 2.0]))
        assert capsys.readouterr().out.splitlines()[0] == "x: " + str(sx.Tensor([1.0, 2.0]))


class Shows(sx.nn.Cell):
    def construct(self, x):
        print(x * 2)
        return x


def test_print_in_a_graph_mode_cell(capsys):
    net = Shows()
    with sx.context(mode=sx.GRAPH_MODE):
        net(sx.Tensor([1.0]))
        net(sx.Tensor([2.0]))
    assert capsys.readouterr().out.splitlines() == [shown(sx.Tensor([2.0])),
                                                    shown(sx.Tensor([4.0]))]
