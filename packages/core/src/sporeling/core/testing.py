"""Checks that plugin authors (and our own suites) run on their packages."""
from __future__ import annotations

import doctest
import importlib
import linecache
import pkgutil
import re
from pathlib import Path

from .hooks import PluginHost

__all__ = ["hookspec_problems", "run_doctests", "install_problems", "run_example"]

_MODULE_OF = {"sporeling-modelzoo": "sporeling.zoo"}  # distributions not named after it


def install_problems(distribution: str) -> list[str]:
    """Problems with an installed distribution: its subpackage or one of the Sporeling
    distributions it declares cannot be imported, or ``sporeling`` is not a PEP 420
    namespace. A skeleton package's suite is this one check."""
    from importlib import metadata

    problems = []
    import sporeling
    if getattr(sporeling, "__file__", None) is not None:
        problems.append(f"sporeling is a regular package ({sporeling.__file__}), not a namespace")
    declared = [re.split(r"[\s<>=!~;\[(]", r, maxsplit=1)[0]
                for r in metadata.requires(distribution) or []]
    for dist in [distribution] + [d for d in declared if d.startswith("sporeling-")]:
        name = dist.removeprefix("sporeling-").replace("-", "_")  # sporeling-numba-backend
        module = _MODULE_OF.get(dist, "sporeling." + name)
        try:
            importlib.import_module(module)
        except ImportError as exc:
            problems.append(f"{module} (from {dist}) does not import: {exc}")
    return problems


def run_example(source: str, name: str, scope: dict | None = None) -> dict:
    r"""Run a documentation example (e.g. a README's code block) and return its globals.

    The source is registered under the file name ``<name>``, so that whatever reads a
    function's source back (Graph mode's AST conversion, tracebacks) finds these lines --
    not those of whichever file a plain name such as ``README.md`` would resolve to from
    the current directory.

        >>> run_example("def double(x):\n    return 2 * x\ny = double(21)\n", "doc")["y"]
        42
    """
    filename = f"<{name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    scope = {} if scope is None else scope
    exec(compile(source, filename, "exec"), scope)
    return scope


def run_doctests(package: str) -> tuple[int, int]:
    """Run the docstring examples of every module of ``package``; returns (failed, attempted).

    Each package's suite calls this so that the examples in its docs keep working::

        def test_docstring_examples_run():
            failed, attempted = run_doctests("sporeling.core")
            assert failed == 0 and attempted > 0
    """
    root = importlib.import_module(package)
    names = [package] + [m.name for m in pkgutil.walk_packages(getattr(root, "__path__", []),
                                                               package + ".")]
    failed = attempted = 0
    for name in names:
        result = doctest.testmod(importlib.import_module(name),
                                 optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        failed, attempted = failed + result.failed, attempted + result.attempted
    return failed, attempted


def hookspec_problems(host: PluginHost, root: Path) -> list[str]:
    """Problems with the hookspecs ``host`` knows: a spec without a docstring, or one whose
    name appears in no ``tests/`` Python file under ``root``."""
    test_sources = [p.read_text(encoding="utf-8") for p in Path(root).rglob("tests/**/*.py")
                    if ".tox" not in p.parts and ".venv" not in p.parts]
    problems = []
    for name, spec in sorted(host.hookspecs().items()):
        if not (spec.__doc__ or "").strip():
            problems.append(f"{name}: no docstring")
        if not any(name in source for source in test_sources):
            problems.append(f"{name}: no test mentions it")
    return problems
