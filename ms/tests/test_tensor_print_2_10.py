"""``print(t)`` and ``repr(t)`` of facade tensors, byte for byte as MindSpore 2.10 prints
them: ``data/tensor_print_2_10.json`` holds 2.10's outputs (``data/record_tensor_print.py``
ran each case with the real wheel)."""
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sporeling.ms as ms

RECORD = json.loads((Path(__file__).parent / "data" / "tensor_print_2_10.json")
                    .read_text(encoding="utf-8"))
CASES = RECORD["cases"]


def _tensor(case):
    data = np.array(eval(case["data"], {"np": np}))  # noqa: S307 - the recorded expressions
    return ms.Tensor(data, getattr(ms, case["dtype"]))


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_repr_is_2_10_s(case):
    assert repr(_tensor(case)) == case["repr"]


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_str_is_2_10_s(case):
    assert str(_tensor(case)) == case["str"]


def test_print_writes_str(capsys):
    print(ms.Tensor([[1.5, 2]], ms.float32))
    assert capsys.readouterr().out == "[[1.5 2. ]]\n"


def test_op_results_print_the_same_way():
    x = ms.ops.add(ms.Tensor([[1.0, 2.0]]), 1.0)
    assert repr(x) == "Tensor(shape=[1, 2], dtype=Float32, value=\n[[ 2.00000000e+00,  3.00000000e+00]])"


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(st.sampled_from([np.float32, np.int32, np.int64, np.bool_]),
                  hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=9)))
def test_repr_shows_the_layout_2_10_uses(data):
    """Any shape: the header, the brackets' nesting, and no middle elided for 6 or fewer."""
    text = repr(ms.Tensor(data))
    assert text.startswith(f"Tensor(shape={list(data.shape)}, dtype=")
    body = text.split("value=", 1)[1]
    assert body.count("[") == body.count("]")
    assert ("..." in body) == any(n > 6 for n in (data.shape if data.ndim > 1 else ()))
