"""``jit``: compilation, the compile cache and its recompilations, grad inside, methods."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn, ops


def t(*shape, seed=0, dtype=np.float32):
    return sx.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype))


def test_jit_matches_eager_and_caches_per_signature():
    def f(x, y, scale):
        return ops.tanh(x * y) * scale + x

    g = sx.jit(f, jit_level="O1")  # the kernels eager runs: equal to the last bit
    x, y = t(3, 4), t(3, 4, seed=1)
    np.testing.assert_array_equal(g(x, y, 2.0).asnumpy(), f(x, y, 2.0).asnumpy())
    # the default level: generated loops where installed (they round differently)
    np.testing.assert_allclose(sx.jit(f)(x, y, 2.0).asnumpy(), f(x, y, 2.0).asnumpy(),
                               rtol=1e-6, atol=1e-7)
    g(t(3, 4, seed=2), y, 2.0)                      # same signature: cached
    assert g.compile_count == 1
    g(t(5, 4), t(5, 4), 2.0)                        # new shape
    assert g.compile_count == 2
    g(x, y, 3.0)                                    # new static argument
    assert g.compile_count == 3
    out = g(x.astype(sx.float64), y.astype(sx.float64), 2.0)   # new dtype
    assert g.compile_count == 4 and out.dtype == np.float64
    g(x, y, 3.0)
    assert g.compile_count == 4
    assert g.compile_cache_info()["entries"] == 4


def test_jit_keeps_the_output_structure_and_static_outputs():
    @sx.jit
    def f(x):
        return {"sum": x.sum(), "pair": (x * 2.0, "label"), "n": x.shape[0]}

    out = f(np.ones((3, 2), np.float32))
    assert float(out["sum"]) == 6.0 and out["pair"][1] == "label" and out["n"] == 3
    assert isinstance(out["pair"][0], sx.Tensor)


def test_jit_of_value_and_grad_compiles_forward_and_backward_into_one_graph():
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 3))
    loss_net = nn.WithLossCell(net, nn.CrossEntropyLoss())
    vg = sx.value_and_grad(loss_net, None, net.trainable_params())
    x, y = t(5, 4), sx.Tensor(np.array([0, 1, 2, 1, 0], np.int32))
    loss, grads = vg(x, y)
    jloss, jgrads = sx.jit(vg)(x, y)
    np.testing.assert_allclose(jloss.asnumpy(), loss.asnumpy(), rtol=1e-6)
    for a, b in zip(grads, jgrads):
        np.testing.assert_allclose(b.asnumpy(), a.asnumpy(), rtol=1e-5, atol=1e-7)
    jitted = sx.jit(vg)
    jitted(x, y)
    counts = jitted.last_graph.primitive_counts()
    assert counts["relu"] == 1 and counts["relu_grad"] == 1       # forward and backward
    assert counts["matmul"] >= 2 + 3                               # 2 forward, 3 backward
    assert len(jitted.last_graph.outputs) == 1 + len(grads)


def test_parameters_are_graph_inputs_so_weight_updates_need_no_recompilation():
    net = nn.Dense(3, 2)
    f = sx.jit(lambda x: net(x))
    x = t(4, 3)
    before = f(x).asnumpy().copy()
    net.weight.set_data(sx.Tensor(net.weight.asnumpy() * 2.0))
    net.bias.asnumpy()[...] = 1.0                   # in place, as the optimizers write
    after = f(x).asnumpy()
    np.testing.assert_allclose(after, net(x).asnumpy(), rtol=1e-6)
    assert not np.allclose(before, after) and f.compile_count == 1
    assert len(f.last_graph.inputs) == 3            # x, weight, bias: no other Parameter


def test_replacing_a_parameter_or_its_shape_recompiles():
    net = nn.Dense(3, 2)
    f = sx.jit(lambda x: net(x))
    f(t(4, 3))
    net.weight = sx.Parameter(np.zeros((2, 3), np.float32), name="weight")
    np.testing.assert_allclose(f(t(4, 3)).asnumpy(), net(t(4, 3)).asnumpy())
    assert f.compile_count == 2
    net.bias.set_data(sx.Tensor(np.zeros(1, np.float32)), slice_shape=True)
    f(t(4, 3))
    assert f.compile_count == 3


def test_training_flag_is_part_of_the_key():
    net = nn.SequentialCell(nn.Dense(3, 4), nn.BatchNorm1d(4))
    f = sx.jit(lambda x: net(x))
    x = t(6, 3)
    f(x)
    net.set_train(True)
    np.testing.assert_allclose(f(x).asnumpy(), net(x).asnumpy(), rtol=1e-5, atol=1e-6)
    assert f.compile_count == 2
    net.set_train(False)
    f(x)
    assert f.compile_count == 2                     # the eval graph is still cached


def test_jit_on_methods_has_a_cache_per_instance():
    class Scaled(nn.Cell):
        def __init__(self, k):
            super().__init__()
            self.dense = nn.Dense(2, 2)
            self.k = k

        @sx.jit
        def construct(self, x):
            return self.dense(x) * self.k

    a, b = Scaled(2.0), Scaled(3.0)
    x = t(3, 2)
    np.testing.assert_allclose(a(x).asnumpy(), (a.dense(x) * 2.0).asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(b(x).asnumpy(), (b.dense(x) * 3.0).asnumpy(), rtol=1e-6)
    a(x)
    assert a.construct.compile_count == 1 and b.construct.compile_count == 1
    assert Scaled.construct.compile_count == 0      # the unbound function compiles nothing


def test_jit_inside_pynative_grad_runs_on_the_tape():
    f = sx.jit(lambda x: (x * x).sum())
    g = sx.grad(f)(sx.Tensor([1.0, 2.0]))
    np.testing.assert_allclose(g.asnumpy(), [2.0, 4.0])
    assert f.compile_count == 0


def test_nested_jit_is_inlined():
    inner = sx.jit(lambda x: x * 2.0)
    outer = sx.jit(lambda x: inner(x) + 1.0)
    np.testing.assert_allclose(outer(sx.Tensor([1.0])).asnumpy(), [3.0])
    assert outer.compile_count == 1 and inner.compile_count == 0


def test_jit_rejects_non_callables():
    with pytest.raises(sx.GradError.__mro__[1]):    # SporelingError
        sx.jit(3)
