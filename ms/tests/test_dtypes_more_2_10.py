"""2.10's other dtypes (uint16/32/64, complex64/128, float8) and type objects (Int,
TensorType, number, list_, ...), get_py_obj_dtype."""
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sporeling.ms as ms
from sporeling.core.errors import DTypeError

NEW = [(ms.uint16, np.uint16, "UInt16"), (ms.uint32, np.uint32, "UInt32"),
       (ms.uint64, np.uint64, "UInt64"), (ms.complex64, np.complex64, "Complex64"),
       (ms.complex128, np.complex128, "Complex128"),
       (ms.float8_e4m3fn, ml_dtypes.float8_e4m3fn, "Float8_e4m3fn"),
       (ms.float8_e5m2, ml_dtypes.float8_e5m2, "Float8_e5m2")]


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # complex -> real
@pytest.mark.parametrize("dtype, np_type, name", NEW)
def test_tensors_hold_them_print_their_name_and_cast(dtype, np_type, name):
    t = ms.Tensor(np.array([1, 2, 3]), dtype)
    assert str(dtype) == name and t.dtype == dtype and t.asnumpy().dtype == np.dtype(np_type)
    np.testing.assert_array_equal(np.real((t + t).asnumpy()).astype(np.float64), [2, 4, 6])
    assert t.astype(ms.float32).asnumpy().tolist() == [1.0, 2.0, 3.0]
    assert ms.dtype_to_nptype(dtype) is np.dtype(np_type).type


def test_aliases_and_python_types():
    assert (ms.ushort, ms.uintc, ms.uintp, ms.cfloat, ms.cdouble) == (
        ms.uint16, ms.uint32, ms.uint64, ms.complex64, ms.complex128)
    assert ms.dtype_to_pytype(ms.complex64) is complex and ms.dtype_to_pytype(ms.uint64) is int
    assert ms.dtype_to_pytype(ms.list_) is list and ms.dtype_to_pytype(ms.type_none) is type(None)
    assert ms.pytype_to_dtype(str) == ms.string and ms.pytype_to_dtype(tuple) == ms.tuple_


def test_abstract_types_compare_by_name_and_no_tensor_holds_them():
    assert ms.number != ms.string and ms.uint == ms.common.dtype.Type("UInt")
    assert ms.number != np.float32 and str(ms.uint) == "UInt"
    with pytest.raises(DTypeError, match="got Number"):
        ms.Tensor([1.0], ms.number)
    with pytest.raises(DTypeError, match="abstract type"):
        ms.dtype_to_nptype(ms.string)


def test_int_class_and_tensor_type():
    assert ms.Int(8) == ms.int8 and isinstance(ms.int32, ms.Int) and str(ms.Int()) == "Int"
    with pytest.raises(DTypeError, match="unsupported width"):
        ms.Int(7)
    tt = ms.tensor_type(ms.float16)
    assert str(tt) == "Tensor[Float16]" and tt.element_type() == ms.float16
    assert tt == ms.TensorType(ms.float16) and tt != ms.TensorType(ms.float32)


def test_get_py_obj_dtype():
    assert ms.get_py_obj_dtype(ms.Tensor(np.ones(2, np.uint32))) == ms.TensorType(ms.uint32)
    assert ms.get_py_obj_dtype([1, 2]) == ms.list_ and ms.get_py_obj_dtype(None) == ms.type_none
    assert ms.get_py_obj_dtype(int) == ms.int64 and ms.get_py_obj_dtype("s") == ms.string
    assert str(ms.get_py_obj_dtype(ms.nn.Dense(2, 2))) == "Func"
    assert str(ms.get_py_obj_dtype(lambda v: v)) == "Func"
    assert str(ms.get_py_obj_dtype(ms.float32)) == "TypeType"


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([d for d, _, _ in NEW[:5]]),
       st.lists(st.integers(0, 200), min_size=1, max_size=6))
def test_values_round_trip(dtype, values):
    t = ms.Tensor(np.array(values), dtype)
    np.testing.assert_array_equal(t.asnumpy(), np.array(values).astype(dtype.np_dtype))


def test_complex_tensors_split_into_their_parts():
    v = np.array([1 + 2j, -3 - 1j, 2 + 0j], np.complex64)
    z = ms.Tensor(v)
    np.testing.assert_array_equal(ms.ops.real(z).asnumpy(), v.real)
    np.testing.assert_array_equal(ms.ops.imag(z).asnumpy(), v.imag)
    np.testing.assert_array_equal(ms.ops.conj(z).asnumpy(), np.conj(v))
    np.testing.assert_allclose(ms.ops.angle(z).asnumpy(), np.angle(v), rtol=1e-6)
    assert ms.ops.isreal(z).asnumpy().tolist() == [False, False, True]
    assert ms.ops.is_complex(z) is True and ms.ops.is_complex(ms.Tensor([1.0])) is False
    m = np.array([[1 + 1j, 2], [3, 4j]], np.complex128)
    np.testing.assert_array_equal(ms.ops.adjoint(ms.Tensor(m)).asnumpy(), m.conj().T)
    # real inputs keep their traced paths
    np.testing.assert_array_equal(ms.ops.imag(ms.Tensor([1.0, -2.0])).asnumpy(), [0.0, 0.0])


def test_files_keep_them(tmp_path):
    """uint64 in a .ckpt; complex64 and float8 in safetensors (a .ckpt has no complex or
    float8 type: saving one there names the safetensors format)."""
    wide = np.array([1, 2 ** 63], np.uint64)
    ms.save_checkpoint({"a": ms.Parameter(ms.Tensor(wide), name="a")}, str(tmp_path / "a.ckpt"))
    np.testing.assert_array_equal(ms.load_checkpoint(str(tmp_path / "a.ckpt"))["a"].asnumpy(),
                                  wide)
    for dtype in (ms.complex64, ms.float8_e5m2):
        value = ms.Tensor(np.array([1.5, -2.0]), dtype)
        path = str(tmp_path / "b.safetensors")
        ms.save_checkpoint({"b": ms.Parameter(value, name="b")}, path, format="safetensors")
        back = ms.load_checkpoint(path)["b"]
        assert back.dtype == dtype
        np.testing.assert_array_equal(back.asnumpy(), value.asnumpy())
