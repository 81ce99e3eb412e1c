"""``fused_group``: the pass that writes it (what it groups and where a run ends), the one
generated function against its members run one by one and against NumPy, the Parameters'
buffers written in place, the members one by one where TVM does not generate the group."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.compiler import bind, ops
from sporeling.compiler.ops.activation import relu_grad_p
from sporeling.compiler.ir import make_graph
from sporeling.compiler.lowering import lower
from sporeling.compiler.passes import PassContext
from sporeling.compiler.passes.fusion import fuse_elementwise
from sporeling.runtime import get_backend

from sporeling.tvm_backend import group_kernel, kernels
from sporeling.tvm_backend.group import fused_group_p, layout
from sporeling.tvm_backend.group_pass import group_kernels
from sporeling.tvm_backend.reduce_pass import fuse_reductions

TVM, NUMPY = get_backend("tvm"), get_backend("numpy")


def _grouped(fn, *args):
    ctx = PassContext(backend=TVM)
    graph = make_graph(fn, *args)
    return group_kernels(fuse_reductions(fuse_elementwise(graph, ctx), ctx), ctx), graph


def _rand(*shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _adam(w, m, v, g, step):
    """Adam's update of one parameter, as an optimizer writes it."""
    t = ops.add(step, 1)
    m2 = ops.add(ops.mul(m, 0.9), ops.mul(g, 0.1))
    v2 = ops.add(ops.mul(v, 0.999), ops.mul(ops.mul(g, g), 0.001))
    scale = ops.div(ops.sqrt(ops.sub(1.0, ops.pow(0.999, ops.cast(t, np.float32)))),
                    ops.sub(1.0, ops.pow(0.9, ops.cast(t, np.float32))))
    w2 = ops.sub(w, ops.div(ops.mul(ops.mul(m2, scale), 0.01), ops.add(ops.sqrt(v2), 1e-8)))
    return w2, m2, v2, t


def _two_parameters(w1, m1, v1, g1, w2, m2, v2, g2, step):
    return _adam(w1, m1, v1, g1, step) + _adam(w2, m2, v2, g2, step)


def _state():
    shapes = [(6, 5), (6, 5), (6, 5), (6, 5), (7,), (7,), (7,), (7,)]
    arrays = [_rand(*s, seed=k) for k, s in enumerate(shapes)]
    arrays[2], arrays[6] = np.abs(arrays[2]), np.abs(arrays[6])  # second moments
    return arrays + [np.array(3, np.int64)]


def test_an_optimizer_update_is_one_call_and_one_loop_per_parameter():
    graph, _ = _grouped(_two_parameters, *_state())
    assert graph.primitive_counts() == {"fused_group": 1}
    group, = graph.equations
    plan = layout(group.params["members"], [(v.aval.shape, v.aval.dtype) for v in group.inputs])
    loops = [len(nest[3]) for nest in plan.nests if nest[0] == "chains"]
    # each parameter's m, v and w in one loop (w reads m' and v' where they are computed)
    assert sorted(loops, reverse=True)[:2] == [3, 3]


def test_the_group_computes_what_its_members_compute():
    state = _state()
    graph, plain = _grouped(_two_parameters, *state)
    got = lower(graph, backend=TVM)(*state)
    one_by_one = lower(plain, backend=TVM)(*state)  # lowered without the passes
    want = lower(plain, backend=NUMPY)(*state)
    for a, b, c in zip(got, one_by_one, want):
        assert a.dtype == c.dtype and a.shape == c.shape
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-6)


def test_a_prepared_group_copies_only_the_inputs_tvm_refuses():
    # the program's group kernel is prepared for its call site and passes its arrays as
    # they are; a read-only one, a strided one and a Python number are copied
    state = _state()
    graph, plain = _grouped(_two_parameters, *state)
    lowered = lower(graph, backend=TVM)
    assert [ins.bound for ins in lowered.program.instructions] == [True]
    want = lower(plain, backend=NUMPY)(*state)
    read_only = state[0].copy()
    read_only.flags.writeable = False
    wide = np.zeros((6, 10), np.float32)
    wide[:, ::2] = state[1]
    for k, odd in ((0, read_only), (1, wide[:, ::2]), (8, 3)):  # 8: the step count
        for a, c in zip(lowered(*state[:k], odd, *state[k + 1:]), want):
            np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-6)


def test_a_sum_of_a_member_and_a_broadcast_operand_in_one_group():
    x, b = _rand(4, 6), _rand(6, seed=1)

    def fn(x, b):
        y = ops.tanh(ops.add(x, b))      # b read per column
        total = ops.sum(ops.mul(y, y))   # a reduction of y, read back in its own shape
        scaled = ops.mul(y, 2.0)
        return y, total, scaled, ops.add(ops.exp(x), 1.0)
    graph, plain = _grouped(fn, x, b)
    assert graph.primitive_counts() == {"fused_group": 1}
    for a, c in zip(lower(graph, backend=TVM)(x, b), lower(plain, backend=NUMPY)(x, b)):
        np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-6)


