"""The repository's own files, found without entering hidden folders (.tox, .git): under
`tox p` other environments install into .tox while these tests run, and a folder vanishing
under a glob raised FileNotFoundError."""
import fnmatch
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def repo_files(pattern: str) -> list[Path]:
    """The files whose path inside the repository is ``pattern`` in some folder (fnmatch:
    ``*.md``, ``pyproject.toml``, ``src/sporeling/__init__.py``), sorted."""
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if not d.startswith(".")]
        for name in files:
            path = Path(folder) / name
            relative = path.relative_to(ROOT).as_posix()
            if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(relative, "*/" + pattern):
                found.append(path)
    return sorted(found)
