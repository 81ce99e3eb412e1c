"""Each NumPy starter kernel against plain NumPy, writing into pool memory."""
import ml_dtypes
import numpy as np
import pytest

from sporeling.core import ShapeError
from sporeling.runtime import MemoryPool, NumpyBackend
from sporeling.runtime.kernels import NUMPY_KERNELS
from sporeling.runtime.memory import owner_of

rng = np.random.default_rng(0)


@pytest.fixture
def cpu():
    return NumpyBackend(pool=MemoryPool(block_size="1MB"))


def arr(*shape, dtype=np.float32, positive=False):
    x = rng.standard_normal(shape).astype(dtype)
    return np.abs(x) + 0.1 if positive else x


UNARY = {"neg": np.negative, "exp": np.exp, "log": np.log,
         "relu": lambda x: np.maximum(x, 0)}
BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
          "maximum": np.maximum}


def check(cpu, result, expected):
    assert owner_of(result) is not None and owner_of(result).pool is cpu.pool
    assert result.shape == expected.shape and result.dtype == expected.dtype
    np.testing.assert_allclose(result, expected, rtol=1e-6)


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_kernels(cpu, name, dtype):
    x = cpu.from_numpy(arr(3, 5, dtype=dtype, positive=name == "log"))
    check(cpu, cpu.run(name, x), UNARY[name](np.asarray(x)))


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shapes", [((4, 5), (4, 5)), ((4, 1), (1, 5)), ((2, 4, 5), (5,))])
def test_binary_kernels_broadcast(cpu, name, shapes):
    a, b = (cpu.from_numpy(arr(*s, positive=True)) for s in shapes)
    check(cpu, cpu.run(name, a, b), BINARY[name](np.asarray(a), np.asarray(b)))


def test_python_scalars_do_not_widen(cpu):
    x = cpu.from_numpy(arr(3))
    assert cpu.run("mul", x, 2.0).dtype == np.float32
    assert cpu.run("add", cpu.from_numpy(np.arange(3)), 1).dtype == np.arange(3).dtype


def test_relu_keeps_integer_and_bfloat16_dtypes(cpu):
    i = cpu.from_numpy(np.array([-2, 0, 3], np.int32))
    assert cpu.run("relu", i).tolist() == [0, 0, 3] and cpu.run("relu", i).dtype == np.int32
    h = cpu.from_numpy(np.array([-1.5, 2.5], ml_dtypes.bfloat16))
    r = cpu.run("relu", h)
    assert r.dtype == ml_dtypes.bfloat16 and r.astype(np.float32).tolist() == [0.0, 2.5]


@pytest.mark.parametrize("sa, sb", [((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)),
                                    ((4,), (4,)), ((2, 3, 4), (4, 5)), ((2, 1, 3, 4), (5, 4, 2))])
def test_matmul(cpu, sa, sb):
    a, b = cpu.from_numpy(arr(*sa)), cpu.from_numpy(arr(*sb))
    check(cpu, cpu.run("matmul", a, b), np.matmul(np.asarray(a), np.asarray(b)))


def test_matmul_shape_errors_say_what_disagrees(cpu):
    with pytest.raises(ShapeError, match=r"matmul.*\(3, 4\) and \(5, 2\)"):
        cpu.run("matmul", np.ones((3, 4)), np.ones((5, 2)))
    with pytest.raises(ShapeError, match="ndim >= 1"):
        cpu.run("matmul", np.float32(2), np.ones(2))


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (), (2, 0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum(cpu, axis, keepdims):
    x = cpu.from_numpy(arr(2, 3, 4))
    expected = np.sum(np.asarray(x), axis=axis, keepdims=keepdims)
    check(cpu, cpu.run("sum", x, axis=axis, keepdims=keepdims), np.asarray(expected))


def test_sum_widens_small_ints_like_numpy(cpu):
    x = cpu.from_numpy(np.arange(6, dtype=np.int8).reshape(2, 3))
    assert cpu.run("sum", x, axis=0).dtype == np.arange(6, dtype=np.int8).sum().dtype


@pytest.mark.parametrize("axis", [3, -4, (0, 0), (0, -3)])
def test_sum_bad_axes(cpu, axis):
    with pytest.raises(ShapeError, match="sum"):
        cpu.run("sum", np.ones((2, 3, 4)), axis=axis)


def test_binary_shape_mismatch_is_a_shape_error(cpu):
    with pytest.raises(ShapeError, match=r"add: operands do not broadcast.*\(2, 3\) and \(4,\)"):
        cpu.run("add", np.ones((2, 3)), np.ones(4))


def test_kernels_write_into_a_given_out(cpu):
    a, b = cpu.from_numpy(arr(4, 4)), cpu.from_numpy(arr(4, 4))
    out = cpu.allocate((4, 4), np.float32)
    for name in ("add", "exp", "matmul", "relu"):
        result = cpu.run(name, *((a, b) if name in ("add", "matmul") else (a,)), out=out)
        assert result is out
    total = cpu.allocate((), np.float32)
    assert cpu.run("sum", a, out=total) is total
    np.testing.assert_allclose(total, np.asarray(a).sum(), rtol=1e-5)


def test_inputs_and_outputs_come_back_to_the_pool(cpu):
    x = cpu.from_numpy(arr(64, 64))
    y = cpu.run("exp", cpu.run("neg", x))      # the intermediate dies at once
    assert cpu.pool.stats().live == 2
    assert cpu.to_numpy(y).base is None or owner_of(cpu.to_numpy(y)) is None
    del x, y
    assert cpu.pool.stats().in_use == 0


def test_starter_set_is_complete():
    assert set(UNARY) | set(BINARY) | {"matmul", "sum"} <= set(NUMPY_KERNELS)
