"""Replays the recorded cases through ``sporeling.ms`` and compares with MindSpore's
outputs. ``python ms/tests/oracle/replay.py [NAME_PREFIX...]`` prints every difference and a
summary; ``ms/tests/test_oracle.py`` runs the same comparison per case."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracle.cases import all_cases  # noqa: E402
from oracle.runner import run_case  # noqa: E402
from oracle.store import load_family, load_index  # noqa: E402

# relative tolerance by dtype: of each array's largest magnitude (at least 1), so values
# near zero are compared at the scale of the rest of the array. float16: a few ulps (both
# sides round intermediates differently); float64: MindSpore's CPU kernels are not all
# float64-accurate (digamma, std/var, rad2deg's constant differ from float64 by ~1e-7)
TOLERANCE = {"float16": 5e-3, "bfloat16": 1e-2, "float32": 1e-5, "float64": 1e-6}
# training runs and optimizer steps compound rounding over steps
STEPPED = {"float32": 1e-4}


def compare(expected: dict, got: dict, stepped: bool = False) -> list[str]:
    """The differences between MindSpore's arrays and ours (empty: equal within tolerance,
    same keys, dtypes, shapes and result structure)."""
    problems = []
    params_only = {k for k in expected if k.startswith("param.")}  # recorded, not replayed
    missing = sorted(set(expected) - set(got) - params_only)
    extra = sorted(set(got) - set(expected))
    if missing or extra:
        problems.append(f"keys: MindSpore only {missing}, Sporeling only {extra}")
    for key in sorted(set(expected) & set(got)):
        e, g = np.asarray(expected[key]), np.asarray(got[key])
        if key.startswith(("struct.", "order.")):
            if str(e) != str(g):
                problems.append(f"{key}: MindSpore {e} != Sporeling {g}")
            continue
        if e.dtype != g.dtype:
            problems.append(f"{key}: dtype MindSpore {e.dtype} != Sporeling {g.dtype}")
        if e.shape != g.shape:
            problems.append(f"{key}: shape MindSpore {e.shape} != Sporeling {g.shape}")
            continue
        if e.dtype.kind in "biu" and g.dtype.kind in "biu":
            if not np.array_equal(e, g):
                problems.append(f"{key}: {np.sum(e != g)} of {e.size} values differ")
            continue
        e64, g64 = e.astype(np.float64), g.astype(np.float64)
        rtol = (STEPPED if stepped else {}).get(e.dtype.name) or TOLERANCE.get(e.dtype.name, 1e-5)
        finite = np.isfinite(e64)
        scale = max(1.0, float(np.max(np.abs(e64[finite]), initial=0.0)))
        same_special = np.array_equal(np.isnan(e64), np.isnan(g64)) and np.array_equal(
            e64[np.isinf(e64)], g64[np.isinf(e64)])
        err = np.abs(e64 - g64)[finite]
        worst = float(err.max(initial=0.0))
        if not same_special or worst > rtol * scale:
            problems.append(f"{key}: max |diff| {worst:.3g} > {rtol:g} x {scale:.3g}"
                            + ("" if same_special else " (nan/inf differ)"))
    return problems


def replay_case(case, expected: dict) -> list[str]:
    """Runs ``case`` on ``sporeling.ms`` (with MindSpore's initial parameters) and compares."""
    import sporeling.ms as ms
    params = {k.split(".", 1)[1]: v for k, v in expected.items() if k.startswith("param.")}
    try:
        got = run_case(ms, case, params if case.kind in ("cell", "train") else None)
    except Exception as exc:  # noqa: BLE001 - reported as the difference
        return [f"Sporeling raised {type(exc).__name__}: {str(exc).splitlines()[0][:300]}"
                if str(exc) else f"Sporeling raised {type(exc).__name__}"]
    return compare(expected, got, stepped=case.kind in ("optim", "train"))


def recorded_cases():
    """``[(case, expected arrays)]`` for every case MindSpore ran, and ``{name: error}`` for
    those it raised on."""
    index = load_index()["cases"]
    ok, raised = [], {}
    for family, cases in all_cases().items():
        stored = load_family(family)
        for case in cases:
            status = index.get(case.name, {})
            if status.get("status") == "ok":
                if "grad_error" in status:     # MindSpore took the forward only
                    case = dataclasses.replace(case, grad=False)
                ok.append((case, stored[case.name]))
            elif status:
                raised[case.name] = status["error"]
    return ok, raised


def main(prefixes=()):
    ok, raised = recorded_cases()
    equal = 0
    for case, expected in ok:
        if prefixes and not case.name.startswith(tuple(prefixes)):
            continue
        problems = replay_case(case, expected)
        if problems:
            print(f"{case.name}:\n    " + "\n    ".join(problems))
        else:
            equal += 1
    print(f"{equal} equal of {len(ok)} recorded ({len(raised)} cases MindSpore raised on)")


if __name__ == "__main__":
    main(sys.argv[1:])
