"""The cross-checks against PyTorch run in CI (issue 23 §11): `tox -e torch-crosscheck`, in
env_list, installs torch and names every test that imports it; with SPORELING_REQUIRE_TORCH=1
a missing torch fails the run instead of skipping them all."""
import ast
import configparser
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = "testenv:torch-crosscheck"


def _tox() -> configparser.ConfigParser:
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini")
    return tox


def _test_files() -> list[Path]:
    """The Python files in every tests folder, not looking inside .tox, .git and the like."""
    files = []
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if not d.startswith(".")]
        if "tests" in Path(folder).relative_to(ROOT).parts:
            files += [Path(folder) / n for n in names if n.endswith(".py")]
    return sorted(files)


def _torch_tests() -> set[str]:
    """Every test that calls pytest.importorskip("torch"): its file when the call is at module
    level (or in a helper), else file::test."""
    found = set()
    for path in _test_files():
        source = path.read_text()
        if "importorskip" not in source:
            continue
        relative = path.relative_to(ROOT)
        for top in ast.parse(source).body:
            for node in ast.walk(top):
                if (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "importorskip"
                        and node.args and getattr(node.args[0], "value", None) == "torch"):
                    test = isinstance(top, ast.FunctionDef) and top.name.startswith("test")
                    found.add(f"{relative}::{top.name}" if test else str(relative))
    return found


def test_the_env_runs_in_ci_and_requires_torch():
    tox = _tox()
    assert "torch-crosscheck" in [e.strip() for e in tox["tox"]["env_list"].split(",")]
    assert "SPORELING_REQUIRE_TORCH = 1" in tox[ENV]["set_env"]


def test_the_env_names_exactly_the_tests_that_import_torch():
    command = _tox()[ENV]["commands"].replace("\\", " ")
    listed = {word.removeprefix("{toxinidir}/") for word in command.split()
              if word.startswith("{toxinidir}/")}
    found = _torch_tests()
    assert len(found) >= 4  # the scan sees the ones this was written for
    assert listed == found


def test_a_missing_torch_fails_the_run_when_required(tmp_path):
    (tmp_path / "torch.py").write_text('raise ModuleNotFoundError("No module named torch")\n')
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--collect-only", __file__], cwd=ROOT,
        capture_output=True, text=True,
        env={**os.environ, "SPORELING_REQUIRE_TORCH": "1", "PYTHONPATH": str(tmp_path)})
    assert run.returncode != 0
    assert "SPORELING_REQUIRE_TORCH=1, but torch does not import" in run.stdout + run.stderr
