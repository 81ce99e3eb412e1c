import itertools

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, strategies as st

from sporeling.core import DTypeError, dtypes as D

FLOATS = [D.float16, D.bfloat16, D.float32, D.float64, D.float8_e4m3fn, D.float8_e5m2]
INTS = [D.int8, D.int16, D.int32, D.int64, D.uint8, D.uint16, D.uint32, D.uint64]


def test_names_and_objects():
    assert D.dtype("float32") is D.float32 and D.dtype(np.float32) == D.float32
    assert D.dtype("bfloat16") == np.dtype(ml_dtypes.bfloat16)
    assert D.dtype(bool) == D.bool_ and D.dtype(int) == D.int64 and D.dtype(float) == D.float32
    assert len(D.ALL_DTYPES) == 17
    assert D.dtype("uint32") == np.uint32 and D.dtype(np.complex64) == D.complex64
    assert D.dtype("float8_e4m3fn") == np.dtype(ml_dtypes.float8_e4m3fn)


@pytest.mark.parametrize("bad", ["complex32", np.str_, "float8", ml_dtypes.int4, object, 3])
def test_unknown_dtype_lists_valid(bad):
    with pytest.raises(DTypeError, match="expected one of bool, int8.*bfloat16"):
        D.dtype(bad)


@pytest.mark.parametrize("a, b, expected", [
    (D.int32, D.float16, D.float16), (D.int64, D.float16, D.float16),
    (D.int8, D.bfloat16, D.bfloat16), (D.float16, D.bfloat16, D.float32),
    (D.float16, D.float32, D.float32), (D.bfloat16, D.float64, D.float64),
    (D.uint8, D.int8, D.int16), (D.uint8, D.int32, D.int32), (D.int8, D.int64, D.int64),
    (D.bool_, D.uint8, D.uint8), (D.bool_, D.float16, D.float16), (D.bool_, D.bool_, D.bool_),
    (D.uint16, D.int16, D.int32), (D.uint32, D.int8, D.int64), (D.uint8, D.uint32, D.uint32),
    (D.uint64, D.int8, D.int64), (D.uint64, D.float16, D.float16),
    (D.float8_e4m3fn, D.float8_e5m2, D.float16), (D.float8_e5m2, D.bfloat16, D.float32),
    (D.float8_e4m3fn, D.float16, D.float16), (D.complex64, D.float32, D.complex64),
    (D.complex64, D.float64, D.complex128), (D.complex64, D.int64, D.complex64),
    (D.complex128, D.bfloat16, D.complex128), (D.bool_, D.complex64, D.complex64)])
def test_promotion_table(a, b, expected):
    assert D.promote_types(a, b) == expected
    assert D.promote_types(b, a) == expected


@given(st.sampled_from(D.ALL_DTYPES), st.sampled_from(D.ALL_DTYPES))
def test_promotion_is_commutative_and_idempotent(a, b):
    assert D.promote_types(a, b) == D.promote_types(b, a)
    assert D.promote_types(a, a) == a


@given(st.sampled_from(D.ALL_DTYPES), st.sampled_from(D.ALL_DTYPES),
       st.sampled_from(D.ALL_DTYPES))
def test_promotion_is_associative(a, b, c):
    assert D.promote_types(D.promote_types(a, b), c) == D.promote_types(a, D.promote_types(b, c))


@pytest.mark.parametrize("a, b", [p for p in itertools.combinations(INTS, 2)
                                  if D.uint64 not in p or D.is_signed(p[0]) == D.is_signed(p[1])])
def test_integer_results_hold_every_value_of_both(a, b):
    out = D.promote_types(a, b)
    for t in (a, b):
        assert np.iinfo(out).min <= np.iinfo(t).min and np.iinfo(out).max >= np.iinfo(t).max


@pytest.mark.parametrize("tensor, scalar, expected", [
    (D.float16, 2.5, D.float16), (D.bfloat16, 1, D.bfloat16), (D.int8, 300, D.int8),
    (D.int32, 2.5, D.float32), (D.bool_, 3, D.int64), (D.bool_, 1.0, D.float32),
    (D.uint8, True, D.uint8), (D.float64, 1, D.float64)])
def test_python_scalars_do_not_widen(tensor, scalar, expected):
    assert D.result_type(tensor, scalar) == expected
    assert D.result_type(scalar, tensor) == expected


def test_result_type_of_scalars_alone_and_numpy_scalars_are_typed():
    assert D.result_type(1, 2.0) == D.float32 and D.result_type(True) == D.bool_
    assert D.result_type(D.float16, np.float64(1.0)) == D.float64


def test_kind_predicates():
    assert all(D.is_floating(f) for f in FLOATS) and not D.is_floating(D.int32)
    assert all(D.is_integer(i) for i in INTS) and not D.is_integer(D.bool_)
    assert D.is_signed(D.int8) and not D.is_signed(D.uint8) and D.is_signed(D.bfloat16)
    assert not D.is_signed(D.uint64) and D.is_complex(D.complex128)
    assert not D.is_floating(D.complex64) and not D.is_complex(D.float64)


@pytest.mark.parametrize("a, b", list(itertools.combinations(FLOATS, 2)))
def test_float_results_hold_every_value_of_both(a, b):
    out = D.promote_types(a, b)
    for t in (a, b):
        info, wide = ml_dtypes.finfo(t), ml_dtypes.finfo(out)
        assert wide.max >= info.max and wide.nmant >= info.nmant
