"""A tensor-dependent ``if`` whose branches write Parameters under ``jit`` (MindSpore's
loss-scaling tutorial: ``if is_finite: optimizer(grads)``): the writes are threaded through
the ``cond`` as its variables -- the taken branch's values land, the other branch's do not --
and the compiled step equals the eager one on both branches."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn, ops


def _net_and_step(compiled: bool):
    sx.set_seed(0)
    net = nn.Dense(3, 2)
    opt = nn.SGD(net.trainable_params(), 0.1, momentum=0.9)
    grad_fn = sx.value_and_grad(lambda x: (net(x) ** 2).sum(), None, opt.parameters)
    skipped = sx.Parameter(np.zeros((), np.int32), name="skipped", requires_grad=False)

    def step(x):
        loss, grads = grad_fn(x)
        finite = ops.all(ops.isfinite(loss))
        if finite:
            opt(grads)
        else:
            skipped.set_data(skipped + 1)
        return loss
    return net, opt, skipped, (sx.jit(step) if compiled else step)


@pytest.mark.parametrize("inputs", [[1.0, 1.0, 1.0], [1.0, np.inf, 1.0, 0.5, np.nan, 1.0]])
def test_a_guarded_optimizer_step_equals_the_eager_one(inputs):
    results = []
    for compiled in (False, True):
        net, opt, skipped, step = _net_and_step(compiled)
        for v in inputs:
            step(sx.Tensor(np.full((4, 3), v, np.float32)))
        results.append([net.weight.asnumpy(), net.bias.asnumpy(), int(skipped.asnumpy()),
                        *[s.asnumpy() for s in opt.state_parameters()]])
    for eager, graph in zip(*results):
        np.testing.assert_allclose(graph, eager, rtol=1e-5, atol=1e-7)
    assert results[1][2] == sum(not np.isfinite(v) for v in inputs)


def test_both_branches_write_one_parameter_and_nest():
    p = sx.Parameter(np.array([1.0, 2.0], np.float32), name="p")

    def f(x):
        y = x * 2
        if x.sum() > 0:
            p.set_data(p * 3)
            if x.max() > 5:
                p.set_data(p + 100)
                y = y + 1
        else:
            p.set_data(p - 1)
        return y

    eager_p = sx.Parameter(np.array([1.0, 2.0], np.float32), name="q")
    compiled = sx.jit(f)
    for x in ([1.0, 1.0], [-1.0, -2.0], [3.0, 9.0]):
        before = p.asnumpy().copy()
        y = compiled(sx.Tensor(np.array(x, np.float32)))
        want = before * 3 + (100 if max(x) > 5 else 0) if sum(x) > 0 else before - 1
        np.testing.assert_allclose(p.asnumpy(), want, rtol=1e-6)
        np.testing.assert_allclose(y.asnumpy(), np.array(x) * 2 + (max(x) > 5 and sum(x) > 0))
    assert eager_p.asnumpy().tolist() == [1.0, 2.0]
