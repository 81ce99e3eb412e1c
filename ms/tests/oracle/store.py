"""The recorded outputs on disk: ``recorded/<family>.npz`` holds ``CASE|KEY`` arrays."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

RECORDED = Path(__file__).parent / "recorded"


def save_family(family: str, cases: dict):
    flat = {f"{name}|{key}": a for name, arrays in cases.items() for key, a in arrays.items()}
    np.savez_compressed(RECORDED / f"{family}.npz", **flat)


def load_family(family: str) -> dict:
    """``{case: {key: array}}`` (empty when the family was never recorded)."""
    path = RECORDED / f"{family}.npz"
    if not path.exists():
        return {}
    out: dict = {}
    with np.load(path, allow_pickle=False) as data:
        for flat in data.files:
            name, key = flat.rsplit("|", 1)
            out.setdefault(name, {})[key] = data[flat]
    return out


def load_index() -> dict:
    return json.loads((RECORDED / "index.json").read_text())
