"""Record how MindSpore 2.10 prints Tensors: ``str`` (what ``print`` shows) and ``repr``.

Run with the real MindSpore 2.10 wheel (the oracle venv), from the repository root:

    /work/ms-venv/bin/python ms/tests/data/record_tensor_print.py

It writes ``tensor_print_2_10.json`` beside this file: one entry per case, with the NumPy
expression that builds the data (evaluated with ``np`` in scope), the MindSpore dtype's name
and the two strings. ``tests/test_tensor_print_2_10.py`` replays the cases through
``sporeling.ms`` and compares byte for byte.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

# (name, NumPy expression, dtype name in mindspore / sporeling.ms)
CASES = [
    ("float32 2x2", "[[1.5, 2.0]]", "float32"),
    ("float32 matrix", "[[1.0, 2.0], [3.0, 4.0]]", "float32"),
    ("float32 1-d", "[1.0, 2.5, -3.25]", "float32"),
    ("float32 scalar", "3.5", "float32"),
    ("float32 negative scalar", "-0.125", "float32"),
    ("float32 3-d", "np.arange(24).reshape(2, 3, 4) / 7", "float32"),
    ("float32 mixed magnitudes", "[1e-8, 1.0, 1e8]", "float32"),
    ("float32 nan inf", "[np.nan, np.inf, -np.inf, 0.0]", "float32"),
    ("float32 integers", "[0.0, 1.0, 2.0, 100.0]", "float32"),
    ("float32 zeros", "np.zeros((2, 3))", "float32"),
    ("float32 empty", "np.zeros((0,))", "float32"),
    ("float32 empty 2-d", "np.zeros((2, 0))", "float32"),
    ("float32 large 1-d", "np.arange(2000) / 3", "float32"),
    ("float32 large 2-d", "np.arange(10000).reshape(100, 100) / 3", "float32"),
    ("float32 large 3-d", "np.arange(8000).reshape(20, 20, 20) * 0.5", "float32"),
    ("float32 1000 elements", "np.arange(1000) * 0.25", "float32"),
    ("float32 1001 elements", "np.arange(1001) * 0.25", "float32"),
    ("float32 4-d", "np.arange(16).reshape(2, 2, 2, 2) - 8.5", "float32"),
    ("float32 column", "[[1.0], [2.0], [3.0]]", "float32"),
    ("float16 1-d", "[1.0, 2.5, 65504.0]", "float16"),
    ("float16 matrix", "[[0.1, 0.2], [0.3, 0.4]]", "float16"),
    ("float16 scalar", "0.333", "float16"),
    ("float64 1-d", "[1.0, 1.0 / 3.0, 2.0 / 3.0]", "float64"),
    ("float64 matrix", "[[np.pi, np.e], [-1e-300, 1e300]]", "float64"),
    ("int32 1-d", "[1, -2, 3]", "int32"),
    ("int32 matrix", "[[1, 20], [300, -4000]]", "int32"),
    ("int32 scalar", "7", "int32"),
    ("int32 large", "np.arange(3000).reshape(30, 100)", "int32"),
    ("int64 1-d", "[1, 2, 3]", "int64"),
    ("int64 extremes", "[-9223372036854775808, 0, 9223372036854775807]", "int64"),
    ("int64 3-d", "np.arange(12).reshape(2, 2, 3)", "int64"),
    ("int8 1-d", "[-128, 0, 127]", "int8"),
    ("int16 1-d", "[-300, 0, 300]", "int16"),
    ("uint8 1-d", "[0, 7, 255]", "uint8"),
    ("bool 1-d", "[True, False, True]", "bool_"),
    ("bool matrix", "[[True, False], [False, True]]", "bool_"),
    ("bool scalar", "True", "bool_"),
    ("bool large", "np.arange(1500) % 3 == 0", "bool_"),
    # where the summarising starts, and the 1-d line breaks
    ("float32 7x7", "np.arange(49).reshape(7, 7) / 2", "float32"),
    ("int64 10x10", "np.arange(100).reshape(10, 10)", "int64"),
    ("float32 2x600", "np.arange(1200).reshape(2, 600) / 4", "float32"),
    ("float32 1000x1", "np.arange(1000).reshape(1000, 1) / 4", "float32"),
    ("float32 1001x1", "np.arange(1001).reshape(1001, 1) / 4", "float32"),
    ("float32 12 elements", "np.arange(12) * 1.5", "float32"),
    ("float32 13 elements", "np.arange(13) * 1.5", "float32"),
    ("int32 24 elements", "np.arange(24)", "int32"),
    ("bool 12 elements", "np.arange(12) % 2 == 1", "bool_"),
    ("float32 1008 elements", "np.arange(1008) / 8", "float32"),
    ("float32 25 elements", "np.arange(25) * -1.5", "float32"),
    ("int32 30 elements", "np.arange(30) - 3", "int32"),
    ("int32 1001 elements", "np.arange(1001)", "int32"),
    ("bool 30 elements", "np.arange(30) % 2 == 0", "bool_"),
    ("int64 5x30", "np.arange(150).reshape(5, 30)", "int64"),
    ("float32 signed zeros", "[-0.0, 0.0]", "float32"),
    ("float32 scalar large", "1e8", "float32"),
    ("float32 scalar tiny", "1.5e-7", "float32"),
    ("float32 scalar nan", "np.nan", "float32"),
    ("float32 scalar whole", "8.0", "float32"),
    ("float64 scalar", "1.0 / 3.0", "float64"),
    ("float64 scalar huge", "1e16", "float64"),
    ("float64 scalar negative tiny", "-1e-300", "float64"),
    ("float16 scalar max", "65504.0", "float16"),
    ("float32 scalar inf", "-np.inf", "float32"),
    ("int64 scalar negative", "-5", "int64"),
    ("uint8 scalar", "200", "uint8"),
    ("bool scalar false", "False", "bool_"),
    ("float32 one element 2-d", "[[2.5]]", "float32"),
    ("float16 large 2-d", "np.arange(2000).reshape(40, 50) / 8", "float16"),
]


def main() -> None:
    import mindspore as ms
    records = []
    for name, expr, dtype in CASES:
        data = np.array(eval(expr, {"np": np}))  # noqa: S307 - our own fixed expressions
        tensor = ms.Tensor(data, getattr(ms, dtype))
        records.append({"case": name, "data": expr, "dtype": dtype,
                        "str": str(tensor), "repr": repr(tensor)})
    out = Path(__file__).with_name("tensor_print_2_10.json")
    meta = {"mindspore": ms.__version__, "numpy": np.__version__,
            "made_by": "ms/tests/data/record_tensor_print.py"}
    out.write_text(json.dumps({"meta": meta, "cases": records}, indent=1) + "\n",
                   encoding="utf-8")
    print(f"{len(records)} cases -> {out}")


if __name__ == "__main__":
    main()
