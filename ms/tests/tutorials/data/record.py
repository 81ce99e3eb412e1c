"""Records the outputs of every tutorial program (``ms/tests/tutorials/test_*.py``, functions
named ``*_program``) from real MindSpore 2.10 into ``data/<test module>.npz``. The programs'
code imports ``sporeling.ms``; here that name stands for ``mindspore``, so MindSpore runs the
very code the tests run. From the repository root:

    /work/ms-venv/bin/python ms/tests/tutorials/data/record.py [test_module ...]
"""
import importlib
import inspect
import os
import sys
import tempfile
import types
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent.parent  # ms/tests: the tutorial tests import ``tutorials._tutorial``
SUBMODULES = ["nn", "ops", "ops.operations", "ops.functional", "ops.composite", "dataset",
              "dataset.vision", "dataset.transforms", "dataset.text", "train", "amp",
              "common", "common.initializer", "common.dtype", "experimental", "nn.optim",
              "train.callback", "numpy"]


def alias_mindspore():
    import mindspore
    for sub in SUBMODULES:
        try:
            importlib.import_module(f"mindspore.{sub}")
        except ImportError:
            pass
    sporeling = types.ModuleType("sporeling")
    sporeling.__path__ = []
    sporeling.ms = mindspore
    sys.modules["sporeling"] = sporeling
    for name, module in list(sys.modules.items()):
        if name == "mindspore" or name.startswith("mindspore."):
            sys.modules["sporeling.ms" + name[len("mindspore"):]] = module
    if "pytest" not in sys.modules:  # MindSpore's venv has no pytest; the programs need none
        try:
            import pytest  # noqa: F401 - present: the programs get the real one
        except ImportError:
            sys.modules["pytest"] = _pytest_stub()


def _pytest_stub():
    stub = types.ModuleType("pytest")

    class Mark:
        def __getattr__(self, name):
            return lambda *a, **k: (lambda f: f)

    stub.mark = Mark()
    stub.param = lambda *values, **kwargs: values[0] if len(values) == 1 else values
    stub.fixture = lambda *a, **k: (a[0] if a and callable(a[0]) else (lambda f: f))
    return stub


def record(module_name):
    from tutorials._tutorial import MODES, flatten
    module = importlib.import_module(f"tutorials.{module_name}")
    out = {}
    for name, fn in list(vars(module).items()):
        if not (name.endswith("_program") and callable(fn)):
            continue
        modes = MODES if "mode" in inspect.signature(fn).parameters else (None,)
        for mode in modes:
            prefix = f"{name}[{mode}]/" if mode else f"{name}/"
            try:
                outputs = fn(mode) if mode else fn()
            except Exception as exc:  # noqa: BLE001 - reported; nothing recorded for it
                print(f"  {module_name}.{prefix}: {type(exc).__name__}: "
                      f"{str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ''}")
                continue
            for key, value in flatten(outputs).items():
                out[prefix + key] = value
    np.savez_compressed(HERE / f"{module_name}.npz", **out)
    print(f"{module_name}: {len(out)} arrays")


def main(names):
    sys.path.insert(0, str(TESTS))
    sys.argv[0] = str(Path(sys.argv[0]).resolve())  # MindSpore's compile reads the script
    os.chdir(tempfile.mkdtemp())  # MindSpore writes its graph dumps (rank_0/...) here
    alias_mindspore()
    import mindspore
    mindspore.set_device("CPU")
    names = names or sorted(p.stem for p in HERE.parent.glob("test_*.py"))
    for name in names:
        record(name)


if __name__ == "__main__":
    main(sys.argv[1:])
