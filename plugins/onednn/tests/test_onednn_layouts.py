"""Graph mode's layout pass (``onednn_layouts``): activations stay channel-blocked between
convolutions, batch norms, elementwise ops and channel reductions, and the results equal
the plain graph's to float32 rounding."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sporeling.compiler import ops
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.lowering import lower
from sporeling.compiler.passes import PassContext, optimize
from sporeling.compiler.transforms.graph_autodiff import value_and_grad_graph
from sporeling.core import set_context
from sporeling.runtime import get_backend

from sporeling.onednn.kernels.blocked import onednn_blocked, onednn_reorder
from sporeling.onednn.layouts import assign_layouts, block_size

ONEDNN = get_backend("onednn")
B = block_size()
pytestmark = pytest.mark.skipif(B is None, reason="oneDNN picks no channel block on this CPU")
RNG = np.random.default_rng(0)


def residual_block(x, w1, w2, gamma, beta):
    """conv -> batch norm (training statistics) -> relu -> conv -> + x -> relu -> mean:
    a ResNet block and its loss, every 4-d value with C a multiple of the block."""
    h, _, _ = ops.nn.batch_norm(ops.nn.conv2d(x, w1, padding=1), np.zeros(2 * B, np.float32),
                                np.ones(2 * B, np.float32), gamma, beta, training=True)
    h = ops.relu(ops.nn.conv2d(ops.relu(h), w2, padding=1))
    return ops.mean(ops.mul(ops.add(h, x), ops.add(h, x)))


def _inputs():
    c = 2 * B
    return (RNG.standard_normal((2, c, 6, 6)).astype(np.float32),
            (RNG.standard_normal((c, c, 3, 3)) * 0.2).astype(np.float32),
            (RNG.standard_normal((c, c, 3, 3)) * 0.2).astype(np.float32),
            RNG.uniform(0.5, 1.5, c).astype(np.float32), RNG.standard_normal(c).astype(np.float32))


def close(got, want):
    scale = max(float(np.abs(want).max()), 1.0)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * scale)


def test_a_training_step_keeps_activations_blocked_and_equals_the_plain_graph():
    args = _inputs()
    graph = value_and_grad_graph(make_graph(residual_block, *args), argnums=(0, 1, 2, 3, 4))
    ctx = PassContext()
    blocked = assign_layouts(graph, ctx)
    counts = blocked.primitive_counts()
    # 2 convolutions, 1 batch norm, 2 backward-data, 2 backward-weights
    assert counts["onednn_blocked"] == 7 and ctx.stats["onednn_layouts.blocked_ops"] == 7
    # the only reorders: x into the blocked layout, x's gradient out (a graph output); the
    # loss's mean reads the blocked array, its constant gradient is blocked at compile time
    assert counts["onednn_reorder"] == 2, counts
    want = evaluate(graph, *args)
    got = lower(blocked, backend=ONEDNN)(*args)
    for g, w in zip(got, want):
        close(g, w)


def lenet_block(x, w1, w2):
    """conv -> relu -> 2x2 max pooling -> conv -> relu -> max pooling -> a loss of the
    flattened result: LeNet's shape, the poolings reading blocked arrays."""
    h = ops.nn.max_pool2d(ops.relu(ops.nn.conv2d(x, w1, padding=1)), 2, 2)
    h = ops.nn.max_pool2d(ops.relu(ops.nn.conv2d(h, w2, padding=1)), 2, 2)
    flat = ops.reshape(h, (x.shape[0], -1))
    return ops.sum(ops.mul(flat, flat))


