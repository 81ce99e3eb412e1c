"""Parity with real MindSpore 2.10 (issue 22): every case of ``ms/tests/oracle/cases`` (ops
forward and gradient, layers with MindSpore's initial weights, losses, optimizer steps,
training runs in PyNative and Graph mode) replayed through ``sporeling.ms`` against the
outputs MindSpore recorded in ``ms/tests/oracle/recorded`` -- no MindSpore needed here. Re-record
with ``tox -e ms-oracle-record``. Each case listed in ``KNOWN_DIFFERENCES`` (with its
reason, also in ms/README.md) is a strict xfail: once it matches, the test says so."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from oracle.cases import all_cases  # noqa: E402
from oracle.known_differences import KNOWN_DIFFERENCES  # noqa: E402
from oracle.replay import compare, recorded_cases, replay_case  # noqa: E402
from oracle.store import load_index  # noqa: E402

RECORDED, RAISED = recorded_cases()


def _param(case, expected):
    reason = KNOWN_DIFFERENCES.get(case.name)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(case, expected, id=case.name, marks=marks)


@pytest.mark.parametrize("case, expected", [_param(c, e) for c, e in RECORDED])
def test_sporeling_matches_mindspore(case, expected):
    problems = replay_case(case, expected)
    assert not problems, f"{case.name} differs from MindSpore 2.10:\n  " + "\n  ".join(problems)


def test_the_suite_has_1000_recorded_cases_and_every_case_is_recorded():
    assert len(RECORDED) >= 1000, len(RECORDED)
    index = load_index()
    assert index["mindspore"].startswith("2.10"), index["mindspore"]
    names = {c.name for cases in all_cases().values() for c in cases}
    assert set(index["cases"]) == names, "cases changed since the last recording: " \
        f"re-record {sorted(names ^ set(index['cases']))[:5]} (tox -e ms-oracle-record)"


def test_known_differences_name_recorded_cases():
    recorded = {c.name for c, _ in RECORDED}
    assert set(KNOWN_DIFFERENCES) <= recorded, sorted(set(KNOWN_DIFFERENCES) - recorded)
    assert all(reason.strip() for reason in KNOWN_DIFFERENCES.values())


def test_compare_reports_values_dtypes_shapes_structure_and_keys():
    base = {"out.0": np.array([1.0, 2.0], np.float32), "struct.out": np.array("T")}
    assert compare(base, dict(base)) == []
    assert compare(base, {**base, "out.0": np.array([1.0, 2.0001], np.float32)})
    assert compare(base, {**base, "out.0": np.array([1.0, 2.0], np.float64)})
    assert compare(base, {**base, "out.0": np.array([[1.0, 2.0]], np.float32)})
    assert compare(base, {**base, "struct.out": np.array("(T)")})
    assert compare(base, {**base, "grad.0": np.array(1.0)})
    assert compare(base, {**base, "out.0": np.array([1.0, np.nan], np.float32)})
    # float16 is compared more loosely than float32; integers exactly
    half = {"out.0": np.array([1.0, 2.0], np.float16)}
    assert compare(half, {"out.0": np.array([1.0, 2.004], np.float16)}) == []
    ints = {"out.0": np.array([1, 2], np.int32)}
    assert compare(ints, {"out.0": np.array([1, 3], np.int32)})
