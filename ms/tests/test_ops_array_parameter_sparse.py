"""ms.ops parameter operations (in-place updates of Parameters, also under Graph mode) and
sparse functions (COO/CSR containers) against NumPy/SciPy references."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.ms import ops
from sporeling.ms.common import EagerOnlyError
from sporeling.ms.ops.functional_array.sparse import COOTensor

from array_nn_checks import T, check_grad, value

M = np.arange(1.0, 13.0).reshape(3, 4)
ROWS, ROW_UPD = np.array([0, 2]), np.array([[10.0, 0.5, 2.0, -1.0], [3.0, 3.0, 3.0, 3.0]])
ND, ND_UPD = np.array([[0, 1], [2, 3]]), np.array([5.0, 0.5])


def _rows(op):
    out = M.copy()
    for r, u in zip(ROWS, ROW_UPD):
        out[r] = op(out[r], u)
    return out


def _nd(op):
    out = M.copy()
    for i, u in zip(ND, ND_UPD):
        out[tuple(i)] = op(out[tuple(i)], u)
    return out


PARAM_CASES = [
    ("assign", lambda p: ops.assign(p, T(M * 2)), M * 2),
    ("assign_add", lambda p: ops.assign_add(p, T(np.ones(4))), M + 1),
    ("assign_sub", lambda p: ops.assign_sub(p, T(M)), M * 0),
    ("scatter_add", lambda p: ops.scatter_add(p, T(ROWS), T(ROW_UPD)), _rows(np.add)),
    ("scatter_mul", lambda p: ops.scatter_mul(p, T(ROWS), T(ROW_UPD)), _rows(np.multiply)),
    ("scatter_div", lambda p: ops.scatter_div(p, T(ROWS), T(ROW_UPD)), _rows(np.divide)),
    ("scatter_max", lambda p: ops.scatter_max(p, T(ROWS), T(ROW_UPD)), _rows(np.maximum)),
    ("scatter_min", lambda p: ops.scatter_min(p, T(ROWS), T(ROW_UPD)), _rows(np.minimum)),
    ("scatter_update", lambda p: ops.scatter_update(p, T(ROWS), T(ROW_UPD)),
     _rows(lambda a, b: b)),
    ("scatter_nd_add", lambda p: ops.scatter_nd_add(p, T(ND), T(ND_UPD)), _nd(np.add)),
    ("scatter_nd_sub", lambda p: ops.scatter_nd_sub(p, T(ND), T(ND_UPD)), _nd(np.subtract)),
    ("scatter_nd_mul", lambda p: ops.scatter_nd_mul(p, T(ND), T(ND_UPD)), _nd(np.multiply)),
    ("scatter_nd_div", lambda p: ops.scatter_nd_div(p, T(ND), T(ND_UPD)), _nd(np.divide)),
    ("scatter_nd_max", lambda p: ops.scatter_nd_max(p, T(ND), T(ND_UPD)), _nd(np.maximum)),
    ("scatter_nd_min", lambda p: ops.scatter_nd_min(p, T(ND), T(ND_UPD)), _nd(np.minimum)),
]


@pytest.mark.parametrize("name, call, expected", PARAM_CASES, ids=[c[0] for c in PARAM_CASES])
def test_parameter_updated_in_place(name, call, expected):
    p = sx.Parameter(M.copy(), name="p")
    out = call(p)
    assert out is p
    np.testing.assert_allclose(value(p), expected)


def test_parameter_update_under_graph_mode_is_written_back():
    p = sx.Parameter(M.copy(), name="p")

    @sx.jit
    def step(x):
        ops.assign_add(p, x)
        return ops.scatter_nd_add(p, T(ND), T(ND_UPD)) * 1.0

    out = step(T(np.ones((3, 4))))
    np.testing.assert_allclose(value(p), _nd(np.add) + 1)
    np.testing.assert_allclose(value(out), _nd(np.add) + 1)


def test_scatter_on_a_plain_tensor_returns_a_new_one():
    t = T(M)
    out = ops.scatter_add(t, T(ROWS), T(ROW_UPD))
    np.testing.assert_allclose(value(t), M)
    np.testing.assert_allclose(value(out), _rows(np.add))
    check_grad(lambda a: ops.scatter_max(a, T(ROWS), T(ROW_UPD)), M + 0.25)


# ------------------------------------------------------------------------- sparse

DENSE = np.array([[0.0, 0.4, 0.0], [0.7, 0.0, 0.2]])
POS = DENSE[DENSE != 0]

_FNS = {
    "abs": np.abs, "acos": np.arccos, "acosh": lambda v: np.arccosh(v + 1.0),
    "asin": np.arcsin, "asinh": np.arcsinh, "atan": np.arctan, "atanh": np.arctanh,
    "ceil": np.ceil, "cos": np.cos, "cosh": np.cosh, "exp": np.exp, "expm1": np.expm1,
    "floor": np.floor, "inv": np.reciprocal, "isfinite": np.isfinite, "isinf": np.isinf,
    "isnan": np.isnan, "log": np.log, "log1p": np.log1p, "neg": np.negative,
    "relu": lambda v: np.maximum(v, 0), "relu6": lambda v: np.clip(v, 0, 6),
    "round": np.round, "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "sin": np.sin,
    "sinh": np.sinh, "softsign": lambda v: v / (1 + np.abs(v)), "sqrt": np.sqrt,
    "square": np.square, "tan": np.tan, "tanh": np.tanh,
}
SPARSE_CASES = [
    ("abs", ops.coo_abs, ops.csr_abs), ("acos", ops.coo_acos, ops.csr_acos),
    ("acosh", ops.coo_acosh, ops.csr_acosh), ("asin", ops.coo_asin, ops.csr_asin),
    ("asinh", ops.coo_asinh, ops.csr_asinh), ("atan", ops.coo_atan, ops.csr_atan),
    ("atanh", ops.coo_atanh, ops.csr_atanh), ("ceil", ops.coo_ceil, ops.csr_ceil),
    ("cos", ops.coo_cos, ops.csr_cos), ("cosh", ops.coo_cosh, ops.csr_cosh),
    ("exp", ops.coo_exp, ops.csr_exp), ("expm1", ops.coo_expm1, ops.csr_expm1),
    ("floor", ops.coo_floor, ops.csr_floor), ("inv", ops.coo_inv, ops.csr_inv),
    ("isfinite", ops.coo_isfinite, ops.csr_isfinite), ("isinf", ops.coo_isinf, ops.csr_isinf),
    ("isnan", ops.coo_isnan, ops.csr_isnan), ("log", ops.coo_log, ops.csr_log),
    ("log1p", ops.coo_log1p, ops.csr_log1p), ("neg", ops.coo_neg, ops.csr_neg),
    ("relu", ops.coo_relu, ops.csr_relu), ("relu6", ops.coo_relu6, ops.csr_relu6),
    ("round", ops.coo_round, ops.csr_round), ("sigmoid", ops.coo_sigmoid, ops.csr_sigmoid),
    ("sin", ops.coo_sin, ops.csr_sin), ("sinh", ops.coo_sinh, ops.csr_sinh),
    ("softsign", ops.coo_softsign, ops.csr_softsign), ("sqrt", ops.coo_sqrt, ops.csr_sqrt),
    ("square", ops.coo_square, ops.csr_square), ("tan", ops.coo_tan, ops.csr_tan),
    ("tanh", ops.coo_tanh, ops.csr_tanh),
]


@pytest.mark.parametrize("name, coo_fn, csr_fn", SPARSE_CASES, ids=[c[0] for c in SPARSE_CASES])
def test_elementwise_on_stored_values(name, coo_fn, csr_fn):
    shift = 1.0 if name == "acosh" else 0.0  # acosh needs values >= 1
    dense = np.where(DENSE != 0, DENSE + shift, 0.0)
    expected = _FNS[name](POS)
    coo = coo_fn(ops.dense_to_sparse_coo(T(dense)))
    np.testing.assert_allclose(value(coo.values), expected, rtol=1e-12)
    np.testing.assert_array_equal(value(coo.indices), np.argwhere(DENSE))
    csr = csr_fn(ops.dense_to_sparse_csr(T(dense)))
    np.testing.assert_allclose(value(csr.values), expected, rtol=1e-12)
    np.testing.assert_array_equal(value(csr.indptr), [0, 1, 3])


def test_conversions_and_layout():
    coo = ops.dense_to_sparse_coo(T(DENSE))
    np.testing.assert_array_equal(value(coo.to_dense()), DENSE)
    csr = ops.dense_to_sparse_csr(T(DENSE))
    np.testing.assert_array_equal(value(csr.indices), [1, 0, 2])
    np.testing.assert_array_equal(value(csr.to_dense()), DENSE)
    back = ops.csr_to_coo(csr)
    np.testing.assert_array_equal(value(back.indices), [[0, 1], [1, 0], [1, 2]])
    np.testing.assert_array_equal(value(back.to_dense()), DENSE)


def test_coo_add_and_concat():
    a = COOTensor(T([[0, 0], [1, 2]]), T([1.0, 2.0]), (2, 3))
    b = COOTensor(T([[0, 0], [0, 1]]), T([-1.0, 5.0]), (2, 3))
    total = ops.coo_add(a, b, T(0.5))
    np.testing.assert_array_equal(value(total.to_dense()), [[0.0, 5.0, 0.0], [0.0, 0.0, 2.0]])
    joined = ops.coo_concat((a, b), 1)
    assert joined.shape == (2, 6)
    np.testing.assert_array_equal(value(joined.to_dense()),
                                  np.hstack([value(a.to_dense()), value(b.to_dense())]))


def test_csr_add_mm_softmax():
    a = ops.dense_to_sparse_csr(T(DENSE))
    b = ops.dense_to_sparse_csr(T(DENSE[:, ::-1].copy()))
    np.testing.assert_allclose(value(ops.csr_add(a, b, T(2.0), T(-1.0)).to_dense()),
                               2 * DENSE - DENSE[:, ::-1])
    np.testing.assert_allclose(value(ops.csr_mm(a, T(np.ones((3, 2))))), DENSE @ np.ones((3, 2)))
    product = ops.csr_mm(a, ops.dense_to_sparse_csr(T(DENSE.T.copy())))
    np.testing.assert_allclose(value(product.to_dense()), DENSE @ DENSE.T)
    soft = ops.csr_softmax(a)
    e = np.exp(np.array([0.7, 0.2]))
    np.testing.assert_allclose(value(soft.values), [1.0, *(e / e.sum())])


def test_sparse_values_keep_gradients_and_conversions_are_eager_only():
    def loss(v):
        return ops.coo_sin(COOTensor(T([[0, 1], [1, 0]]), v, (2, 2))).to_dense().sum()
    grad = sx.grad(loss)(T([0.3, 1.2]))
    np.testing.assert_allclose(value(grad), np.cos([0.3, 1.2]))
    with pytest.raises(EagerOnlyError, match="ops.dense_to_sparse_coo"):
        sx.jit(lambda t: ops.dense_to_sparse_coo(t).values)(T(DENSE))