def test_a_dense_layers_bias_gradient_is_summed_in_its_relu_gradients_function():
    y, g, x = _rand(32, 84), _rand(32, 84, seed=1), _rand(32, 120, seed=2)

    def fn(y, g, x):  # relu's gradient, read by the bias gradient and the weight gradient
        dy = bind(relu_grad_p, y, g)
        bias = ops.sum(dy, axis=(0,))
        return ops.matmul(ops.transpose(dy, (1, 0)), x), bias
    graph, plain = _grouped(fn, y, g, x)
    group, = [eq for eq in graph.equations if eq.prim is fused_group_p]
    assert [m.kind for m in group.params["members"]] == ["fused_elementwise", "fused_reduce"]
    assert "sum" not in graph.primitive_counts()
    for a, c in zip(lower(graph, backend=TVM)(y, g, x), lower(plain, backend=NUMPY)(y, g, x)):
        np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-5)


def test_one_group_function_serves_every_batch_size():
    # a ReLU's gradient with its bias gradient (a sum over the batch), and on a blocked
    # (N, C/16, H, W, 16) value a mean over (N, H, W): the partial sums' shape holds the
    # batch; one generated function each, whatever the batch
    from sporeling.tvm_backend.elementwise import GENERIC
    from sporeling.tvm_backend.group import Group, generic_group

    def fn(y, g, z):
        dy = bind(relu_grad_p, y, g)
        t = ops.tanh(z)
        return ops.mul(dy, 0.5), ops.sum(dy, axis=(0,)), ops.mul(t, t), \
            ops.mean(ops.mul(t, t), axis=(0, 2, 3))
    compiled = {}
    for n in (32, 30, 7, 1):
        args = _rand(n, 84), _rand(n, 84, seed=1), _rand(n, 2, 3, 3, 16, seed=2)
        graph, plain = _grouped(fn, *args)
        group, = [eq for eq in graph.equations if eq.prim is fused_group_p]
        specs = tuple((tuple(v.aval.shape), v.aval.dtype.str) for v in group.inputs)
        shared = generic_group(Group(group.params["members"], specs))
        compiled[n] = shared
        if n > 1:
            assert [s for s, _ in shared.specs] == [(GENERIC, 84)] * 2 + [(GENERIC, 2, 3, 3, 16)]
        for a, c in zip(lower(graph, backend=TVM)(*args), lower(plain, backend=NUMPY)(*args)):
            assert a.shape == c.shape
            np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-6)
    assert compiled[32] == compiled[30] == compiled[7] != compiled[1]
    assert kernels.function(compiled[30]) is kernels.function(compiled[7])


def test_a_run_ends_at_another_equation_and_where_tvm_does_not_generate():
    x = _rand(5, 3)

    def fn(x):
        a = ops.tanh(ops.mul(x, 2.0))
        b = ops.erf(ops.add(x, 1.0))     # no expression for erf: NumPy's chain
        c = ops.exp(ops.sub(x, 1.0))
        d = ops.matmul(a, ops.transpose(a, (1, 0)))  # not a chain
        return a, b, c, ops.add(d, 1.0), ops.mul(x, 3.0), ops.add(x, 3.0)
    graph, plain = _grouped(fn, x)
    names = [eq.prim.name for eq in graph.equations]
    assert names == ["fused_elementwise"] * 3 + ["transpose", "matmul", "fused_group"]
    assert len(graph.equations[-1].params["members"]) == 3
    for a, c in zip(lower(graph, backend=TVM)(x), lower(plain, backend=NUMPY)(x)):
        np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-6)


def test_parameters_are_updated_in_their_own_buffers():
    state = _state()
    want = lower(make_graph(_two_parameters, *state), backend=NUMPY)(*[a.copy() for a in state])

    def step(*state):
        new = _two_parameters(*state)
        targets = state[:3] + state[4:7]
        return tuple(ops.assign(p, v) for p, v in zip(targets, new[:3] + new[4:7]))
    graph, _ = _grouped(step, *state)
    lowered = lower(graph, backend=TVM)
    into = [ins.out for ins in lowered.program.instructions if isinstance(ins.out, tuple)]
    assert len(into) == 1 and sum(s is not None for s in into[0]) == 6
    targets = state[:3] + state[4:7]
    outs = lowered(*state)
    assert all(o is t for o, t in zip(outs, targets))  # no copies: the buffers themselves
    for o, w in zip(outs, want[:3] + want[4:7]):
        np.testing.assert_allclose(o, w, rtol=1e-5, atol=1e-6)


def _amsgrad(w, m, v, vmax, g, step):
    """Adam's update with AMSGrad: the step reads m' and max(vmax, v') -- values other
    chains of its loop compute, each written over its own old value."""
    t = ops.add(step, 1)
    m2 = ops.add(ops.mul(m, 0.9), ops.mul(g, 0.1))
    v2 = ops.add(ops.mul(v, 0.999), ops.mul(ops.mul(g, g), 0.001))
    vmax2 = ops.maximum(vmax, v2)
    scale = ops.div(ops.sqrt(ops.sub(1.0, ops.pow(0.999, ops.cast(t, np.float32)))),
                    ops.sub(1.0, ops.pow(0.9, ops.cast(t, np.float32))))
    w2 = ops.sub(w, ops.div(ops.mul(ops.mul(m2, scale), 0.01), ops.add(ops.sqrt(vmax2), 1e-8)))
    return tuple(ops.assign(p, x) for p, x in ((w, w2), (m, m2), (v, v2), (vmax, vmax2))) + (t,)


