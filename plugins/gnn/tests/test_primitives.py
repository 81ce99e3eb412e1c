"""The segment primitives: contributed through the hooks, equal to NumPy references on any
ids (unsorted, empty segments, num_segments past the largest id), gradients to order 2,
vmap, PyNative and Graph mode."""
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import sporeling.expression as sx
from sporeling.compiler import primitives
from sporeling.compiler.testing import check_grads
from sporeling.compiler.transforms import vmap
from sporeling.core import DTypeError, ShapeError, get_plugin_host
from sporeling.core.cli import main as sporeling_cli
from sporeling.core.testing import run_doctests
from sporeling.runtime.kernel_registry import get_kernels

from sporeling.gnn import (SegmentIdError, scatter, scatter_add, segment_max, segment_mean,
                           segment_softmax, segment_sum)

NAMES = ("gnn_segment_sum", "gnn_segment_mean", "gnn_segment_max")
rng = np.random.default_rng(0)


def reference(data, ids, n, how):
    out = np.zeros((n,) + data.shape[1:], data.dtype)
    for s in range(n):
        rows = data[ids == s]
        if len(rows):
            out[s] = {"sum": rows.sum(0), "mean": rows.mean(0), "max": rows.max(0)}[how]
    return out


FNS = {"sum": segment_sum, "mean": segment_mean, "max": segment_max}


def test_the_plugin_contributes_primitives_and_kernels():
    assert "gnn" in [p.name for p in get_plugin_host().loaded]
    prims, kernels = primitives(), get_kernels()
    for name in NAMES:
        assert prims[name].name == name and prims.source_of(name) == "gnn"
        assert kernels.lookup("numpy", name) is not None
    assert "gather" in prims and prims.source_of("gather") != "gnn"  # the compiler's, reused


def test_sporeling_plugins_lists_gnn(capsys):
    sporeling_cli(["plugins"])
    line = [r for r in capsys.readouterr().out.splitlines() if r.strip().startswith("gnn")]
    assert line and "sporeling-gnn" in line[0]


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(0, 12), width=st.integers(1, 3), extra=st.integers(0, 3),
       how=st.sampled_from(["sum", "mean", "max"]), data=st.data())
def test_segments_equal_a_loop_over_segments(rows, width, extra, how, data):
    top = data.draw(st.integers(0, 5))
    ids = data.draw(hnp.arrays(np.int64, rows, elements=st.integers(0, top)))
    n = top + 1 + extra  # segments past the largest id, and holes inside, stay empty
    x = data.draw(hnp.arrays(np.float64, (rows, width),
                             elements=st.floats(-10, 10, allow_nan=False)))
    np.testing.assert_allclose(FNS[how](x, ids, n), reference(x, ids, n, how), atol=1e-12)


@pytest.mark.parametrize("how", ["sum", "max"])
def test_integer_data_is_exact(how):
    x = np.array([[2 ** 40 + 1], [3], [2 ** 40]], np.int64)
    ids = np.array([1, 0, 1])
    np.testing.assert_array_equal(FNS[how](x, ids, 3), reference(x, ids, 3, how))


def test_rank_one_and_rank_three_data():
    ids = np.array([1, 1, 0, 3])
    for shape in [(4,), (4, 2, 3)]:
        x = rng.standard_normal(shape)
        for how, fn in FNS.items():
            np.testing.assert_allclose(fn(x, ids, 5), reference(x, ids, 5, how), atol=1e-12)


GRAD_CHECKED = {"gnn_segment_sum": "sum", "gnn_segment_mean": "mean", "gnn_segment_max": "max"}


def test_every_primitive_of_the_plugin_is_grad_checked():
    ours = sorted(n for n, p in primitives().items() if p.module.startswith("sporeling.gnn"))
    assert ours == sorted(GRAD_CHECKED)


@pytest.mark.parametrize("how", sorted(GRAD_CHECKED.values()))
def test_gradients_to_second_order(how):
    ids = np.array([3, 0, 3, 1, 0, 3, 3])  # unsorted; segments 2 and 4 empty
    check_grads(lambda d: FNS[how](d, ids, 5), [rng.standard_normal((7, 2))], order=2,
                name=f"segment_{how}")


def test_compositions_differentiate_to_second_order():
    ids = np.array([2, 0, 2, 2, 0])
    check_grads(lambda d: segment_softmax(d, ids, 3), [rng.standard_normal((5, 2))], order=2)
    check_grads(lambda x, s: scatter_add(x, ids, s),
                [rng.standard_normal((3, 2)), rng.standard_normal((5, 2))], order=2)


def test_segment_max_splits_the_gradient_between_ties():
    x = sx.Tensor(np.array([[1.0], [5.0], [5.0], [2.0], [5.0]], np.float32))
    ids = np.array([0, 0, 0, 1, 0])
    grad = sx.grad(lambda t: segment_max(t, ids, 3).sum())(x)
    np.testing.assert_allclose(grad.asnumpy().ravel(), [0, 1 / 3, 1 / 3, 1, 1 / 3])


def test_segment_softmax_sums_to_one_per_segment():
    ids = np.array([1, 1, 0, 1, 3])
    p = segment_softmax(np.array([1e4, -3.0, 7.0, 1e4, 0.5]), ids, 4)
    assert np.isfinite(p).all()
    np.testing.assert_allclose(segment_sum(p, ids, 4), [1, 1, 0, 1])


