"""The remaining primitive classes (ops/primitives/misc_table.py): collectives in a world of
one process, debugging and summaries, gradient hooks, control flow, recurrent cells,
Python-function and plumbing primitives, the PrimitiveWithInfer/Check bases."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core.errors import SporelingError
from sporeling.ms import ops

from array_nn_checks import T, value

RNG = np.random.default_rng(4)
X = RNG.standard_normal((2, 3))


@pytest.mark.parametrize("make", [
    lambda: ops.AllReduce(), lambda: ops.AllGather(), lambda: ops.ReduceScatter(),
    lambda: ops.Reduce(0), lambda: ops.AlltoAll(1, 0, 0), lambda: ops.CollectiveGather(0),
    lambda: ops.CollectiveScatter(0)])
def test_collectives_of_one_process_return_its_data(make):
    np.testing.assert_allclose(value(make()(T(X))), X)


def test_flat_and_tuple_collectives():
    np.testing.assert_allclose(value(ops.AllGatherV()(T(X), [6])), X.reshape(-1))
    np.testing.assert_allclose(value(ops.AlltoAllV()(T(X), [6], [6])), X.reshape(-1))
    np.testing.assert_allclose(value(ops.AlltoAllVC()(T(X))), X.reshape(-1))
    np.testing.assert_allclose(value(ops.ReduceScatterV()(T(X))), X)
    (out,) = ops.Broadcast(0)((T(X),))
    np.testing.assert_allclose(value(out), X)
    assert ops.Barrier()() is None


def test_assert_and_float_status():
    ops.Assert()(T(np.array(True)), [T(X)])
    with pytest.raises(SporelingError, match="assertion failed"):
        ops.Assert()(T(np.array([True, False])), [T(X)])
    assert value(ops.FloatStatus()(T(X))).tolist() == [0.0]
    assert value(ops.FloatStatus()(T(np.array([1.0, np.inf])))).tolist() == [1.0]


def test_tensor_dump_and_dump_gradient(tmp_path):
    ops.TensorDump()(str(tmp_path / "x"), T(X))
    np.testing.assert_allclose(np.load(tmp_path / "x_out.npy"), X)
    path = str(tmp_path / "g.npy")
    grad = ms.grad(lambda a: ops.ReduceSum()(ops.DumpGradient()(path, a * 3, "in") ** 2))(T(X))
    np.testing.assert_allclose(np.load(path), 2 * 3 * X)
    np.testing.assert_allclose(value(grad), 18 * X)


def test_insert_gradient_of_rewrites_the_gradient():
    clip = ops.InsertGradientOf(lambda g: ops.clip_by_value(g, -0.1, 0.1))
    grad = ms.grad(lambda a: ops.ReduceSum()(clip(a) * 5))(T(X))
    np.testing.assert_allclose(value(grad), np.full(X.shape, 0.1))


def test_summaries_are_recorded():
    from sporeling.ms.ops.primitives.misc_table import summaries
    ops.ScalarSummary()("loss", T(np.array(1.5)))
    ops.TensorSummary()("w", T(X))
    ops.HistogramSummary()("h", T(X))
    ops.ImageSummary()("img", T(X[None, None]))
    got = summaries()
    assert float(value(got[("Scalar", "loss")])) == 1.5 and ("Image", "img") in got
    with pytest.raises(SporelingError, match="name"):
        ops.ScalarSummary()("", T(X))


def test_control_flow():
    assert ops.ForiLoop()(0, 4, lambda i, v: v + i, 1) == 7
    assert value(ops.WhileLoop()(lambda v: v < 10, lambda v: v * 2, T(np.array(1)))) == 16
    carry, ys = ops.Scan()(lambda c, x: (c + x, c * x), T(np.array(0.0)), T(np.arange(4.0)))
    assert float(value(carry)) == 6.0
    np.testing.assert_allclose(value(ys), [0.0, 0.0, 2.0, 9.0])


def test_basic_lstm_cell_matches_the_formula():
    x, h, c = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 4)), RNG.standard_normal((2, 4))
    w, b = RNG.standard_normal((7, 16)), RNG.standard_normal(16)
    ct, ht, *_ = ops.BasicLSTMCell()(T(x), T(h), T(c), T(w), T(b))
    i, j, f, o = np.split(np.concatenate([x, h], 1) @ w + b, 4, 1)
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    expect_c = sig(f + 1.0) * c + sig(i) * np.tanh(j)
    np.testing.assert_allclose(value(ct), expect_c, rtol=1e-6)
    np.testing.assert_allclose(value(ht), np.tanh(expect_c) * sig(o), rtol=1e-6)


def _lstm_direction(x, h, c, w_ih, w_hh, b, reverse):
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    out = [None] * len(x)
    for t in (reversed(range(len(x))) if reverse else range(len(x))):
        i, f, g, o = np.split(x[t] @ w_ih.T + h @ w_hh.T + b, 4, 1)
        c = sig(f) * c + sig(i) * np.tanh(g)
        h = sig(o) * np.tanh(c)
        out[t] = h
    return np.stack(out), h, c


def test_lstm_matches_a_numpy_lstm():
    """Bidirectional, one layer; the flat weight holds w_ih, w_hh, b_ih, b_hh per direction."""
    x, h, c = (RNG.standard_normal(s) for s in ((5, 2, 3), (2, 2, 4), (2, 2, 4)))
    params = [[RNG.standard_normal(s) for s in ((16, 3), (16, 4), (16,), (16,))] for _ in "fb"]
    flat = np.concatenate([p.reshape(-1) for d in params for p in d])
    out, hn, cn, *_ = ops.LSTM(3, 4, 1, True, True, 0.0)(T(x), T(h), T(c), T(flat))
    runs = [_lstm_direction(x, h[d], c[d], p[0], p[1], p[2] + p[3], d == 1)
            for d, p in enumerate(params)]
    np.testing.assert_allclose(value(out), np.concatenate([runs[0][0], runs[1][0]], -1),
                               rtol=1e-10)
    np.testing.assert_allclose(value(hn), np.stack([runs[0][1], runs[1][1]]), rtol=1e-10)
    np.testing.assert_allclose(value(cn), np.stack([runs[0][2], runs[1][2]]), rtol=1e-10)


def test_rotary_and_kv_cache():
    q, k = RNG.standard_normal((1, 2, 4)), RNG.standard_normal((1, 2, 4))
    cos, sin = np.cos(RNG.standard_normal((1, 2, 4))), np.sin(RNG.standard_normal((1, 2, 4)))
    rq, _ = ops.ApplyRotaryPosEmb()(T(q), T(k), T(cos), T(sin), T(np.array([0])))
    rotate = np.concatenate([-q[..., 2:], q[..., :2]], -1)
    np.testing.assert_allclose(value(rq), q * cos + rotate * sin)
    cache = ms.Parameter(T(np.zeros((2, 2, 1, 3))), name="kc")
    vcache = ms.Parameter(T(np.zeros((2, 2, 1, 3))), name="vc")
    key = RNG.standard_normal((2, 1, 3))
    ops.ReshapeAndCache()(T(key), T(key * 2), cache, vcache, T(np.array([3, -1])))
    np.testing.assert_allclose(value(cache)[1, 1], key[0])
    assert np.all(value(cache)[0] == 0)
    np.testing.assert_allclose(value(vcache)[1, 1], 2 * key[0])


def test_python_function_and_plumbing_primitives():
    out = ops.PyFunc(lambda a, b: a + b, [ms.float64] * 2, [(2, 3)] * 2, [ms.float64], [(2, 3)])(
        T(X), T(X))
    np.testing.assert_allclose(value(out[0]), 2 * X)
    np.testing.assert_allclose(value(ops.Morph(lambda a: a * 2, None, None)(T(X))), 2 * X)
    add_one = ops.Partial()(lambda a, b: a + b, 1)
    assert add_one(2) == 3
    np.testing.assert_allclose(value(ops.MoveTo()(T(X), "CPU")), X)
    np.testing.assert_allclose(value(ops.Reshard(None)(T(X))), X)
    assert ops.UpdateState()("u", T(X)) == "u"
    assert ops.DtypeToEnum()("op", "arg", ms.float32) == 43
    np.testing.assert_allclose(value(ops.TransposeView()(T(X), (1, 0))), X.T)
    np.testing.assert_allclose(value(ops.TransposeExtView()(T(X), 0, 1)), X.T)
    np.testing.assert_allclose(value(ops.SelectView()(T(X), 1, 1)), X[:, 1])


def test_primitive_with_infer_and_check():
    class Double(ops.PrimitiveWithInfer):
        def __init__(self):
            super().__init__("Double")
            self.init_prim_io_names(["x"], ["y"])

        def infer_value(self, x):
            return x * 2

    assert isinstance(Double(), ops.Primitive)
    np.testing.assert_allclose(value(Double()(T(X))), 2 * X)
    with pytest.raises(SporelingError, match="computes nothing"):
        ops.PrimitiveWithInfer("Bare")(T(X))

    class Checked(ops.PrimitiveWithCheck):
        def check_shape(self, shape):
            if len(shape) != 2:
                raise ValueError("2-d only")

        def infer_value(self, x):
            return x

    with pytest.raises(ValueError, match="2-d only"):
        Checked("C")(T(X[0]))


def test_collectives_refuse_a_group_of_several_processes(monkeypatch):
    from sporeling.ms import communication as comm
    monkeypatch.setattr(comm.GlobalComm, "INITED", True)
    monkeypatch.setattr(comm, "get_group_size", lambda group=None: 4)
    with pytest.raises(SporelingError, match="one process"):
        ops.AllReduce()(T(X))
