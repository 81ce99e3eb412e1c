"""Dump MindSpore's public names, one sorted list per group, into ms/api/mindspore-<version>/.

    /work/ms-venv/bin/python ms/api/dump_names.py            # with MindSpore 2.10 installed
    /work/ms-venv/bin/python ms/api/dump_names.py --out DIR

Run it with an interpreter that has real MindSpore (never a dependency of Sporeling). The
groups and the rule for "public" are in ``groups.py`` (ms/api/README.md explains them);
``coverage.py`` reads the lists with the facade and applies the same rule to it.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import groups  # noqa: E402  (beside this file)


def header(group: groups.Group, version: str, dropped: int) -> list[str]:
    lines = [f"# MindSpore {version}: {group.title.replace('`', '')}",
             f"# target: {group.target}",
             f"# kind: {group.kind}" + (f" ({group.select})" if group.select else ""),
             "# dumped by ms/api/dump_names.py from the installed MindSpore; do not edit"]
    if dropped:
        lines.append(f"# ({dropped} entries of __all__ left out: not identifiers, private or "
                     "not bound)")
    return lines


def dropped_entries(group: groups.Group, root) -> int:
    """How many ``__all__`` entries of a namespace group's target the rule left out."""
    if group.kind != "namespace":
        return 0
    target = groups.resolve(root, group.target.partition(".")[2])
    declared = getattr(target, "__all__", None)
    if declared is None or group.select:
        return 0
    return len(set(declared)) - len(groups.namespace_names(target))


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("GLOG_v", "3")  # MindSpore's C++ log: errors only
    import mindspore  # noqa: PLC0415  (heavy: only here)

    version = ".".join(mindspore.__version__.split(".")[:2])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / f"mindspore-{version}")
    args = parser.parse_args(argv)
    if version != groups.VERSION:
        print(f"note: MindSpore {mindspore.__version__}, groups.VERSION is {groups.VERSION}",
              file=sys.stderr)
    args.out.mkdir(parents=True, exist_ok=True)
    for group in groups.GROUPS:
        names = sorted(groups.group_names(group, mindspore))
        text = "\n".join([*header(group, mindspore.__version__,
                                  dropped_entries(group, mindspore)), "", *names]) + "\n"
        (args.out / f"{group.key}.txt").write_text(text, encoding="utf-8")
        print(f"{group.key}: {len(names)} names")
    return 0


if __name__ == "__main__":
    sys.exit(main())
