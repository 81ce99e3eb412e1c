"""Install one Sporeling distribution and the Sporeling distributions it declares, nothing more.

tox calls this for each package's environment, so a dependency that a package uses but does
not declare is missing there and its tests fail. Sporeling distributions are installed
editable from this repository (pip never looks them up on an index); everything else they
declare comes from the package index as usual.

    python .ci/install_closure.py sporeling-runtime        # + its [test] extra
    python .ci/install_closure.py -r requirements.txt      # everything (integration, e2e)

It installs with uv when uv is on PATH (CI installs tox-uv, which brings it: editable
builds are cached, an environment takes seconds instead of a minute), else with pip.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _names(requirements) -> list[str]:
    return [re.split(r"[\s<>=!~;\[]", d, maxsplit=1)[0] for d in requirements]


def _pyprojects():
    """The repository's pyproject.toml files. Hidden folders (.tox, .git) are never
    entered: under `tox p` other environments install into .tox meanwhile, and a folder
    vanishing under a glob raised FileNotFoundError."""
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
        if "pyproject.toml" in files:
            yield Path(folder) / "pyproject.toml"


def distributions() -> dict[str, tuple[Path, list[str], list[str]]]:
    """Every distribution in the repository: name -> (folder, declared dependencies, its
    [test] extra)."""
    found = {}
    for pyproject in _pyprojects():
        project = tomllib.loads(pyproject.read_text())["project"]
        test = project.get("optional-dependencies", {}).get("test", [])
        found[project["name"]] = (pyproject.parent, _names(project.get("dependencies", [])),
                                  _names(test))
    return found


def closure(name: str, dists: dict) -> list[str]:
    """``name`` and, recursively, the Sporeling distributions it declares (its own [test]
    extra's included: they come from this repository, never from an index)."""
    extra = [d for d in dists[name][2] if d.startswith("sporeling-")] if name in dists else []
    order, todo = [], [name] + extra
    while todo:
        current = todo.pop()
        if current in order:
            continue
        if current not in dists:
            sys.exit(f"install_closure: no distribution {current!r} in this repository; "
                     f"known: {', '.join(sorted(dists))}")
        order.append(current)
        todo += [d for d in dists[current][1] if d.startswith("sporeling-")]
    return order


def install(args: list[str]) -> None:
    """``pip install`` ``args`` into this interpreter's environment (through uv if present)."""
    uv = shutil.which("uv")
    command = ([uv, "pip", "install", "--quiet", "--python", sys.executable] if uv else
               [sys.executable, "-m", "pip", "install", "-q"])
    subprocess.run([*command, *args], check=True)


def main() -> None:
    if sys.argv[1] == "-r":
        install(["-r", sys.argv[2]])
        return
    dists = distributions()
    names = closure(sys.argv[1], dists)
    args = []
    for name in names:
        folder = dists[name][0]
        extra = "[test]" if name == sys.argv[1] else ""
        args += ["-e", f"{folder}{extra}"]
    print("installing", ", ".join(names), flush=True)
    install(args)


if __name__ == "__main__":
    main()