def test_max_pooling_and_its_gradient_run_on_the_blocked_arrays():
    c = 2 * B
    x = RNG.standard_normal((3, 1, 8, 8)).astype(np.float32)
    w1 = (RNG.standard_normal((c, 1, 3, 3)) * 0.5).astype(np.float32)
    w2 = (RNG.standard_normal((c, c, 3, 3)) * 0.2).astype(np.float32)
    x[0, 0, :2, :2] = 1.0  # a window of equal maxima: the first wins in both layouts
    graph = value_and_grad_graph(make_graph(lenet_block, x, w1, w2), argnums=(0, 1, 2))
    blocked = assign_layouts(graph, PassContext())
    ops_run = [(eq.params["op"], eq.params["blocks_in"]) for eq in blocked.equations
               if eq.prim.name == "onednn_blocked"]
    assert ("max_pool2d", (B,)) in ops_run and ("max_pool2d_scatter", (B, B)) in ops_run
    assert "max_pool2d" not in blocked.primitive_counts()
    # only the gradient reads the argmax: it is oneDNN's byte per output, never widened
    pools = [eq for eq in blocked.equations if eq.prim.name == "onednn_blocked" and
             eq.params["op"] == "max_pool2d"]
    assert [(eq.params.get("argmax"), str(eq.outputs[1].aval.dtype)) for eq in pools] == \
        [("bytes", "uint8")] * 2
    # the only reorders: the pooled result into the plain flatten, its gradient back
    assert blocked.primitive_counts()["onednn_reorder"] == 2, blocked.primitive_counts()
    want = evaluate(graph, x, w1, w2)
    got = lower(blocked, backend=ONEDNN)(x, w1, w2)
    for g, w in zip(got, want):
        close(g, w)


@settings(max_examples=25, deadline=None)
@given(kernel=st.integers(1, 3), stride=st.integers(1, 3), dilation=st.integers(1, 2),
       pad=st.booleans(), size=st.integers(5, 9), ties=st.booleans())
def test_blocked_max_pooling_equals_the_plain_graph_for_any_window(kernel, stride, dilation,
                                                                   pad, size, ties):
    """Forward and gradient, the argmax as oneDNN's bytes, for windows with padding,
    dilation and (rounded inputs) ties: the first maximum of each window wins in both."""
    x = RNG.standard_normal((2, 1, size, size)).astype(np.float32)
    w = (RNG.standard_normal((B, 1, 3, 3)) * 0.5).astype(np.float32)
    if ties:
        w = np.ones_like(w)  # every output pixel one value per image: windows all ties
    padding = kernel // 2 if pad else 0

    def fn(x, w):
        y = ops.nn.max_pool2d(ops.nn.conv2d(x, w, padding=1), kernel, stride, padding, dilation)
        return ops.sum(ops.mul(y, y))
    graph = value_and_grad_graph(make_graph(fn, x, w), argnums=(0, 1))
    blocked = assign_layouts(graph, PassContext())
    assert any(eq.params.get("argmax") == "bytes" for eq in blocked.equations
               if eq.prim.name == "onednn_blocked")
    for g, want in zip(lower(blocked, backend=ONEDNN)(x, w), evaluate(graph, x, w)):
        close(g, want)


