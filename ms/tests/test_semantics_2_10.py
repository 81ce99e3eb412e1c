"""Behaviour of real MindSpore 2.10 (CPU wheel) that the facade matches (issue 22).

Every expected value below was printed by MindSpore 2.10 itself (a script run in its own
virtual environment); the numbers are recorded here so these tests need no MindSpore.
"""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import ops

X = np.array([[1.0, 5.0, 2.0], [7.0, 3.0, 7.0]], np.float32)
V = np.array([1.0, 2.0, 3.0], np.float32)


def T(a, dtype=None):
    return ms.Tensor(np.asarray(a) if dtype is None else np.asarray(a, dtype))


def check(got, dtype, expected):
    """``got`` (a Tensor) has MindSpore's dtype and values."""
    assert got.dtype == np.dtype(dtype), (got.dtype, dtype)
    np.testing.assert_allclose(got.asnumpy(), np.asarray(expected, got.dtype), rtol=1e-6)
    assert got.shape == np.shape(expected), (got.shape, np.shape(expected))


# ---- 1. ops.max / ops.min without an axis --------------------------------------------------

@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
def test_max_min_without_axis_give_the_value_and_index_0(graph):
    # 2.10: ops.max(x) -> (Float32 7.0, Int64 0); keepdims is ignored without an axis
    def run(x):
        return ops.max(x), ops.max(x, keepdims=True), ops.min(x)
    (v, i), (vk, ik), (mv, mi) = (ms.jit(run) if graph else run)(T(X))
    check(v, np.float32, 7.0)
    check(i, np.int64, 0)
    check(vk, np.float32, 7.0)
    check(ik, np.int64, 0)
    check(mv, np.float32, 1.0)
    check(mi, np.int64, 0)
    # a 1-d input: index 0 too (not the flat argmax 1)
    v, i = ops.max(T(np.array([1.0, 9.0, 3.0], np.float32)))
    check(v, np.float32, 9.0)
    check(i, np.int64, 0)


def test_max_min_with_an_axis_index_int64():
    v, i = ops.max(T(X), 1, True)
    check(v, np.float32, [[5.0], [7.0]])
    check(i, np.int64, [[1], [0]])
    v, i = ops.min(T(X), 0)
    check(i, np.int64, [0, 1, 0])
    v, i = ops.max(T(X), 1, where=T(np.array([[True, False, True], [True, True, False]])),
                   initial=0.0)
    check(v, np.float32, [2.0, 7.0])
    check(i, np.int64, [2, 0])
    v, i = ops.max(T(np.array([[1, 5], [9, 2]], np.int32)))
    check(v, np.int32, 9)
    check(i, np.int64, 0)


# ---- 2. ops.full ---------------------------------------------------------------------------

def test_full_defaults_to_int64_whatever_the_fill_value():
    # 2.10 (documented): full((2, 3), 1.2) is Int64 ones
    check(ops.full((2, 3), 1.5), np.int64, np.ones((2, 3)))
    check(ops.full((2,), True), np.int64, [1, 1])
    check(ops.full((2,), -1.5), np.int64, [-1, -1])
    check(ops.full([2], 3), np.int64, [3, 3])
    check(ops.full((2,), T(np.float32(2.5))), np.int64, [2, 2])
    check(ops.full((2,), 1, dtype=ms.int32), np.int32, [1, 1])
    check(ops.full((2,), 1.5, dtype=ms.float32), np.float32, [1.5, 1.5])


# ---- 3. ops.logsumexp(input, dim, keepdim=False) -------------------------------------------

def test_logsumexp_takes_dim_and_keepdim():
    lse = [[5.065884113311768], [7.702263355255127]]
    check(ops.logsumexp(T(X), 1, keepdim=True), np.float32, lse)
    check(ops.logsumexp(T(X), dim=1), np.float32, [row[0] for row in lse])
    check(ops.logsumexp(T(X), 1, True), np.float32, lse)
    with pytest.raises(TypeError):      # 2.10 refuses r2.3's keywords as well
        ops.logsumexp(T(X), 1, keep_dims=True)
    with pytest.raises(TypeError):
        ops.logsumexp(T(X), axis=1)


