"""argsort / sort / topk: NumPy's results, stable ties, gradients through the values, vmap,
Graph-mode lowering, errors."""
import numpy as np
import pytest

from sporeling.compiler import ops, primitives
from sporeling.compiler.testing import check_grads
from sporeling.compiler.transforms import vmap
from sporeling.core import DTypeError, ShapeError

RNG = np.random.default_rng(0)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_matches_numpy(axis, descending):
    x = RNG.standard_normal((4, 5))
    values, indices = ops.sort(x, axis=axis, descending=descending)
    expected = np.sort(x, axis=axis)
    if descending:
        expected = np.flip(expected, axis)
    np.testing.assert_array_equal(values, expected)
    np.testing.assert_array_equal(np.take_along_axis(x, indices, axis), expected)
    assert indices.dtype == np.int64


def test_ties_keep_their_order_both_ways():
    x = np.array([1, 3, 3, 2, 3])
    np.testing.assert_array_equal(ops.argsort(x), [0, 3, 1, 2, 4])
    np.testing.assert_array_equal(ops.argsort(x, descending=True), [1, 2, 4, 3, 0])


def test_topk_largest_and_smallest():
    x = np.array([[1.0, 5.0, 3.0, 4.0], [9.0, 0.0, 2.0, 8.0]])
    values, indices = ops.topk(x, 2)
    np.testing.assert_array_equal(values, [[5.0, 4.0], [9.0, 8.0]])
    np.testing.assert_array_equal(indices, [[1, 3], [0, 3]])
    values, indices = ops.topk(x, 2, axis=0, largest=False)
    np.testing.assert_array_equal(values, [[1.0, 0.0, 2.0, 4.0], [9.0, 5.0, 3.0, 8.0]])
    np.testing.assert_array_equal(indices, [[0, 1, 1, 0], [1, 0, 0, 1]])
    values, indices = ops.topk(x, 1, axis=1, largest=False)
    np.testing.assert_array_equal(values, [[1.0], [0.0]])


def test_gradients_reach_the_sorted_positions():
    x = RNG.standard_normal((3, 4))
    check_grads(lambda a: ops.sum(ops.mul(ops.sort(a, axis=1)[0], np.arange(4.0))), [x], order=2)
    check_grads(lambda a: ops.sum(ops.square(ops.topk(a, 2, axis=0)[0])), [x], order=2)


def test_argsort_has_no_gradient_and_a_batching_rule():
    assert not primitives()["argsort"].differentiable
    x = RNG.standard_normal((3, 5))
    np.testing.assert_array_equal(vmap(ops.argsort)(x), np.argsort(x, axis=1, kind="stable"))
    np.testing.assert_array_equal(vmap(lambda r: ops.argsort(r), in_axes=1)(x),
                                  np.argsort(x.T, axis=1, kind="stable"))


def test_compiled_sort_matches_eager():
    from sporeling.compiler.ir import make_graph
    from sporeling.compiler.pipeline import compile_graph
    x = RNG.standard_normal((2, 6))
    graph = make_graph(lambda a: ops.topk(a, 3), x)
    out = compile_graph(graph)(x)
    np.testing.assert_array_equal(out[0], ops.topk(x, 3)[0])
    np.testing.assert_array_equal(out[1], ops.topk(x, 3)[1])


def test_errors_say_what_was_expected():
    with pytest.raises(ShapeError, match="k out of range"):
        ops.topk(np.ones((2, 3)), 4)
    with pytest.raises(ShapeError, match="scalar"):
        ops.sort(np.float64(1.0))
    with pytest.raises(DTypeError, match="no order"):
        ops.argsort(np.array([1 + 2j]))
