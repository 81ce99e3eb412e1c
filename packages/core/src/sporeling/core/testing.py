"""Checks that plugin authors (and our own suites) run on their packages."""
from __future__ import annotations

import contextlib
import doctest
import importlib
import inspect
import linecache
import math
import pkgutil
import re
import signal
from pathlib import Path
from typing import Callable

from .hooks import PluginHost

__all__ = ["hookspec_problems", "run_doctests", "install_problems", "run_example",
           "BAD_ARGUMENTS", "bad_argument_problems"]

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


# one of each kind of wrong argument: a string, an arbitrary object, None, NaN, a negative
# and a huge number (which must be refused before anything that size is allocated)
BAD_ARGUMENTS = {"str": "abc", "object": object(), "None": None, "nan": math.nan,
                 "negative": -3, "huge": 2 ** 62}


@contextlib.contextmanager
def _time_limit(seconds: float):
    """Raise TimeoutError in the block after ``seconds`` (a no-op off POSIX or off the
    main thread, where SIGALRM cannot be used)."""
    try:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
    except (AttributeError, ValueError):
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _on_alarm(signum, frame):
    raise TimeoutError("still running: a hang, or work sized by a huge argument")


def _escaped(fn: Callable, kwargs: dict, seconds: float) -> BaseException | None:
    """The exception ``fn(**kwargs)`` raised if it is not a SporelingError, else None."""
    from .errors import SporelingError
    try:
        with _time_limit(seconds):
            fn(**kwargs)
    except SporelingError:
        return None
    except Exception as exc:  # noqa: BLE001  (anything else is what we are looking for)
        return exc
    return None


def bad_argument_problems(callables: dict[str, Callable], good: Callable[[str], object],
                          bad: dict[str, object] | None = None, *,
                          params: Callable[[str, inspect.Parameter], bool] | None = None,
                          seconds: float = 5.0) -> list[str]:
    """Call each of ``callables`` (name -> function or class) with one parameter at a time
    set to each of ``bad`` (default :data:`BAD_ARGUMENTS`) and the required others to
    ``good(parameter_name)``; a problem is each call that raised anything but a
    SporelingError or ran longer than ``seconds``. ``params(name, parameter)`` picks which
    parameters to try (default: every named one).

        >>> def area(width, height=1):
        ...     return int(width) * height
        >>> bad_argument_problems({"area": area}, good=lambda name: 2, bad={"str": "abc"})
        ["area(width='abc'): ValueError: invalid literal for int() with base 10: 'abc'"]

    (``area(2, height="abc")`` returns ``"abcabc"``: no error, no problem.)
    """
    bad = BAD_ARGUMENTS if bad is None else bad
    problems = []
    for name, fn in callables.items():
        try:
            signature = inspect.signature(fn)
        except (TypeError, ValueError):  # a builtin without one: nothing to vary
            continue
        named = [p for p in signature.parameters.values()
                 if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        required = {p.name: good(p.name) for p in named if p.default is p.empty}
        for p in named:
            if params is not None and not params(name, p):
                continue
            for value in bad.values():
                exc = _escaped(fn, {**required, p.name: value}, seconds)
                if exc is not None:
                    problems.append(f"{name}({p.name}={value!r:.40}): "
                                    f"{type(exc).__name__}: {str(exc)[:120]}")
    return problems