# ---- 4. index dtypes -----------------------------------------------------------------------

def test_index_dtypes_are_mindspores():
    x = T(X)
    check(ops.argmax(x), np.int64, 3)
    check(ops.argmax(x, 1, True), np.int64, [[1], [0]])
    check(ops.argmin(x), np.int32, 0)
    check(ops.argmin(x, 0), np.int32, [0, 1, 0])
    check(ops.argmin(x, keepdims=True), np.int32, 0)        # keepdims ignored without axis
    check(ops.argmin(T(np.float32(2.0))), np.int64, 0)       # a 0-d input: Tensor(0)
    values, indices = ops.topk(x, 2)
    check(values, np.float32, [[5.0, 2.0], [7.0, 7.0]])
    check(indices, np.int32, [[1, 2], [0, 2]])
    check(ops.topk(x, 1, dim=0)[1], np.int32, [[1, 0, 1]])
    values, indices = ops.sort(x)
    check(indices, np.int32, [[0, 2, 1], [1, 0, 2]])
    check(ops.argsort(x), np.int32, [[0, 2, 1], [1, 0, 2]])
    check(ops.argsort(x, descending=True), np.int32, [[1, 2, 0], [0, 2, 1]])
    check(ops.median(x)[1], np.int64, [2, 0])
    check(ops.nanmedian(x)[1], np.int64, [2, 0])
    check(ops.cummax(x, 1)[1], np.int64, [[0, 1, 1], [0, 0, 2]])
    check(ops.cummin(x, 1)[1], np.int32, [[0, 0, 0], [0, 1, 1]])
    check(ops.unique(T(np.array([3, 1, 3], np.int32)))[1], np.int32, [0, 1, 0])
    check(ops.unique(T(np.array([3.0, 1.0, 3.0], np.float32)))[1], np.int32, [0, 1, 0])
    check(ops.unique(T(np.array([3, 1, 3], np.int64)))[1], np.int64, [0, 1, 0])
    check(ops.searchsorted(T(np.array([1.0, 3.0, 5.0], np.float32)),
                           T(np.array([2.0, 5.0], np.float32))), np.int64, [1, 2])
    # primitives: Argmax/Argmin/TopK/Sort int32, ArgMaxWithValue int64
    check(ops.Argmax()(x), np.int32, [1, 0])
    check(ops.Argmin()(x), np.int32, [0, 1])
    check(ops.TopK()(x, 2)[1], np.int32, [[1, 2], [0, 2]])
    check(ops.Sort()(x)[1], np.int32, [[0, 2, 1], [1, 0, 2]])
    index, value = ops.ArgMaxWithValue()(x)
    check(index, np.int64, [1, 0, 1])
    check(value, np.float32, [7.0, 5.0, 7.0])


def test_int32_indices_keep_value_gradients_and_compile():
    x = T(np.array([[3.0, 1.0, 2.0], [0.5, 4.0, 2.5]], np.float32))

    def top_sum(t):
        values, indices = ops.topk(t, 2)
        return values.sum(), indices
    (total, indices) = ms.jit(top_sum)(x)
    check(indices, np.int32, [[0, 2], [1, 2]])
    assert float(total) == pytest.approx(11.5)      # 3 + 2 + 4 + 2.5
    check(ms.grad(lambda t: ops.sort(t)[0][:, 0].sum())(x), np.float32,
          [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])


# ---- 5. masked_select's gradient -----------------------------------------------------------

MASK = np.array([[True, False, True], [False, True, True]])


