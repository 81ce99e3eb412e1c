"""Issue 22: Cell hooks (PyNative) and ``ops.HookBackward``. Every expected value and call
log below was produced by the same program on MindSpore 2.10 (CPU)."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.d(x) * 3


def _l(ts):
    return [None if t is None else t.asnumpy().tolist() for t in ts]


X = [[1.0, 2.0]]


def test_hook_signatures_and_handles():
    import inspect
    sig = {n: str(inspect.signature(getattr(nn.Cell, n))) for n in (
        "register_forward_pre_hook", "register_forward_hook", "register_backward_hook",
        "register_backward_pre_hook")}
    assert sig == {  # 2.10's
        "register_forward_pre_hook": "(self, hook_fn, *, prepend=False, with_kwargs=False)",
        "register_forward_hook": "(self, hook_fn, *, prepend=False, with_kwargs=False, "
                                 "always_call=False)",
        "register_backward_hook": "(self, hook_fn)",
        "register_backward_pre_hook": "(self, hook_fn)"}
    h = nn.Dense(2, 2).register_forward_hook(lambda c, a, o: None)
    assert hasattr(h, "remove") and hasattr(h, "handle_id")
    with pytest.raises(TypeError):
        nn.Dense(2, 2).register_forward_hook(3)


def test_forward_and_backward_hooks_as_2_10():
    net, log = Net(), []
    handles = [
        net.d.register_forward_pre_hook(
            lambda c, a: log.append(("pre", type(c).__name__, len(a), a[0].asnumpy().tolist()))),
        net.d.register_forward_hook(lambda c, a, o: log.append(("fwd", o.asnumpy().tolist()))),
        net.d.register_backward_hook(
            lambda c, gi, go: log.append(("bwd", type(gi).__name__, _l(gi), _l(go)))),
        net.d.register_backward_pre_hook(lambda c, go: log.append(("bpre", _l(go)))),
    ]
    x = ms.Tensor(X)
    assert net(x).asnumpy().tolist() == [[9.0, 9.0]]
    assert log == [("pre", "Dense", 1, [[1.0, 2.0]]), ("fwd", [[3.0, 3.0]])]
    log.clear()
    assert ms.grad(net)(x).asnumpy().tolist() == [[6.0, 6.0]]
    assert log == [("pre", "Dense", 1, [[1.0, 2.0]]), ("fwd", [[3.0, 3.0]]),
                   ("bpre", [[[3.0, 3.0]]]),
                   ("bwd", "tuple", [[[6.0, 6.0]]], [[[3.0, 3.0]]])]
    log.clear()
    for h in handles:
        h.remove()
    h.remove()  # twice is fine
    assert net(x).asnumpy().tolist() == [[9.0, 9.0]]
    assert ms.grad(net)(x).asnumpy().tolist() == [[6.0, 6.0]] and log == []


def test_hooks_replace_values_as_2_10():
    net, x = Net(), ms.Tensor(X)
    h = net.d.register_forward_pre_hook(lambda c, a: (a[0] * 2,))
    assert net(x).asnumpy().tolist() == [[18.0, 18.0]]
    h.remove()
    h = net.d.register_forward_hook(lambda c, a, o: o + 1)
    assert net(x).asnumpy().tolist() == [[12.0, 12.0]]
    h.remove()
    h = net.d.register_backward_hook(lambda c, gi, go: (gi[0] * 10,))
    assert ms.grad(net)(x).asnumpy().tolist() == [[60.0, 60.0]]
    h.remove()
    h = net.d.register_backward_pre_hook(lambda c, go: (go[0] * 10,))
    assert ms.grad(net)(x).asnumpy().tolist() == [[60.0, 60.0]]
    h.remove()
    log = []
    h = net.d.register_forward_pre_hook(lambda c, a, k: log.append(("kw", k)), with_kwargs=True)
    net(x)
    assert log == [("kw", {})]


def test_weights_only_grad_keeps_parameter_gradients():
    # 2.10: grad w.r.t. the weights only: [[3, 6], [3, 6]] and [3, 3]; the backward hook
    # still runs, with grad_input (None,)
    net, log = Net(), []
    net.d.register_backward_hook(lambda c, gi, go: log.append(("bwd", _l(gi))))
    net.d.register_backward_pre_hook(lambda c, go: log.append(("bpre", _l(go))))
    g = ms.grad(net, grad_position=None, weights=net.trainable_params())(ms.Tensor(X))
    assert _l(g) == [[[3.0, 6.0], [3.0, 6.0]], [3.0, 3.0]]
    assert log == [("bpre", [[[3.0, 3.0]]]), ("bwd", [None])]


def test_hooks_do_not_run_under_jit():
    # 2.10: a forward hook is not called when the cell runs inside @ms.jit
    net, log = nn.Dense(2, 2, weight_init="ones", bias_init="zeros"), []
    net.register_forward_hook(lambda c, a, o: log.append("fwd"))
    out = ms.jit(lambda x: net(x) * 2)(ms.Tensor(X))
    assert out.asnumpy().tolist() == [[6.0, 6.0]] and log == []


def test_hook_backward_as_2_10():
    seen = []
    hb = ops.HookBackward(lambda g: seen.append(_l(g)))

    def f(a):
        b = hb(a * 2)
        return (b * b).sum()

    assert ms.grad(f)(ms.Tensor([1.0, 2.0])).asnumpy().tolist() == [8.0, 16.0]
    assert seen == [[[4.0, 8.0]]]  # 2.10: (Tensor([4, 8]),)
    hb2 = ops.HookBackward(lambda g: (g[0] * 0 + 1,))  # the result replaces the gradient
    assert ms.grad(lambda a: (hb2(a * 2) * 3).sum())(ms.Tensor([1.0, 2.0])).asnumpy().tolist() \
        == [2.0, 2.0]
    counts = []
    hb3 = ops.HookBackward(lambda g: counts.append(len(g)))

    def f2(a, b):
        c, d = hb3(a * 2, b * 3)
        return (c * d).sum()

    ga, gb = ms.grad(f2, grad_position=(0, 1))(ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 1.0]))
    assert ga.asnumpy().tolist() == [6.0, 6.0] and gb.asnumpy().tolist() == [6.0, 12.0]
    assert counts == [2]