@pytest.mark.parametrize("shape", [(16, 6), (6, 5), (3, 37)])
def test_a_member_reading_another_sees_its_new_value_not_a_new_input(shape):
    """In place, a chain's result is written over its old value: a later chain of the loop
    reading that result must get it, not recompute it from the overwritten input (Adam with
    AMSGrad on a (16, 6) weight: the 6-wide loop's remainder read the new moments)."""
    state = [_rand(*shape, seed=k) for k in range(5)] + [np.array(3, np.int64)]
    state[2] = np.abs(state[2])
    state[3] = np.abs(state[3]) * 0.5
    want = lower(make_graph(_amsgrad, *state), backend=NUMPY)(*[a.copy() for a in state])
    graph, _ = _grouped(_amsgrad, *state)
    outs = lower(graph, backend=TVM)(*state)
    assert all(o is p for o, p in zip(outs[:4], state[:4]))  # written in place
    for o, w in zip(outs, want):
        np.testing.assert_allclose(o, w, rtol=1e-5, atol=1e-6)


def test_members_run_one_by_one_where_the_group_is_not_generated(monkeypatch):
    state = _state()
    graph, plain = _grouped(_two_parameters, *state)
    kernels.forget()
    monkeypatch.setattr(group_kernel, "function", lambda group: None)
    try:
        got = lower(graph, backend=TVM)(*state)
    finally:
        kernels.forget()
    for a, c in zip(got, lower(plain, backend=NUMPY)(*state)):
        np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-6)


_OPS = [lambda a, b: ops.add(a, b), lambda a, b: ops.mul(a, b),
        lambda a, b: ops.sub(ops.tanh(a), b),
        # exp of a tanh: an exp of an exp of ... would amplify each float32 ulp in which two
        # exps differ by the size of its argument (up to 88), past any fixed tolerance
        lambda a, b: ops.maximum(a, ops.exp(ops.tanh(b)))]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 9), st.integers(0, 9)),
                min_size=2, max_size=6),
       st.sampled_from([(4, 5), (1, 5), (4, 1)]))
def test_random_runs_equal_numpys(picks, other_shape):
    """Runs of chains reading the inputs and each other's results (broadcast or not)."""
    x, y = _rand(4, 5), _rand(*other_shape, seed=1)

    def fn(x, y):
        values = [x, y]
        for op, i, j in picks:
            values.append(_OPS[op](values[i % len(values)], values[j % len(values)]))
        return tuple(values[2:])
    graph, plain = _grouped(fn, x, y)
    got = lower(graph, backend=TVM)(x, y)
    for a, c in zip(got, lower(plain, backend=NUMPY)(x, y)):
        np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-6)


_BATCH_OPS = _OPS + [  # and a mean over the batch, broadcast back
    lambda a, b: ops.mul(ops.mean(ops.tanh(a), axis=(0,), keepdims=True), b)]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 9), st.integers(0, 9)),
                min_size=2, max_size=6),
       st.sampled_from(["full", "row", "column"]), st.integers(2, 9), st.integers(2, 9))
def test_random_runs_at_two_batch_sizes_share_their_functions(picks, other, n, m):
    """The same runs at two batch sizes: each group's generic key (what its function is
    generated for) is the same, and both equal NumPy."""
    from sporeling.tvm_backend.group import Group, generic_group

    def fn(x, y):
        values = [x, y]
        for op, i, j in picks:
            values.append(_BATCH_OPS[op](values[i % len(values)], values[j % len(values)]))
        return tuple(values[2:])

    def run(batch):
        x = _rand(batch, 5)
        y = {"full": _rand(batch, 5, seed=1), "row": _rand(1, 5, seed=1),
             "column": _rand(batch, 1, seed=1)}[other]
        graph, plain = _grouped(fn, x, y)
        for a, c in zip(lower(graph, backend=TVM)(x, y), lower(plain, backend=NUMPY)(x, y)):
            np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-6)
        return [generic_group(Group(eq.params["members"],
                                    tuple((tuple(v.aval.shape), v.aval.dtype.str)
                                          for v in eq.inputs)))
                for eq in graph.equations if eq.prim is fused_group_p]
    assert run(n) == run(m)


def test_off_by_the_context_key():
    from sporeling.core import set_context
    from sporeling.tvm_backend.group_pass import GROUP_KERNELS
    ctx = PassContext(backend=TVM)
    assert GROUP_KERNELS.enabled(ctx)
    set_context(tvm_group_kernels=False)
    assert not GROUP_KERNELS.enabled(ctx)
    assert fused_group_p.multiple_results and not fused_group_p.differentiable


@pytest.fixture(autouse=True)
def _forget():
    yield
    kernels.forget()