def test_masked_select_is_differentiable():
    x = T(X)
    check(ops.masked_select(x, T(MASK)), np.float32, [1.0, 2.0, 3.0, 7.0])
    g = ms.grad(lambda a: ops.masked_select(a, T(MASK)).sum())(x)
    check(g, np.float32, [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    w = T(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    g = ms.grad(lambda a: (ops.masked_select(a, T(MASK)) * w).sum())(x)
    check(g, np.float32, [[1.0, 0.0, 2.0], [0.0, 3.0, 4.0]])
    # a broadcast mask: the gradient sums over the copies it selects
    g = ms.grad(lambda a: (ops.masked_select(a, T(np.array([True, False, True]))) ** 2).sum())(x)
    check(g, np.float32, [[2.0, 0.0, 4.0], [14.0, 0.0, 14.0]])
    # a broadcast input
    g = ms.grad(lambda a: (ops.masked_select(a, T(MASK)) ** 2).sum())(T(V))
    check(g, np.float32, [2.0, 4.0, 12.0])


def test_masked_select_gradient_matches_central_differences():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4))
    mask = rng.random((3, 4)) > 0.4
    weights = rng.standard_normal(int(mask.sum()))

    def f(a):
        return (ops.sin(ops.masked_select(a, T(mask))) * T(weights)).sum()
    analytic = ms.grad(f)(T(x)).asnumpy()
    numeric = np.zeros_like(x)
    eps = 1e-6
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        numeric[i] = (float(f(T(up))) - float(f(T(down)))) / (2 * eps)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)


def test_masked_select_still_refuses_graph_mode():
    from sporeling.ms.common import EagerOnlyError
    with pytest.raises(EagerOnlyError):
        ms.jit(lambda a: ops.masked_select(a, T(MASK)))(T(X))


# ---- 6. implicit all-ones sensitivity ------------------------------------------------------

def cube(a):
    return a ** 3


def pair(a):
    return a * 2, a ** 2


def with_aux(a):
    return a ** 2, a + 1


def matmul_pair(x, y):
    z = ops.matmul(x, y)
    return z, z * 2


def matmul_pair_stopped(x, y):
    z, zz = matmul_pair(x, y)
    return z, ops.stop_gradient(zz)


XX = np.array([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], np.float32)
YY = np.array([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], np.float32)


def _grad_cases():
    """(name, function of the inputs, inputs, MindSpore 2.10's result)."""
    x, y = V, np.array([0.5, -1.0, 2.0], np.float32)
    w_value = np.array([1.0, 2.0, 3.0], np.float32)
    return [
        ("grad", lambda a: ms.grad(cube)(a), (x,), [3.0, 12.0, 27.0]),
        ("grad_two_positions", lambda a, b: ms.grad(lambda p, q: p * q, (0, 1))(a, b), (x, y),
         ([0.5, -1.0, 2.0], [1.0, 2.0, 3.0])),
        ("value_and_grad", lambda a: ms.value_and_grad(cube)(a), (x,),
         ([1.0, 8.0, 27.0], [3.0, 12.0, 27.0])),
        ("grad_tuple_output", lambda a: ms.grad(pair)(a), (x,), [4.0, 6.0, 8.0]),
        ("value_and_grad_tuple_output", lambda a: ms.value_and_grad(pair)(a), (x,),
         (([2.0, 4.0, 6.0], [1.0, 4.0, 9.0]), [4.0, 6.0, 8.0])),
        ("grad_has_aux", lambda a: ms.grad(with_aux, has_aux=True)(a), (x,),
         ([2.0, 4.0, 6.0], ([2.0, 3.0, 4.0],))),
        ("value_and_grad_has_aux", lambda a: ms.value_and_grad(with_aux, has_aux=True)(a), (x,),
         (([1.0, 4.0, 9.0], [2.0, 3.0, 4.0]), [2.0, 4.0, 6.0])),
        ("grad_of_grad", lambda a: ms.grad(ms.grad(cube))(a), (x,), [6.0, 12.0, 18.0]),
        ("grad_of_grad_of_grad", lambda a: ms.grad(ms.grad(ms.grad(cube)))(a), (x,),
         [6.0, 6.0, 6.0]),
        ("stop_gradient", lambda a, b: ms.grad(lambda p, q: p * ops.stop_gradient(q) + q,
                                               (0, 1))(a, b), (x, y),
         ([0.5, -1.0, 2.0], [1.0, 1.0, 1.0])),
        ("tutorial_matmul", lambda a, b: ms.grad(matmul_pair, (0, 1))(a, b), (XX, YY),
         ([[13.53, 8.1, 10.8]] * 2, [[7.8] * 3, [5.7] * 3, [3.9] * 3])),
        ("tutorial_stop_gradient", lambda a, b: ms.grad(matmul_pair_stopped, (0, 1))(a, b),
         (XX, YY), ([[4.51, 2.7, 3.6]] * 2, [[2.6] * 3, [1.9] * 3, [1.3] * 3])),
        ("GradOperation", lambda a: ops.GradOperation()(cube)(a), (x,), [3.0, 12.0, 27.0]),
        ("GradOperation_get_all", lambda a, b: ops.GradOperation(get_all=True)(
            lambda p, q: p * q)(a, b), (x, y), ([0.5, -1.0, 2.0], [1.0, 2.0, 3.0])),
        ("ops_grad", lambda a: ops.grad(cube)(a), (x,), [3.0, 12.0, 27.0]),
        ("weights", lambda a: _weights_case(a, w_value), (x,),
         ([1.0, 4.0, 9.0], ([1.0, 2.0, 3.0], ([1.0, 2.0, 3.0],)))),
    ]


