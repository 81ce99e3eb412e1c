"""autocast: context manager, decorator, the helper shape, nesting, gradients, threads and
Graph mode."""
import threading

import numpy as np

import sporeling.expression as sx
from sporeling import amp
from sporeling.expression import ops
from sporeling.expression.tensor.tensor import Tensor

W = np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32)


def f(x):
    return ops.softmax(x @ x, axis=-1), ops.exp(x), x @ x + x


def test_context_manager_white_low_black_float32_promote_widest():
    x = sx.Tensor(W)
    with amp.autocast(dtype=sx.float16):
        soft, e, lin = f(x)
        low = x.astype(sx.float16)
        assert ops.exp(low).dtype == np.float32          # black: cast up
        assert (low @ x).dtype == np.float16              # white: cast down
    assert soft.dtype == np.float32 and e.dtype == np.float32
    assert lin.dtype == np.float32                        # f16 matmul + f32 promotes
    assert (x @ x).dtype == np.float32                    # outside: untouched
    np.testing.assert_allclose(soft.asnumpy(), f(x)[0].asnumpy(), atol=2e-3)


def test_decorator_and_helper_shape_and_disabled():
    x = sx.Tensor(W)
    assert amp.autocast(dtype=sx.bfloat16)(lambda v: v @ v)(x).dtype == sx.bfloat16
    assert amp.autocast(lambda v: v @ v)(x).dtype == np.float16
    assert amp.autocast(lambda v: v @ v, enabled=False)(x).dtype == np.float32
    with amp.autocast("cpu", dtype=sx.float16):         # PyTorch's device_type: ignored
        with amp.autocast(enabled=False):
            assert (x @ x).dtype == np.float32
        assert (x @ x).dtype == np.float16
    assert Tensor._interpreter.__class__.__name__ == "PyNativeInterpreter"  # restored


def test_gradients_reach_float32_values():
    w = sx.Parameter(sx.Tensor(W), name="w")
    g = sx.grad(amp.autocast(lambda x: (x @ w).sum()), None, [w])(np.ones((2, 4), np.float32))
    assert g[0].dtype == np.float32
    np.testing.assert_allclose(g[0].asnumpy(), np.full((4, 4), 2.0))


def test_policies_are_per_thread():
    x, seen = sx.Tensor(W), {}

    def other():
        seen["other"] = (x @ x).dtype
    with amp.autocast():
        t = threading.Thread(target=other)
        t.start()
        t.join()
        seen["here"] = (x @ x).dtype
    assert seen == {"other": np.float32, "here": np.float16}


def test_graph_mode_jit_records_the_casts():
    @sx.jit
    @amp.autocast
    def g(x):
        return ops.exp(x @ x).sum()
    x = sx.Tensor(W * 0.1)
    out = g(x)
    names = [eq.prim.name for eq in g.last_graph.equations]
    assert names.count("cast") >= 2 and out.dtype == np.float32
    assert [eq.outputs[0].aval.dtype for eq in g.last_graph.equations
            if eq.prim.name == "matmul"] == [np.float16]
    np.testing.assert_allclose(float(out), float(ops.exp(x @ x).sum()), rtol=2e-3)


def test_a_jit_function_recompiles_under_autocast_and_after_a_level_change():
    import numpy as np
    import sporeling.expression as sx
    from sporeling.amp import autocast

    @sx.jit
    def f(x, w):
        return sx.ops.matmul(x, w)

    x = sx.Tensor(np.ones((2, 3), np.float32))
    w = sx.Tensor(np.ones((3, 4), np.float32))
    f(x, w)
    with autocast(dtype=sx.float16):
        f(x, w)
        assert "float16" in str(f.last_graph)
    f(x, w)
    assert f.compile_count == 2  # the float32 graph is reused after the block