def test_an_argmax_read_elsewhere_stays_int64_and_a_refused_call_gives_bytes(monkeypatch):
    from sporeling.onednn.kernels import blocked as kernels
    x = RNG.standard_normal((2, 1, 6, 6)).astype(np.float32)
    w = RNG.standard_normal((B, 1, 3, 3)).astype(np.float32)

    def pooled(x, w):  # the argmax is a result of the graph
        from sporeling.compiler import bind
        from sporeling.compiler.ops.nn.pooling import max_pool2d_p
        return bind(max_pool2d_p, ops.nn.conv2d(x, w, padding=1), kernel_size=(2, 2),
                    stride=(2, 2), padding=((0, 0), (0, 0)), dilation=(1, 1))
    graph = make_graph(pooled, x, w)
    blocked = assign_layouts(graph, PassContext())
    pool, = [eq for eq in blocked.equations if eq.prim.name == "onednn_blocked" and
             eq.params["op"] == "max_pool2d"]
    assert pool.params.get("argmax") is None and str(pool.outputs[1].aval.dtype) == "int64"
    for g, want in zip(lower(blocked, backend=ONEDNN)(x, w), evaluate(graph, x, w)):
        np.testing.assert_array_equal(g, want) if g.dtype.kind == "i" else close(g, want)

    xb = onednn_reorder(ONEDNN, RNG.standard_normal((2, B, 4, 4)).astype(np.float32),
                        block=B, to="blocked")
    params = (("dilation", (1, 1)), ("kernel_size", (2, 2)), ("padding", ((0, 0), (0, 0))),
              ("stride", (2, 2)))
    call = lambda: onednn_blocked(ONEDNN, xb, op="max_pool2d", params=params,  # noqa: E731
                                  blocks_in=(B,), blocks_out=(B, B), argmax="bytes")
    y, index = call()
    monkeypatch.setattr(kernels, "_PREPARED", {})
    monkeypatch.setattr(kernels, "_prepared", lambda *a: None)  # the general path
    monkeypatch.setattr(kernels, "_blocked_call", lambda *a: (_ for _ in ()).throw(
        kernels.OneDnnError("max_pool2d", "refused")))
    y2, index2 = call()  # the plain kernel's int64 argmax, as bytes
    assert index.dtype == index2.dtype == np.uint8
    np.testing.assert_array_equal(index, index2)
    close(y2, y)


def conv_layers(x, w1, b1, w2, b2):
    """conv + bias -> relu, conv -> relu, conv + bias, then a loss reading the last conv's
    input and result."""
    c = w1.shape[0]
    h = ops.relu(ops.add(ops.nn.conv2d(x, w1, padding=1), ops.reshape(b1, (1, c, 1, 1))))
    h = ops.relu(ops.nn.conv2d(h, w2, padding=1))
    y = ops.add(ops.nn.conv2d(h, w2, padding=1), ops.reshape(b2, (c, 1, 1)))
    return ops.add(ops.sum(ops.mul(y, y)), ops.sum(ops.mul(h, ops.tanh(y))))


def test_a_convolutions_bias_and_relu_become_its_epilogue():
    from sporeling.compiler.passes.fusion import fuse_elementwise
    from sporeling.onednn.layouts import fuse_epilogues
    c = 2 * B
    args = (RNG.standard_normal((2, 3, 6, 6)).astype(np.float32),
            (RNG.standard_normal((c, 3, 3, 3)) * 0.3).astype(np.float32),
            RNG.standard_normal(c).astype(np.float32),
            (RNG.standard_normal((c, c, 3, 3)) * 0.2).astype(np.float32),
            RNG.standard_normal(c).astype(np.float32))
    graph = value_and_grad_graph(make_graph(conv_layers, *args), argnums=(0, 1, 2, 3, 4))
    ctx = PassContext(backend=ONEDNN)
    fused = fuse_epilogues(fuse_elementwise(assign_layouts(graph, ctx), ctx), ctx)
    epilogues = sorted(eq.params.get("epilogue", ()) for eq in fused.equations
                       if eq.prim.name == "onednn_blocked" and eq.params["op"] == "conv2d")
    assert epilogues == [("bias",), ("bias", "relu"), ("relu",)], epilogues
    assert ctx.stats["onednn_epilogues.fused"] == 3
    conv = [eq for eq in fused.equations if eq.prim.name == "onednn_blocked" and
            eq.params.get("epilogue") == ("bias", "relu")][0]
    assert conv.prim.describe(**conv.params) == f"conv2d, blocked {B} + bias, relu"
    want = evaluate(graph, *args)
    got = lower(fused, backend=ONEDNN)(*args)
    for g, w in zip(got, want):
        close(g, w)


