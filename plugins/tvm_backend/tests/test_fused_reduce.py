"""``fused_reduce``: the pass that writes it (what it takes and what it leaves), TVM's loops
against NumPy's sums and means, the decomposition elsewhere (a batch norm's gradient through
Graph mode: ``tests/test_tvm_training.py``)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.compiler import bind, ops
from sporeling.compiler.ir import make_graph
from sporeling.compiler.lowering.decompose import decomposes
from sporeling.compiler.passes import PassContext
from sporeling.compiler.passes.fusion import fuse_elementwise
from sporeling.compiler.pipeline import compile_graph
from sporeling.runtime import get_backend

from sporeling.tvm_backend import kernels
from sporeling.tvm_backend.fused_reduce import fused_reduce_p
from sporeling.tvm_backend.reduce_pass import fuse_reductions

TVM = get_backend("tvm")
F32 = np.dtype("float32")
BLOCKED = (4, 2, 3, 3, 16)  # (N, C/16, H, W, 16): oneDNN's channel-blocked activations


def _passes(fn, *args):
    ctx = PassContext(backend=TVM)
    graph = fuse_reductions(fuse_elementwise(make_graph(fn, *args), ctx), ctx)
    return graph, [eq for eq in graph.equations if eq.prim is fused_reduce_p]


def _rand(*shape, dtype=F32, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def test_a_chain_reduced_over_the_batch_then_h_w_is_one_fused_reduce():
    x, y = _rand(*BLOCKED), _rand(*BLOCKED, seed=1)

    def batch_norm_grad_sums(x, y):  # the layout pass's two sums of dy * x_hat; a mean
        t = ops.mul(ops.add(x, 1.0), y)
        return (ops.sum(ops.sum(t, axis=(0,)), axis=(1, 2)),
                ops.mean(ops.mean(x, axis=(0,)), axis=(1, 2)))
    graph, fused = _passes(batch_norm_grad_sums, x, y)
    assert graph.primitive_counts() == {"fused_reduce": 2}
    summed, meaned = fused
    assert summed.params["axis"] == (0, 2, 3) and summed.params["reduce"] == "sum"
    assert [node[0] for node in summed.params["expr"]] == ["add", "mul"]
    assert meaned.params["axis"] == (0, 2, 3) and meaned.params["expr"] == ()


def test_a_small_value_is_reduced_along_any_axis():
    x = _rand(8)  # a loss over a few floats: the fusion saves a kernel call
    graph, fused = _passes(lambda x: ops.sum(ops.tanh(ops.mul(x, x))), x)
    assert graph.primitive_counts() == {"fused_reduce": 1} and fused[0].params["axis"] == (0,)


def test_what_the_pass_leaves_alone():
    x = _rand(80, 64)

    def along_the_innermost_axis(x):  # a serial chain of additions: in lanes (below)
        return ops.sum(ops.mul(x, x), axis=(1,))

    def integer_sum(x):
        return ops.sum(ops.cast(x, np.int32), axis=(0,))
    graph, fused = _passes(integer_sum, x)
    assert not fused
    graph, fused = _passes(along_the_innermost_axis, x)  # the chain is not fused into it
    assert graph.primitive_counts() == {"fused_elementwise": 1, "reshape": 1,
                                        "fused_reduce": 2}
    # keepdims: the shapes would not follow -- two reductions, each generated alone
    graph, fused = _passes(lambda x: ops.sum(ops.sum(x, axis=(0,)), axis=(0,), keepdims=True), x)
    assert graph.primitive_counts() == {"fused_reduce": 2}
    assert [eq.params["expr"] for eq in fused] == [(), ()]


def test_a_reduction_of_no_chain_is_generated_alone():
    """A sum of a kernel's result (a cross entropy's gradient summed over the batch: a
    bias gradient): NumPy's sum took 20 us for (128, 10), and a program whose kernels are
    all native runs as one native step."""
    def of_a_matmul(x):
        return ops.sum(ops.matmul(x, x), axis=(0,))
    graph, fused = _passes(of_a_matmul, _rand(64, 64))
    assert graph.primitive_counts() == {"matmul": 1, "fused_reduce": 1}
    assert fused[0].params["expr"] == () and fused[0].params["axis"] == (0,)


def test_a_chain_read_twice_stays_and_its_result_is_reduced():
    """The chain's result is needed anyway: the sum reads it (a ``fused_reduce`` of no
    expression), so that the group pass can run both in one function."""
    def chain_read_twice(x):
        t = ops.mul(x, x)
        return ops.sum(t, axis=(0,)), t
    graph, fused = _passes(chain_read_twice, _rand(80, 64))
    assert graph.primitive_counts() == {"fused_elementwise": 1, "fused_reduce": 1}
    assert fused[0].params["expr"] == () and fused[0].inputs[0] is graph.equations[0].outputs[0]


# the last two reduce the innermost axis: taken because the value is SMALL
_AXES = [(0,), (0, 2), (0, 2, 3), (1,), (0, 1, 2, 3), (2, 4), (0, 1, 2, 3, 4)]


@settings(max_examples=25, deadline=None)
@given(axis=st.sampled_from(_AXES), reduce=st.sampled_from(["sum", "mean"]),
       keepdims=st.booleans(), dtype=st.sampled_from([np.float32, np.float64]),
       chained=st.booleans(), seed=st.integers(0, 2 ** 16))
def test_tvm_reduces_as_numpy(axis, reduce, keepdims, dtype, chained, seed):
    x, y = _rand(*BLOCKED, dtype=dtype, seed=seed), _rand(1, 2, 1, 1, 16, dtype=dtype)
    d = np.dtype(dtype)
    expr = ((("mul", (("in", 0), ("in", 1)), (), BLOCKED, d),
             ("relu", (("node", 0),), (), BLOCKED, d)) if chained else ())
    inputs = (x, y) if chained else (x,)
    got = kernels.fused_reduce(TVM, *inputs, expr=expr, reduce=reduce, axis=axis,
                               keepdims=keepdims)
    value = np.maximum(x * y, 0).astype(np.float64) if chained else x.astype(np.float64)
    want = getattr(np, reduce)(value, axis=axis, keepdims=keepdims)
    assert got.dtype == d and got.shape == want.shape
    # partial sums in the value's dtype (a few hundred terms each), added in float64:
    # within a few roundings of the magnitudes summed
    scale = getattr(np, reduce)(np.abs(value), axis=axis, keepdims=keepdims)
    eps = np.finfo(dtype).eps
    assert np.all(np.abs(got - want) <= 16 * eps * scale + 1e-300), (got - want) / scale


@pytest.mark.parametrize("axis", [(0,), (0, 1)])
def test_float32_sums_add_their_partial_sums_in_float64(axis):
    # one float32 running sum of 65,536 tenths ends 6e-4 off; here each index of the
    # outermost reduced axis sums its own 256 terms and those add in float64 (2.4e-6 off;
    # one reduced axis: float64 throughout)
    x = np.full((256, 256, 16), 0.1, np.float32)
    got = kernels.fused_reduce(TVM, x, expr=(), reduce="sum", axis=axis, keepdims=False)
    exact = np.float64(np.float32(0.1)) * np.prod([x.shape[k] for k in axis])
    np.testing.assert_allclose(got, exact, rtol=5e-6)


def test_the_decomposition_runs_where_no_kernel_does():
    x = _rand(3, 4)
    expr = (("mul", (("in", 0), ("in", 0)), (), (3, 4), F32),)
    graph = make_graph(lambda x: bind(fused_reduce_p, x, expr=expr, reduce="mean",
                                      axis=(0,), keepdims=True), x)
    numpy = get_backend("numpy")
    assert decomposes(fused_reduce_p, numpy) and not decomposes(fused_reduce_p, TVM)
    got = compile_graph(graph, backend=numpy)(x)
    got = got[0] if isinstance(got, (list, tuple)) else got
    np.testing.assert_allclose(np.asarray(got), (x * x).mean(0, keepdims=True), rtol=1e-6)


@pytest.mark.parametrize("reduce", ["sum", "mean"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_large_reduction_along_the_innermost_axis_runs_in_lanes(reduce, dtype):
    """LeNet's first bias gradient, (N, 6, 28, 28) over (N, H, W): the run of 784 reduced
    elements split into 16 lanes summed apart (vectorised), then the lanes."""
    x = _rand(8, 6, 28, 28, dtype=dtype)
    fn = getattr(ops, reduce)
    graph, fused = _passes(lambda x: fn(x, axis=(0, 2, 3)), x)
    assert graph.primitive_counts() == {"reshape": 1, "fused_reduce": 2}
    assert [eq.params["axis"] for eq in fused] == [(0, 2), (1,)]
    assert fused[0].inputs[0].aval.shape == (8, 6, 49, 16)
    (got,) = compile_graph(graph, backend=TVM)(x)
    value = x.astype(np.float64)
    want = getattr(np, reduce)(value, axis=(0, 2, 3))
    scale = getattr(np, reduce)(np.abs(value), axis=(0, 2, 3))
    assert got.dtype == x.dtype
    assert np.all(np.abs(got - want) <= 16 * np.finfo(dtype).eps * scale)


def test_a_run_no_lane_count_divides_stays_numpys():
    x = _rand(16, 6, 17, 17)  # 289 reduced elements a row, 17 along the innermost axis
    graph, fused = _passes(lambda x: ops.sum(x, axis=(0, 2, 3)), x)
    assert graph.primitive_counts() == {"sum": 1} and not fused