def test_scatter_by_name_and_scatter_add():
    x, ids = rng.standard_normal((4, 2)), np.array([0, 2, 2, 1])
    for how in ("sum", "mean", "max"):
        np.testing.assert_allclose(scatter(x, ids, 4, reduce=how), reference(x, ids, 4, how))
    base = np.ones((3, 2))
    expect = base.copy()
    np.add.at(expect, ids[:3], x[:3])
    np.testing.assert_allclose(scatter_add(base, ids[:3], x[:3]), expect)
    with pytest.raises(ShapeError, match="unknown reduction"):
        scatter(x, ids, 3, reduce="median")


def test_errors_name_the_op_and_what_came():
    x = np.ones((3, 2))
    with pytest.raises(SegmentIdError, match=r"segment_sum.*\[0, 2\).*got 2"):
        segment_sum(x, np.array([0, 2, 1]), 2)
    with pytest.raises(SegmentIdError, match="got -1"):
        segment_max(x, np.array([0, -1, 1]), 2)
    with pytest.raises(ShapeError, match=r"one segment id per row.*\(3,\)"):
        segment_mean(x, np.array([0, 1]), 2)
    with pytest.raises(DTypeError, match="integer"):
        segment_sum(x, np.array([0.0, 1.0, 1.0]), 2)
    with pytest.raises(DTypeError, match="float"):
        segment_mean(np.ones((3, 2), np.int64), np.array([0, 1, 1]), 2)
    with pytest.raises(ShapeError, match="num_segments"):
        segment_sum(x, np.array([0, 1, 1]), -1)


def test_num_segments_defaults_to_the_largest_id_plus_one():
    assert segment_sum(np.ones(3), np.array([0, 4, 4])).shape == (5,)
    assert segment_sum(np.ones((0, 2)), np.zeros(0, np.int64)).shape == (0, 2)


@pytest.mark.parametrize("how", ["sum", "mean", "max"])
def test_vmap_over_data_and_over_ids(how):
    fn = FNS[how]
    ids = np.array([2, 0, 2, 1, 0])
    xb = rng.standard_normal((3, 5, 2))
    per_example = np.stack([fn(x, ids, 4) for x in xb])
    np.testing.assert_allclose(vmap(lambda d: fn(d, ids, 4))(xb), per_example)
    moved = np.moveaxis(xb, 0, 2)  # the batch on axis 2 of the data
    np.testing.assert_allclose(vmap(lambda d: fn(d, ids, 4), in_axes=2)(moved), per_example)
    idb = np.stack([ids, ids[::-1], np.zeros(5, np.int64)])
    np.testing.assert_allclose(vmap(lambda d, i: fn(d, i, 4))(xb, idb),
                               np.stack([fn(x, i, 4) for x, i in zip(xb, idb)]))
    shared = rng.standard_normal((5, 2))  # only the ids vary
    np.testing.assert_allclose(vmap(lambda i: fn(shared, i, 4))(idb),
                               np.stack([fn(shared, i, 4) for i in idb]))


def _loss(t, ids):
    return (segment_sum(t, ids, 4) ** 2).sum() + segment_max(t, ids, 4).sum() + \
        (segment_mean(t, ids, 4) * 3.0).sum() + (segment_softmax(t, ids, 4) ** 2).sum()


def test_graph_mode_equals_pynative_with_gradients():
    x = sx.Tensor(rng.standard_normal((6, 3)).astype(np.float32))
    ids = sx.Tensor(np.array([3, 0, 3, 1, 0, 3]))
    value, grad = sx.value_and_grad(_loss)(x, ids)
    step = sx.jit(lambda t, i: sx.value_and_grad(_loss)(t, i))
    g_value, g_grad = step(x, ids)
    np.testing.assert_allclose(g_value.asnumpy(), value.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(g_grad.asnumpy(), grad.asnumpy(), rtol=1e-5, atol=1e-6)
    other = sx.Tensor(np.array([0, 0, 1, 1, 2, 2]))  # new ids, same compiled graph
    np.testing.assert_allclose(step(x, other)[0].asnumpy(),
                               sx.value_and_grad(_loss)(x, other)[0].asnumpy(), rtol=1e-5)
    assert step.compile_count == 1


def test_a_compiled_graph_checks_ids_when_it_runs():
    step = sx.jit(lambda t, i: segment_sum(t, i, 2))
    x = sx.Tensor(np.ones((3, 1), np.float32))
    step(x, sx.Tensor(np.array([0, 1, 1])))
    with pytest.raises(SegmentIdError, match="got 5"):
        step(x, sx.Tensor(np.array([0, 5, 1])))


def test_docstring_examples_run():
    failed, attempted = run_doctests("sporeling.gnn")
    assert failed == 0 and attempted > 0


def test_vmap_of_grad_in_a_fresh_process():
    # the rules travel with the primitives: nothing needs to collect the plugins first
    code = """
import numpy as np
from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad
from sporeling.compiler.transforms import vmap
from sporeling.gnn import segment_max, segment_mean, segment_softmax
ids = np.array([2, 0, 2, 1, 0])
xb = np.random.default_rng(0).standard_normal((3, 5, 2))
f = lambda d: ops.add(ops.sum(ops.mul(segment_max(d, ids, 4), segment_mean(d, ids, 4))),
                      ops.sum(ops.square(segment_softmax(d, ids, 4))))
err = np.abs(vmap(grad(f))(xb) - np.stack([grad(f)(x) for x in xb])).max()
idb = np.stack([ids, ids[::-1], np.zeros(5, np.int64)])
f2 = lambda d, i: ops.sum(ops.square(segment_max(d, i, 4)))
err2 = np.abs(vmap(grad(f2))(xb, idb) - np.stack([grad(f2)(x, i) for x, i in zip(xb, idb)]))
print(max(err, err2.max()))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert float(out.stdout) < 1e-12
