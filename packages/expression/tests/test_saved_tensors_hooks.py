"""saved_tensors_hooks: values a recorded op keeps for backward are packed in the forward
pass and unpacked when the backward reads them (PyTorch's / MindSpore 2.10's semantics)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sporeling.expression as sx
from sporeling.core.errors import SporelingError
from sporeling.expression import Tensor, ops
from sporeling.expression.autograd import saved_tensors_hooks


def _logged():
    log = []

    def pack(t):
        assert isinstance(t, Tensor)
        log.append(("pack", t.asnumpy().copy()))
        return ("packed", t.asnumpy() + 1.0)  # any object, holding no reference to t

    def unpack(p):
        log.append(("unpack", p[1].copy()))
        return Tensor(p[1])
    return log, pack, unpack


def test_pack_runs_forward_unpack_runs_backward_and_the_rule_uses_the_unpacked_values():
    log, pack, unpack = _logged()
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))

    def f(a, b):
        with saved_tensors_hooks(pack, unpack):
            out = ops.mul(a, b)
        log.append(("forward end", None))
        return ops.sum(out)

    ga, gb = sx.grad(f, grad_position=(0, 1))(x, y)
    kinds = [k for k, _ in log]
    assert kinds == ["pack", "pack", "forward end", "unpack", "unpack"]
    # d(a*b)/da reads the saved b, which came back as b + 1
    np.testing.assert_allclose(ga.asnumpy(), [4.0, 5.0])
    np.testing.assert_allclose(gb.asnumpy(), [2.0, 3.0])


def test_without_hooks_nothing_changes_and_outside_the_block_nothing_is_packed():
    log, pack, unpack = _logged()
    x = Tensor(np.array([0.5, 1.5], np.float32))

    def f(a):
        with saved_tensors_hooks(pack, unpack):
            pass
        return ops.sum(ops.exp(a))

    np.testing.assert_allclose(sx.grad(f)(x).asnumpy(), np.exp([0.5, 1.5]), rtol=1e-6)
    assert log == []


def test_innermost_pair_wins():
    outer, inner = [], []

    def f(a):
        with saved_tensors_hooks(lambda t: outer.append(1) or t, lambda p: p):
            with saved_tensors_hooks(lambda t: inner.append(1) or t, lambda p: p):
                out = ops.exp(a)
            return ops.sum(out)

    sx.grad(f)(Tensor(np.ones(3, np.float32)))
    assert inner and not outer


@settings(max_examples=20, deadline=None)
@given(st.lists(st.floats(-2, 2, allow_nan=False, width=32), min_size=1, max_size=5))
def test_identity_hooks_give_the_plain_gradient(values):
    x = Tensor(np.array(values, np.float32))

    def plain(a):
        return ops.sum(ops.mul(ops.sin(a), a))

    def hooked(a):
        with saved_tensors_hooks(lambda t: t, lambda p: p):
            return plain(a)

    np.testing.assert_allclose(sx.grad(hooked)(x).asnumpy(), sx.grad(plain)(x).asnumpy())


def test_bad_hooks_and_bad_unpack_results_are_named():
    with pytest.raises(SporelingError, match="pack_hook must be callable"):
        saved_tensors_hooks(3, lambda p: p)

    def f(a):
        with saved_tensors_hooks(lambda t: t, lambda p: "not a tensor"):
            return ops.sum(ops.exp(a))

    with pytest.raises(SporelingError, match="unpack_hook must return a Tensor"):
        sx.grad(f)(Tensor(np.ones(2, np.float32)))


def test_refused_inside_a_jit_trace():
    @sx.jit
    def f(a):
        with saved_tensors_hooks(lambda t: t, lambda p: p):
            return a + 1

    with pytest.raises(SporelingError, match="PyNative code only"):
        f(Tensor(np.ones(2, np.float32)))
