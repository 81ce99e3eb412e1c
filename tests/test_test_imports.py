"""Every package's tests import only what that package's tox env installs.

Each env holds one distribution, its declared dependencies and its ``[test]`` extra, so a test
importing anything else fails there -- or, behind ``pytest.importorskip``, silently never runs.
Tests that need several packages belong in this folder (the ``integration`` env).
"""
import ast
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from repo_files import repo_files

ROOT = Path(__file__).resolve().parents[1]
PYPROJECTS = repo_files("pyproject.toml")
MODULE_DISTS = metadata.packages_distributions()
# cross-checks against PyTorch (importorskip), and the scripts under ms/tests/data that record
# reference values with real MindSpore in its own venv: never dependencies
OPTIONAL_REFERENCES = {"torch", "mindspore"}


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _installed_closure(project: dict) -> set[str]:
    """The distributions an env of this project holds: it, its dependencies, its test extra."""
    todo = [*project.get("dependencies", []),
            *project.get("optional-dependencies", {}).get("test", [])]
    seen = {project["name"].lower()}
    while todo:
        name = _name(todo.pop())
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo += [r for r in requires if "extra ==" not in r]
    return seen


def _imported_modules(source: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "sporeling":  # the namespace: what is imported is a package
                found |= {f"sporeling.{alias.name}" for alias in node.names}
            else:
                found.add(node.module)
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "importorskip"
              and node.args and isinstance(node.args[0], ast.Constant)):
            found.add(node.args[0].value)
    return found


def _distribution_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "sporeling" and len(parts) > 1:
        dists = MODULE_DISTS.get(f"sporeling.{parts[1]}") or []
        if not dists:  # editable installs map the namespace only: look the subpackage up
            for p in PYPROJECTS:
                if (p.parent / "src" / "sporeling" / parts[1]).is_dir():
                    return tomllib.loads(p.read_text())["project"]["name"].lower()
        return dists[0].lower() if dists else None
    dists = MODULE_DISTS.get(parts[0])
    return dists[0].lower().replace("_", "-") if dists else None


@pytest.mark.parametrize("pyproject", PYPROJECTS, ids=lambda p: p.parent.name)
def test_package_tests_import_only_what_their_env_installs(pyproject):
    project = tomllib.loads(pyproject.read_text())["project"]
    allowed = _installed_closure(project)
    tests = pyproject.parent / "tests"
    local = {p.stem for p in tests.rglob("*.py")} | {p.name for p in tests.rglob("*") if p.is_dir()}
    problems = []
    for path in sorted(tests.rglob("*.py")):
        for module in _imported_modules(path.read_text()):
            top = module.split(".")[0]
            if top in sys.stdlib_module_names or top in local or top in OPTIONAL_REFERENCES:
                continue
            dist = _distribution_of(module) or top  # not installed here: its own name
            if dist not in allowed:
                problems.append(f"{path.relative_to(ROOT)} imports {module} "
                                f"(distribution {dist}), not in {project['name']}'s env")
    assert problems == []