def test_a_dense_layers_bias_and_relu_become_its_matmuls_epilogue():
    """Products oneDNN runs (from MIN_MACS multiply-adds) take theirs; small ones stay
    NumPy's, their chains as they were."""
    from sporeling.compiler.passes.fusion import fuse_elementwise
    from sporeling.onednn.kernels.matmul import MIN_MACS
    from sporeling.onednn.layouts import fuse_epilogues
    n, k = 256, 256
    m = MIN_MACS // (k * n)
    x = RNG.standard_normal((m, k)).astype(np.float32)
    w1, w2 = (RNG.standard_normal((n, k)) * 0.05).astype(np.float32), \
        (RNG.standard_normal((10, n)) * 0.05).astype(np.float32)
    b1, b2 = RNG.standard_normal(n).astype(np.float32), RNG.standard_normal(10).astype(np.float32)

    def mlp(x, w1, b1, w2, b2):
        h = ops.relu(ops.add(ops.matmul(x, ops.transpose(w1, (1, 0))), b1))
        return ops.sum(ops.add(ops.matmul(h, ops.transpose(w2, (1, 0))), b2))
    args = (x, w1, b1, w2, b2)
    graph = value_and_grad_graph(make_graph(mlp, *args), argnums=(1, 2, 3, 4))
    ctx = PassContext(backend=ONEDNN)
    fused = fuse_epilogues(fuse_elementwise(graph, ctx), ctx)
    calls = [(eq.params["op"], eq.params["epilogue"]) for eq in fused.equations
             if eq.prim.name == "onednn_blocked"]
    assert calls == [("matmul", ("bias", "relu"))], calls
    for g, want in zip(lower(fused, backend=ONEDNN)(*args), evaluate(graph, *args)):
        close(g, want)


def test_an_epilogue_oneDNN_refuses_is_applied_after_the_plain_kernel(monkeypatch):
    from sporeling.onednn.kernels import blocked
    x = RNG.standard_normal((2, 3, 5, 5)).astype(np.float32)
    w = RNG.standard_normal((B, 3, 3, 3)).astype(np.float32)
    b = RNG.standard_normal(B).astype(np.float32)
    params = (("dilation", (1, 1)), ("groups", 1), ("padding", ((1, 1), (1, 1))),
              ("stride", (1, 1)))
    want = np.maximum(get_backend("numpy").run("conv2d", x, w, **dict(params)) +
                      b.reshape(1, -1, 1, 1), 0)
    call = lambda: onednn_blocked(ONEDNN, x, w, b, op="conv2d", params=params,  # noqa: E731
                                  blocks_in=(None, None, None), blocks_out=(B,),
                                  epilogue=("bias", "relu"))
    (served,) = call()
    close(onednn_reorder(ONEDNN, served, block=B, to="plain"), want)

    def refuse(*args, **kwargs):
        raise blocked.OneDnnError("conv2d", "refused")
    monkeypatch.setattr(blocked, "_PREPARED", {})
    monkeypatch.setattr(blocked, "_prepared", lambda *a: None)  # the general path
    monkeypatch.setattr(blocked, "_blocked_call", refuse)
    (fallback,) = call()
    close(onednn_reorder(ONEDNN, fallback, block=B, to="plain"), want)


def test_the_pass_runs_in_graph_mode_only_on_the_onednn_backend():
    graph = make_graph(residual_block, *_inputs())
    set_context(backend="onednn")
    assert "onednn_blocked" in optimize(graph, "O1").primitive_counts()
    set_context(onednn_layouts=False)
    assert "onednn_blocked" not in optimize(graph, "O1").primitive_counts()
    set_context(onednn_layouts=True, backend="numpy")
    assert "onednn_blocked" not in optimize(graph, "O1").primitive_counts()


def test_channels_the_block_does_not_divide_stay_plain():
    x = RNG.standard_normal((2, 3, 8, 8)).astype(np.float32)
    w = RNG.standard_normal((6, 3, 3, 3)).astype(np.float32)
    graph = make_graph(lambda x, w: ops.sum(ops.relu(ops.nn.conv2d(x, w))), x, w)
    assert assign_layouts(graph, PassContext()) is graph


