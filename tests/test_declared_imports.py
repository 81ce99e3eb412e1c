"""Every distribution imports only what its pyproject declares (issue 23 §10: armour
imported compiler internals without declaring sporeling-compiler). A static check over
each distribution's source (its tests have their own environments): every `sporeling.*`
package imported must be the distribution itself or one it declares, and every third-party
top-level module must come from a declared distribution or one of its extras (other than
`test`: an extra is how a user asks for an optional feature, e.g. `sporeling-parallel[mpi]`),
unless the import is optional (inside a `try` that catches ImportError)."""
import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from repo_files import repo_files

ROOT = Path(__file__).resolve().parents[1]
PYPROJECTS = repo_files("pyproject.toml")
_SUBPACKAGE_OF = {}  # "sporeling.x" -> distribution name
for _p in PYPROJECTS:
    _name = tomllib.loads(_p.read_text())["project"]["name"]
    for _sub in (_p.parent / "src" / "sporeling").iterdir():
        if _sub.is_dir() and not _sub.name.startswith("__"):
            _SUBPACKAGE_OF[f"sporeling.{_sub.name}"] = _name


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _imports(path: Path):
    """(module, optional) for every import in the file: optional when inside a try whose
    handlers catch ImportError (or ModuleNotFoundError, or everything)."""
    tree = ast.parse(path.read_text(), str(path))
    optional_nodes = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
                h.type is None or any(isinstance(n, ast.Name) and n.id in (
                    "ImportError", "ModuleNotFoundError", "Exception")
                    for n in ast.walk(h.type)) for h in node.handlers):
            for inner in node.body:
                optional_nodes.update(id(n) for n in ast.walk(inner))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, id(node) in optional_nodes
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, id(node) in optional_nodes


def _problems(pyproject: Path) -> list[str]:
    project = tomllib.loads(pyproject.read_text())["project"]
    own = project["name"]
    requirements = list(project.get("dependencies", []))
    for extra, deps in project.get("optional-dependencies", {}).items():
        if extra != "test":
            requirements += deps
    declared = {_normal(re.split(r"[\s<>=!~;\[]", d, maxsplit=1)[0])
                for d in requirements} | {_normal(own)}
    dists_of = packages_distributions()
    problems = []
    for path in sorted((pyproject.parent / "src").rglob("*.py")):
        for module, optional in _imports(path):
            top = module.split(".")[0]
            where = f"{path.relative_to(ROOT)}: {module}"
            if module == "sporeling":  # the namespace itself
                continue
            if top == "sporeling":
                sub = ".".join(module.split(".")[:2])
                dist = _SUBPACKAGE_OF.get(sub)
                if dist is None or (_normal(dist) not in declared and not optional):
                    problems.append(f"{where} (from {dist or 'no distribution'}, undeclared)")
            elif top not in sys.stdlib_module_names and top != "__future__" and not optional:
                dists = {_normal(d) for d in dists_of.get(top, [])}
                if not dists & declared:
                    problems.append(f"{where} (from {sorted(dists) or 'nothing installed'}, "
                                    "undeclared)")
    return problems


@pytest.mark.parametrize("pyproject", PYPROJECTS, ids=lambda p: p.parent.name)
def test_a_distribution_imports_only_what_it_declares(pyproject):
    assert _problems(pyproject) == []
