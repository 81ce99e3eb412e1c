"""Cross-package checks, run with every distribution installed (tox env `integration`)."""
import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sporeling.core import get_plugin_host
from sporeling.core.testing import hookspec_problems

from repo_files import repo_files

ROOT = Path(__file__).resolve().parents[1]
PYPROJECTS = repo_files("pyproject.toml")
ORDER = ["core", "runtime", "compiler", "expression", "data", "amp", "parallel"]


def test_sporeling_is_a_pep420_namespace():
    assert repo_files("src/sporeling/__init__.py") == []
    import sporeling
    assert getattr(sporeling, "__file__", None) is None


@pytest.mark.parametrize("pyproject", PYPROJECTS, ids=lambda p: p.parent.name)
def test_each_distribution_ships_one_subpackage_and_is_installed(pyproject):
    project = tomllib.loads(pyproject.read_text())
    (subpackage,) = [p.name for p in (pyproject.parent / "src" / "sporeling").iterdir()
                     if p.is_dir() and not p.name.startswith("__")]
    importlib.import_module(f"sporeling.{subpackage}")
    assert (pyproject.parent / "README.md").exists() and (pyproject.parent / "tests").is_dir()
    assert project["project"]["name"].startswith("sporeling-")


@pytest.mark.parametrize("pyproject", PYPROJECTS, ids=lambda p: p.parent.name)
def test_dependencies_point_down_the_stack(pyproject):
    project = tomllib.loads(pyproject.read_text())["project"]
    name = project["name"].removeprefix("sporeling-")
    ours = [d.removeprefix("sporeling-") for d in project.get("dependencies", [])
            if d.startswith("sporeling-")]
    if name in ORDER:
        assert all(dep in ORDER[:ORDER.index(name)] for dep in ours), ours
    if name in ("core",):
        assert ours == []
    if name == "data":
        assert ours == ["core"]


def test_every_hookspec_of_every_package_has_a_docstring_and_a_test():
    assert hookspec_problems(get_plugin_host(), ROOT) == []


SPORELING = str(Path(sys.executable).parent / "sporeling")  # the console script of this env


def test_console_lists_core_and_runtime_plugins():
    out = subprocess.run([SPORELING, "plugins"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "sporeling-core" in out.stdout and "sporeling-runtime" in out.stdout


def test_console_version_lists_every_distribution():
    out = subprocess.run([SPORELING, "--version"], capture_output=True, text=True)
    names = [tomllib.loads(p.read_text())["project"]["name"] for p in PYPROJECTS]
    assert all(name in out.stdout for name in names), out.stdout


def test_conftest_fixtures_stay_in_their_package():
    """One pytest session over several packages: runtime's autouse pool fixture (with its
    gc.collect) must not attach to core's tests."""
    out = subprocess.run([sys.executable, "-m", "pytest", "--setup-plan", "-q",
                          str(ROOT / "packages/core/tests/test_units.py"),
                          str(ROOT / "packages/runtime/tests/test_options.py")],
                         capture_output=True, text=True, cwd=ROOT / "packages")
    core_lines = [line for line in out.stdout.splitlines() if "test_units.py" in line]
    assert core_lines and not any("_fresh_context_and_pool" in line for line in core_lines)


def test_docs_stand_alone():
    """A user's clone holds only the repository: no document may point outside it."""
    outside = [f"{p.relative_to(ROOT)}:{n}" for p in repo_files("*.md")
               for n, line in enumerate(p.read_text().splitlines(), 1) if "../shared" in line]
    assert outside == []
    assert (ROOT / "docs" / "architecture.md").exists()
