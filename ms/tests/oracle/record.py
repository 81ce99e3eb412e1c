"""Records every case with real MindSpore 2.10 into ``recorded/<family>.npz`` (compressed;
keys ``CASE|KEY``) and ``recorded/index.json`` (versions, and per case ``ok`` or the error
MindSpore raised). Needs MindSpore, so it runs in its own environment, never in CI:

    tox -e ms-oracle-record          # or: /path/to/mindspore-venv/bin/python ms/tests/oracle/record.py

``python ms/tests/oracle/record.py NAME_PREFIX...`` re-records only the cases so named (merging
into the stored files)."""
from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracle.cases import all_cases  # noqa: E402
from oracle.runner import run_case  # noqa: E402
from oracle.store import RECORDED, load_family, save_family  # noqa: E402


def _first_line(exc: BaseException) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip().strip("-")]
    return f"{type(exc).__name__}: {(lines[0] if lines else '')[:200]}"


def _attempt(ms, case):
    """``(arrays, None)`` or ``(None, error)``. MindSpore's PyNative launches kernels
    asynchronously and may report a failure at a later op: synchronizing after each case,
    and trying a failed case once more once the stale error is out, keeps errors with their
    case."""
    error = None
    for _ in range(2):
        try:
            arrays = run_case(ms, case)
            ms.runtime.synchronize()
            return arrays, None
        except Exception as exc:  # noqa: BLE001 - recorded as this case's status
            error = _first_line(exc)
            try:
                ms.runtime.synchronize()
            except Exception:  # noqa: BLE001
                pass
    return None, error


def record_case(ms, case):
    """``(arrays, status)``: a case whose gradient MindSpore cannot take is recorded forward
    only, with the gradient's error in its status."""
    arrays, error = _attempt(ms, case)
    if arrays is not None:
        return arrays, {"status": "ok"}
    if case.grad:
        arrays, _ = _attempt(ms, dataclasses.replace(case, grad=False))
        if arrays is not None:
            return arrays, {"status": "ok", "grad_error": error}
    return None, {"status": "raised", "error": error}


def main(prefixes=()):
    import mindspore as ms
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    ms.set_seed(2210)
    index_path = RECORDED / "index.json"
    index = json.loads(index_path.read_text()) if prefixes and index_path.exists() else \
        {"cases": {}}
    index.update(mindspore=ms.__version__, numpy=np.__version__)
    for family, cases in all_cases().items():
        chosen = [c for c in cases if not prefixes or c.name.startswith(tuple(prefixes))]
        if not chosen:
            continue
        stored = load_family(family) if prefixes else {}
        start = time.time()
        for case in chosen:
            arrays, status = record_case(ms, case)
            stored.pop(case.name, None)
            index["cases"][case.name] = {"family": family, **status}
            if arrays is None or "grad_error" in status:
                print(f"  {case.name}: {status}")
            if arrays is not None:
                stored[case.name] = arrays
        save_family(family, stored)
        ok = sum(1 for c in chosen if c.name in stored)
        print(f"{family}: {ok}/{len(chosen)} recorded in {time.time() - start:.1f}s")
    known = {c.name for cases in all_cases().values() for c in cases}
    index["cases"] = {k: v for k, v in sorted(index["cases"].items()) if k in known}
    index_path.write_text(json.dumps(index, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
