"""Tensor-dependent Python control flow through ``jit`` and Graph-mode Cells (the AST front
end rewrites it into cond/while_loop/scan), and its errors reaching the user with the line."""
import inspect

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler import frontend
from sporeling.core import SporelingError
from sporeling.expression import nn


class Gate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 3)

    def construct(self, x):
        y = self.dense(x)
        if y.sum() > 0:
            y = y * 2.0
        else:
            y = -y
        return y


def test_tensor_if_in_a_graph_mode_cell_matches_pynative_on_both_branches():
    sx.set_seed(0)
    net = Gate()
    for sign in (1.0, -1.0):
        x = sx.Tensor(np.full((2, 3), sign, np.float32))
        eager = net(x)
        with sx.context(mode=sx.GRAPH_MODE):
            compiled = net(x)
        np.testing.assert_allclose(compiled.asnumpy(), eager.asnumpy(), rtol=1e-6)
    assert net.compile_cache_info()["compile_count"] == 1   # one graph serves both branches
    from sporeling.expression.graph.cell_call import cache_of
    assert "cond" in cache_of(net).last_graph.primitive_counts()


def halve_until_small(x):
    while x.sum() > 1.0:
        x = x * 0.5
    return x


def test_tensor_while_under_jit_matches_eager():
    x = sx.Tensor([3.0, 5.0])
    np.testing.assert_allclose(sx.jit(halve_until_small)(x).asnumpy(),
                               halve_until_small(x).asnumpy())


def test_grad_through_a_tensor_if_under_jit():
    sx.set_seed(0)
    net = Gate()
    vg = sx.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())
    x = sx.Tensor(np.full((2, 3), 0.5, np.float32))
    loss, grads = vg(x)
    jloss, jgrads = sx.jit(vg)(x)
    np.testing.assert_allclose(jloss.asnumpy(), loss.asnumpy(), rtol=1e-6)
    for a, b in zip(grads, jgrads):
        np.testing.assert_allclose(b.asnumpy(), a.asnumpy(), rtol=1e-6)


def branch_shapes(x):
    if x.sum() > 0:
        y = x
    else:
        y = x[:1]
    return y


def carry_dtype(x):
    i = 0
    while x.sum() < 10.0:
        x = x.astype(np.float64) * 2.0
        i += 1
    return x


def deletes(x):
    y = x
    if x.sum() > 0:
        del y
    return x


def _line(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("fn,line_text,error", [
    (branch_shapes, "if x.sum() > 0", SporelingError),
    (carry_dtype, "while x.sum()", SporelingError),
    (deletes, "del y", frontend.GraphSyntaxError),
])
def test_control_flow_errors_reach_the_user_with_file_and_line(fn, line_text, error):
    x = sx.Tensor([1.0, 2.0, 3.0])
    with pytest.raises(error) as info:
        sx.jit(fn)(x)
    text = str(info.value)
    assert f"{__file__}:" in text, text
    assert "Graph mode" in "".join(getattr(info.value, "__notes__", [])) + text

    class Wrapped(nn.Cell):
        def construct(self, x):
            return fn(x)

    with sx.context(mode=sx.GRAPH_MODE), pytest.raises(error) as info:
        Wrapped()(x)
    assert f"{__file__}:" in str(info.value)


def _scan_loss(w):
    def loss(x):
        def step(c, xi):
            return sx.ops.add(c, sx.ops.mul(xi, w)), c
        c, _ = sx.ops.scan(step, sx.ops.mul(x, 0.0), sx.ops.stack([x, x]))
        return sx.ops.sum(sx.ops.mul(c, c))
    return loss


def _cond_loss(w):
    def loss(x):
        return sx.ops.sum(sx.ops.cond(sx.ops.sum(x) > 0, lambda a: sx.ops.mul(a, w),
                                      lambda a: sx.ops.sub(a, w), x))
    return loss


@pytest.mark.parametrize("make_loss", [_scan_loss, _cond_loss])
def test_parameters_captured_by_control_flow_get_gradients_eagerly_and_under_jit(make_loss):
    w = sx.Parameter(np.array([2.0, 3.0], np.float32), name="w")
    x = sx.Tensor(np.array([1.0, -1.0], np.float32))
    g = sx.grad(make_loss(w), 0, [w])
    (gx, (gw,)), (jgx, (jgw,)) = g(x), sx.jit(g)(x)
    assert np.any(gw.asnumpy() != 0)
    np.testing.assert_allclose(jgx.asnumpy(), gx.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(jgw.asnumpy(), gw.asnumpy(), rtol=1e-6)
