"""sporeling.core.arguments: the named checks of plain arguments and the net under them."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sporeling.core import ArgumentError, OutOfMemoryError, SporelingError
from sporeling.core.arguments import (bad_arguments, check_float, check_int, check_ints,
                                      is_raw_error)
from sporeling.core.testing import bad_argument_problems

NOT_NUMBERS = st.one_of(st.none(), st.text(max_size=4), st.just(object()), st.just([1]),
                        st.booleans(), st.sampled_from([math.nan, math.inf, -math.inf]))


def test_argument_error_is_caught_as_type_error_and_as_value_error():
    for builtin in (TypeError, ValueError, SporelingError):
        with pytest.raises(builtin):
            check_int("a", "size", op="f")


@settings(max_examples=100, deadline=None)
@given(st.integers(-2 ** 70, 2 ** 70), st.integers(-5, 5), st.integers(0, 10))
def test_check_int_accepts_exactly_the_ints_in_range(value, low, span):
    high = low + span
    for candidate in (value, np.int64(np.clip(value, -2 ** 63, 2 ** 63 - 1)), float(value)):
        inside = low <= int(candidate) <= high
        if inside:
            assert check_int(candidate, "n", op="f", min=low, max=high) == int(candidate)
        else:
            with pytest.raises(ArgumentError, match=r"f: bad n; expected an int in \["):
                check_int(candidate, "n", op="f", min=low, max=high)


@settings(max_examples=60, deadline=None)
@given(NOT_NUMBERS | st.floats(0.1, 0.9))
def test_check_int_refuses_what_is_no_int_naming_op_argument_and_value(value):
    with pytest.raises(ArgumentError) as info:
        check_int(value, "in_channels", op="Dense", min=1)
    assert "Dense: bad in_channels" in str(info.value) and repr(value)[:10] in str(info.value)


@settings(max_examples=60, deadline=None)
@given(NOT_NUMBERS)
def test_check_float_refuses_non_finite_and_non_numbers(value):
    with pytest.raises(ArgumentError, match="a finite number"):
        check_float(value, "p", op="dropout")


def test_check_float_range_and_check_ints_lengths():
    assert check_float(1, "p", op="f", min=0, max=1) == 1.0
    with pytest.raises(ArgumentError, match=r"in \[0, 1\]"):
        check_float(1.5, "p", op="f", min=0, max=1)
    assert check_ints(3, "kernel_size", op="Conv2d", n=2, min=1) == (3, 3)
    assert check_ints([1, 2], "kernel_size", op="Conv2d", n=2, min=1) == (1, 2)
    for bad in ([1, 2, 3], [0, 1], "ab", None):
        with pytest.raises(ArgumentError, match="Conv2d: bad kernel_size"):
            check_ints(bad, "kernel_size", op="Conv2d", n=2, min=1)


def test_raw_errors_are_builtin_or_numpy_ones_exactly():
    class Mine(ValueError):
        pass
    assert is_raw_error(ValueError()) and is_raw_error(ZeroDivisionError())
    assert is_raw_error(np.linalg.LinAlgError())
    assert not is_raw_error(Mine()) and not is_raw_error(ArgumentError("x"))


def test_bad_arguments_names_the_op_the_arguments_and_the_cause():
    error = bad_arguments("reshape", (np.zeros((2, 3)), "abc"), {"axis": None},
                          ValueError("invalid literal"))
    assert isinstance(error, ArgumentError)
    assert str(error) == ("reshape: bad arguments (ValueError: invalid literal); "
                          "got (ndarray(float64[2, 3]), 'abc', axis=None)")
    assert isinstance(bad_arguments("zeros", (2 ** 62,), {}, MemoryError()), OutOfMemoryError)


def test_the_sweep_reports_raw_errors_and_hangs_but_not_sporeling_errors():
    def raw(n):
        return [0] * int(n)

    def named(n):
        check_int(n, "n", op="named", min=0, max=100)

    def hangs(n):
        while n:
            pass

    problems = bad_argument_problems({"raw": raw, "named": named, "hangs": hangs},
                                     good=lambda name: 1, seconds=0.2)
    assert not [p for p in problems if p.startswith("named")]
    assert any(p.startswith("raw(n='abc'): ValueError") for p in problems)
    assert any(p.startswith("hangs(n=") and "TimeoutError" in p for p in problems)