def _weights_case(a, w_value):
    w = ms.Parameter(T(w_value), name="w")
    return ms.value_and_grad(lambda t: t * w, 0, [w])(a)


def assert_tree(got, expected):
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), (got, expected)
        for g, e in zip(got, expected):
            assert_tree(g, e)
        return
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.asnumpy(), np.asarray(expected, np.float32), rtol=1e-5)


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("name, fn, inputs, expected", _grad_cases(),
                         ids=[c[0] for c in _grad_cases()])
def test_non_scalar_outputs_get_an_all_ones_sensitivity(name, fn, inputs, expected, graph):
    run = ms.jit(fn) if graph else fn
    assert_tree(run(*(T(a) for a in inputs)), expected)


def test_ones_sensitivity_in_graph_mode_context():
    net = ms.nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        grads = ms.grad(net, None, net.trainable_params())(T(np.array([[1.0, 2.0, 3.0]],
                                                                      np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(grads[0].asnumpy(), [[1.0, 2.0, 3.0]] * 2)
    np.testing.assert_allclose(grads[1].asnumpy(), [1.0, 1.0])


def test_ones_sensitivity_in_wrapper_cells():
    net = ms.nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    data = T(np.array([[1.0, 2.0, 3.0]], np.float32))
    value, grads = ms.nn.ForwardValueAndGrad(net, net.trainable_params(), get_by_list=True)(data)
    np.testing.assert_allclose(value.asnumpy(), [[6.0, 6.0]])
    np.testing.assert_allclose(grads[1].asnumpy(), [1.0, 1.0])
    grads = ms.nn.WithGradCell(net)(data)
    np.testing.assert_allclose(grads[0].asnumpy(), [[1.0, 2.0, 3.0]] * 2)


def test_sens_param_and_sx_grad_keep_their_rules():
    # an explicit cotangent still weighs the output; sporeling.expression's own grad keeps
    # asking for a scalar output (its documented rule)
    import sporeling.expression as sx
    g = ops.GradOperation(sens_param=True)(cube)(T(V), T(np.array([1.0, 0.0, 2.0], np.float32)))
    np.testing.assert_allclose(g.asnumpy(), [3.0, 0.0, 54.0])
    with pytest.raises(sx.GradError, match="not a scalar"):
        sx.grad(cube)(T(V))


# ---- grad_position=(i,): the gradient itself, as for an int (found by ms/tests/oracle) -----------

def test_grad_of_a_one_position_tuple_is_the_tensor_not_a_1_tuple():
    x = T(X)
    net = ms.nn.Dense(3, 2)
    g = ms.grad(lambda a, b: a * b, grad_position=(0,))(x, x)
    assert isinstance(g, ms.Tensor)
    np.testing.assert_allclose(g.asnumpy(), X)
    value, g = ms.value_and_grad(lambda a: ops.sum(a * a), grad_position=(0,))(x)
    assert isinstance(g, ms.Tensor)
    g_in, g_w = ms.grad(lambda a: net(a), grad_position=(0,), weights=net.trainable_params())(x)
    assert isinstance(g_in, ms.Tensor) and isinstance(g_w, tuple) and len(g_w) == 2
    assert len(ms.grad(lambda a, b: a * b, grad_position=(0, 1))(x, x)) == 2
