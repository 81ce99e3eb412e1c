"""Random ops: reproducible under set_seed, pure in their seed parameter, right moments."""
import ml_dtypes
import numpy as np
import pytest

from sporeling.compiler import bind, ops, primitives
from sporeling.compiler.autodiff import grad
from sporeling.core import DTypeError, ShapeError, set_seed

SAMPLERS = {
    "uniform": lambda: ops.uniform((4, 5), -2.0, 3.0),
    "normal": lambda: ops.normal((4, 5), 1.0, 2.0, dtype="float64"),
    "bernoulli": lambda: ops.bernoulli(np.full((4, 5), 0.3)),
    "randint": lambda: ops.randint(-3, 9, (4, 5)),
    "permutation": lambda: ops.permutation(20),
}


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_the_seed_reproduces_and_successive_calls_differ(name):
    set_seed(123)
    a, b = SAMPLERS[name](), SAMPLERS[name]()
    set_seed(123)
    np.testing.assert_array_equal(SAMPLERS[name](), a)
    assert not np.array_equal(a, b)
    assert not primitives()[name].differentiable


def test_a_bound_primitive_is_a_pure_function_of_its_seed_operand():
    params = dict(shape=(3,), dtype=np.dtype(np.float32), low=0.0, high=1.0)
    prim = primitives()["uniform"]
    seed = np.array(42, np.int64)
    np.testing.assert_array_equal(bind(prim, seed, **params), bind(prim, seed, **params))
    assert not np.array_equal(bind(prim, seed, **params),
                              bind(prim, np.array(43, np.int64), **params))


def test_distributions():
    set_seed(0)
    u = ops.uniform((20000,), 2.0, 5.0)
    assert u.dtype == np.float32 and u.min() >= 2.0 and u.max() < 5.0
    assert abs(u.mean() - 3.5) < 0.05
    n = ops.normal((20000,), 1.0, 2.0)
    assert abs(n.mean() - 1.0) < 0.05 and abs(n.std() - 2.0) < 0.05
    b = ops.bernoulli(0.25, (20000,))
    assert set(np.unique(b)) <= {0.0, 1.0} and abs(b.mean() - 0.25) < 0.02
    assert ops.bernoulli(np.array([0.0, 1.0, 1.0])).tolist() == [0.0, 1.0, 1.0]
    i = ops.randint(-3, 4, (1000,), dtype="int32")
    assert i.dtype == np.int32 and set(np.unique(i)) == set(range(-3, 4))


def test_low_precision_dtypes():
    for dtype in (np.float16, ml_dtypes.bfloat16):
        assert ops.uniform((3,), dtype=dtype).dtype == dtype
        assert ops.normal((3,), dtype=dtype).dtype == dtype


def test_permutation_of_a_tensor_shuffles_rows_and_passes_gradients():
    x = np.arange(12.0).reshape(4, 3)
    p = ops.permutation(x)
    assert sorted(map(tuple, p.tolist())) == sorted(map(tuple, x.tolist()))
    assert sorted(ops.permutation(5).tolist()) == [0, 1, 2, 3, 4]
    g = grad(lambda a: ops.sum(ops.mul(ops.permutation(a), 2.0)))(x)
    np.testing.assert_array_equal(g, np.full((4, 3), 2.0))


def test_tensor_bounds_broadcast_through_an_affine_map():
    set_seed(1)
    u = ops.uniform((2, 3), np.zeros(3), np.array([1.0, 10.0, 100.0]))
    assert u.shape == (2, 3) and (u[:, 2] > 1.0).any() and (u[:, 0] < 1.0).all()
    m = ops.normal((2, 3), mean=np.array([0.0, 100.0, -100.0]), stddev=0.1)
    assert (m[:, 1] > 99).all() and (m[:, 2] < -99).all()


@pytest.mark.parametrize("call, error, match", [
    (lambda: ops.uniform((2,), dtype="int32"), DTypeError, "uniform: needs a float dtype"),
    (lambda: ops.randint(0, 10, (2,), dtype="float32"), DTypeError, "randint"),
    (lambda: ops.randint(3, 3, (2,)), ShapeError, "randint: empty range"),
    (lambda: ops.normal((2, -1)), ShapeError, "normal: bad shape"),
    (lambda: ops.bernoulli(np.full(3, 0.5), (2,)), ShapeError, "bernoulli: probabilities"),
    (lambda: ops.permutation(np.float32(1)), ShapeError, "permutation: cannot permute"),
    (lambda: ops.dropout(np.ones(3), seed=np.float32(1)), DTypeError, "dropout: the seed"),
])
def test_errors_name_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()