@pytest.mark.parametrize("dtype", [np.float32, np.bool_])
def test_reorders_there_and_back(dtype):
    x = (RNG.standard_normal((2, 2 * B, 3, 5)) > 0).astype(dtype)
    blocked = onednn_reorder(ONEDNN, x, block=B, to="blocked")
    want = x.reshape(2, 2, B, 3, 5).transpose(0, 1, 3, 4, 2)
    np.testing.assert_array_equal(blocked, want)
    np.testing.assert_array_equal(onednn_reorder(ONEDNN, blocked, block=B, to="plain"), x)


def test_a_blocked_call_is_prepared_once_and_equals_the_general_path(monkeypatch):
    """A program's instruction passes the same static arguments every call: the second
    call of a convolution (with an epilogue), its gradients and a pooling runs the call
    prepared for them, which gives what the general path gives."""
    from sporeling.onednn.kernels import blocked
    monkeypatch.setattr(blocked, "_PREPARED", {})
    x = onednn_reorder(ONEDNN, RNG.standard_normal((2, B, 6, 6)).astype(np.float32),
                       block=B, to="blocked")
    w = RNG.standard_normal((B, B, 3, 3)).astype(np.float32)
    b = RNG.standard_normal(B).astype(np.float32)
    conv = (("dilation", (1, 1)), ("groups", 1), ("padding", ((1, 1), (1, 1))),
            ("stride", (1, 1)))
    pool = (("dilation", (1, 1)), ("kernel_size", (2, 2)), ("padding", ((0, 0), (0, 0))),
            ("stride", (2, 2)))
    calls = [((x, w, b), dict(op="conv2d", params=conv, blocks_in=(B, None, None),
                              blocks_out=(B,), epilogue=("bias", "relu"))),
             ((x, w), dict(op="conv_transpose2d", params=conv + (("output_padding", (0, 0)),),
                           blocks_in=(B, None), blocks_out=(B,))),
             ((x, x), dict(op="conv2d_weight_grad", params=conv + (("kernel_size", (3, 3)),),
                           blocks_in=(B, B), blocks_out=(None,))),
             ((x,), dict(op="max_pool2d", params=pool, blocks_in=(B,), blocks_out=(B, B),
                         argmax="bytes"))]
    for inputs, kw in calls:
        first = onednn_blocked(ONEDNN, *inputs, **kw)
        second = onednn_blocked(ONEDNN, *inputs, **kw)
        general = blocked._general(ONEDNN, inputs, kw["op"], dict(kw["params"]),
                                   kw["blocks_in"], kw["blocks_out"], kw.get("epilogue", ()),
                                   kw.get("argmax"))
        for f, s, g in zip(first, second, general):
            assert f.dtype == s.dtype == g.dtype and f.shape == g.shape
            close(s, g)
    y, index = onednn_blocked(ONEDNN, x, **calls[-1][1])
    scatter = dict(op="max_pool2d_scatter", blocks_in=(B, B), blocks_out=(B,),
                   params=pool + (("input_size", (6, 6)),))
    dx = onednn_blocked(ONEDNN, y, index, **scatter)[0]
    close(dx, blocked._general(ONEDNN, (y, index), "max_pool2d_scatter",
                               dict(scatter["params"]), (B, B), (B,), (), None)[0])
    prepared = [call for _, table in blocked._PREPARED.values() for call in table.values()]
    assert len(prepared) == 5 and None not in prepared


def test_a_blocked_call_onednn_cannot_serve_gives_the_plain_kernels_result():
    x = RNG.standard_normal((2, B, 4, 4)).astype(np.float32)
    xb = onednn_reorder(ONEDNN, x, block=B, to="blocked")
    # batch norm whose result is asked plain: no blocked kernel, so the plain path serves
    y, mean, var = onednn_blocked(ONEDNN, xb, op="normalize",
                                  params=(("axis", (0, 2, 3)), ("eps", 1e-5)),
                                  blocks_in=(B,), blocks_out=(None, None, None))
    want = get_backend("numpy").run("normalize", x, axis=(0, 2, 3), eps=1e-5)
    for g, w in zip((y, mean, var), want):
        close(g, w)
