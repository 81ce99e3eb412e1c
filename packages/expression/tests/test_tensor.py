"""Tensor: construction and dtypes, repr, conversions, operators with promotion."""
import copy
import pickle

import ml_dtypes
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import DTypeError, SporelingError
from sporeling.runtime import get_default_pool
from sporeling.runtime.memory import owner_of


@pytest.mark.parametrize("data, dtype", [
    (1.5, np.float32), ([1.0, 2.0], np.float32), (3, np.int64), ([[1, 2]], np.int64),
    (True, np.bool_), (np.float64(2.0), np.float64), (np.arange(3, dtype=np.int32), np.int32),
    (np.ones(2, np.float16), np.float16),
])
def test_python_data_takes_default_dtypes_and_numpy_keeps_its_own(data, dtype):
    t = sx.Tensor(data)
    assert t.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(t.asnumpy(), np.asarray(data))


def test_construction_copies_into_the_pool():
    source = np.arange(4.0, dtype=np.float32)
    t = sx.Tensor(source)
    source[0] = 100.0
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert owner_of(t.asnumpy()) is not None and get_default_pool().owns(t.asnumpy())
    assert sx.Tensor(t).asnumpy() is not t.asnumpy()


def test_dtype_argument_shape_argument_and_errors():
    assert sx.Tensor([1, 2], dtype=sx.float16).dtype == np.float16
    assert sx.Tensor([1.0], dtype="bfloat16").dtype == sx.bfloat16
    assert sx.Tensor(shape=(2, 3), dtype=sx.int32).asnumpy().tolist() == [[0, 0, 0]] * 2
    with pytest.raises(SporelingError, match="needs data or a shape"):
        sx.Tensor()
    with pytest.raises(SporelingError, match="cannot build a Tensor"):
        sx.Tensor([[1.0], [2.0, 3.0]])
    with pytest.raises(DTypeError, match="unsupported dtype"):
        sx.Tensor(np.ones(2, ml_dtypes.int4))


def test_properties():
    t = sx.Tensor(np.zeros((2, 3, 4), np.float32))
    assert (t.shape, t.ndim, t.size, t.itemsize, t.nbytes) == ((2, 3, 4), 3, 24, 4, 96)
    assert t.T.shape == (4, 3, 2)
    assert len(t) == 2 and [r.shape for r in t] == [(3, 4), (3, 4)]
    with pytest.raises(SporelingError, match="0-d"):
        len(sx.Tensor(1.0))


def test_repr_follows_mindspore():
    assert repr(sx.Tensor([[1.0, 2.0], [3.0, 4.0]])) == \
        "Tensor(shape=[2, 2], dtype=Float32, value=\n[[1., 2.],\n [3., 4.]])"
    assert repr(sx.Tensor(3)) == "Tensor(shape=[], dtype=Int64, value= 3)"
    assert repr(sx.Tensor([True])) == "Tensor(shape=[1], dtype=Bool, value= [ True])"
    assert "dtype=BFloat16" in repr(sx.Tensor([1.5], dtype=sx.bfloat16))


def test_conversions():
    t = sx.Tensor([[1.5, -2.0]])
    assert np.asarray(t).dtype == np.float32 and np.asarray(t, np.float64).dtype == np.float64
    assert t.tolist() == [[1.5, -2.0]] and t.numpy() is t.asnumpy()
    assert sx.Tensor(2.5).item() == 2.5 and float(sx.Tensor([2.5])) == 2.5
    assert int(sx.Tensor(7)) == 7 and [0, 1, 2][sx.Tensor(1)] == 1
    assert bool(sx.Tensor(1.0)) and not bool(sx.Tensor([0]))
    assert sx.Tensor([1.0], dtype=sx.bfloat16).item() == 1.0
    with pytest.raises(SporelingError, match="one element"):
        t.item()
    with pytest.raises(ValueError):
        bool(t)
    with pytest.raises(DTypeError, match="integer"):
        [0, 1][sx.Tensor(1.0)]


def test_copies_and_pickling():
    t = sx.Tensor([1.0, 2.0])
    for c in (copy.copy(t), copy.deepcopy(t), pickle.loads(pickle.dumps(t)), t.copy()):
        assert c.tolist() == [1.0, 2.0] and c.asnumpy() is not t.asnumpy()
    b = pickle.loads(pickle.dumps(sx.Tensor([1.5], dtype=sx.bfloat16)))
    assert b.dtype == sx.bfloat16 and b.item() == 1.5
    assert t.detach().asnumpy() is t.asnumpy()


def test_tensors_hash_by_identity():
    a, b = sx.Tensor([1.0]), sx.Tensor([1.0])
    assert len({a, b}) == 2 and {a: 1}[a] == 1


@pytest.mark.parametrize("op, ref", [
    (lambda a, b: a + b, np.add), (lambda a, b: a - b, np.subtract),
    (lambda a, b: a * b, np.multiply), (lambda a, b: a / b, np.divide),
    (lambda a, b: a // b, np.floor_divide), (lambda a, b: a % b, np.mod),
    (lambda a, b: a ** b, np.power), (lambda a, b: a @ b.T, lambda a, b: a @ b.T),
    (lambda a, b: a < b, np.less), (lambda a, b: a <= b, np.less_equal),
    (lambda a, b: a > b, np.greater), (lambda a, b: a >= b, np.greater_equal),
    (lambda a, b: a == b, np.equal), (lambda a, b: a != b, np.not_equal),
])
def test_binary_operators_match_numpy(op, ref):
    a = np.array([[1.5, 2.0, 3.0], [0.5, 4.0, 2.0]], np.float32)
    b = np.array([[2.0, 2.0, 1.0], [1.0, 3.0, 2.5]], np.float32)
    got = op(sx.Tensor(a), sx.Tensor(b))
    assert isinstance(got, sx.Tensor)
    np.testing.assert_allclose(got.asnumpy(), ref(a, b), rtol=1e-6)


def test_reflected_operators_and_numpy_on_the_left():
    t = sx.Tensor([1.0, 2.0])
    assert (2.0 - t).tolist() == [1.0, 0.0] and (6.0 / t).tolist() == [6.0, 3.0]
    assert (2 ** t).tolist() == [2.0, 4.0] and (3 * t).tolist() == [3.0, 6.0]
    left = np.array([10.0, 20.0], np.float32)
    for got in (left + t, left - t, left * t, left == t):
        assert isinstance(got, sx.Tensor)
    assert (left - t).tolist() == [9.0, 18.0]
    assert isinstance(np.sin(t), np.ndarray)  # other NumPy functions see the data
    assert np.sum(t) == 3.0 and np.mean(t, keepdims=True).shape == (1,)
    np.testing.assert_array_equal(np.concatenate([t, t]), [1.0, 2.0, 1.0, 2.0])
    np.testing.assert_allclose(t, [1.0, 2.0])


def test_tensor_ops_go_to_the_pynative_interpreter():
    from sporeling.compiler import bind, primitives
    from sporeling.expression.autograd import PYNATIVE
    assert sx.Tensor._interpreter is PYNATIVE and PYNATIVE.level > 0
    out = bind(primitives()["add"], sx.Tensor([1.0]), np.ones(1, np.float32))
    assert isinstance(out, sx.Tensor) and out.tolist() == [2.0]


def test_unary_and_logical_operators():
    t = sx.Tensor([-1.5, 2.0])
    assert (-t).tolist() == [1.5, -2.0] and abs(t).tolist() == [1.5, 2.0] and (+t) is t
    m, n = sx.Tensor([True, False]), sx.Tensor([True, True])
    assert (m & n).tolist() == [True, False] and (m | n).tolist() == [True, True]
    assert (m ^ n).tolist() == [False, True] and (~m).tolist() == [False, True]
    assert (t == None) is False and (t != None) is True  # noqa: E711


@pytest.mark.parametrize("dtype, scalar, expected", [
    (np.float16, 2.5, np.float16), (np.int32, 2.5, np.float32), (np.int64, 2, np.int64),
    (np.bool_, 3, np.int64), (np.float32, 1, np.float32), (np.int8, 1, np.int8),
    (sx.bfloat16, 0.5, sx.bfloat16),
])
def test_python_scalars_do_not_widen(dtype, scalar, expected):
    t = sx.Tensor(np.ones(3, dtype))
    assert (t + scalar).dtype == expected and (scalar * t).dtype == expected


def test_tensor_tensor_promotion():
    i, h = sx.Tensor(np.ones(2, np.int32)), sx.Tensor(np.ones(2, np.float16))
    assert (i + h).dtype == np.float16
    assert (sx.Tensor(np.ones(2, np.float16)) + sx.Tensor(np.ones(2, sx.bfloat16))).dtype \
        == np.float32
    assert (sx.Tensor([1, 2]) / sx.Tensor([2, 4])).dtype == np.float32


def test_ops_module_reexports_the_compiler_ops():
    from sporeling.compiler import ops
    assert sx.ops.relu is ops.relu and set(sx.ops.__all__) <= set(dir(ops))
    assert isinstance(sx.ops.relu(sx.Tensor([-1.0, 1.0])), sx.Tensor)
    assert "elementwise" not in sx.ops.__all__  # submodules are not ops
    with pytest.raises(AttributeError):
        sx.ops.no_such_op


def test_docstring_examples_run():
    import doctest
    import importlib
    names = ["", ".ops", ".plugin", ".tensor.tensor", ".tensor.parameter", ".tensor.methods",
             ".tensor.indexing", ".autograd.api", ".autograd.state", ".autograd.custom",
             ".autograd.control"]
    failed = attempted = 0
    for name in names:
        result = doctest.testmod(importlib.import_module("sporeling.expression" + name),
                                 optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        failed, attempted = failed + result.failed, attempted + result.attempted
    assert failed == 0 and attempted >= 30
