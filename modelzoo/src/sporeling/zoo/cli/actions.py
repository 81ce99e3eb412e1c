"""What each ``sporeling zoo`` action does; each prints to stdout and returns an exit status
(errors are Sporeling errors, which the ``sporeling`` command prints without a traceback)."""
from __future__ import annotations

import argparse
import sys

from sporeling.core import format_size

from ..hub import Weights, cached_path, sha256_of
from ..hub.download import fetch
from ..hub.loader import load, weights_of
from ..registry import get_model_entry, get_models

__all__ = ["list_models", "info", "pull", "evaluate", "train"]


def _metrics(weights: Weights | None) -> str:
    if weights is None or not weights.metrics:
        return "-"
    return ", ".join(f"{k}={v:g}" for k, v in weights.metrics.items())


def _table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1]
                     for r in rows)


def list_models(args: argparse.Namespace) -> int:
    models = get_models()
    rows = [("NAME", "WEIGHTS", "LICENSE", "METRICS", "DESCRIPTION")]
    for name in models.names():
        entry = models[name]
        w = entry.weights
        rows.append((name, format_size(w.size) if w else "-", w.license if w else "-",
                     _metrics(w), entry.description))
    print(_table(rows))
    return 0


def _where(name: str, w: Weights) -> str:
    path = cached_path(name, w.file)
    if path.is_file():
        return f"in the cache: {path}"
    if "package" in w.sources():
        return "shipped in a package (read in place)"
    return f"not pulled yet (would go to {path})"


def info(args: argparse.Namespace) -> int:
    entry = get_model_entry(args.name, op="zoo info")
    lines = [f"name:        {entry.name}", f"description: {entry.description}",
             f"input shape: {entry.input_shape} (one sample)",
             f"plugin:      {get_models().source_of(entry.name)}"]
    w = entry.weights
    if w is None:
        lines.append("weights:     none registered")
    else:
        lines += [f"weights:     {w.file} ({format_size(w.size)}, {w.size} bytes)",
                  f"sha256:      {w.sha256}", f"license:     {w.license}",
                  f"metrics:     {_metrics(w)}", f"recipe:      {w.recipe or '-'}",
                  f"status:      {_where(entry.name, w)}"]
        if w.model_kwargs:
            lines.append(f"built with:  {w.model_kwargs}")
        lines += ["sources:"] + [f"  {url}" for url in w.urls]
    print("\n".join(lines))
    return 0


def _progress(args) -> bool | None:
    return False if args.no_progress else None


def pull(args: argparse.Namespace) -> int:
    models = get_models()
    names = list(args.names)
    if args.all:
        names += [n for n in models.names() if models[n].weights is not None]
    if not names:
        print("sporeling zoo pull: name a model (or --all)", file=sys.stderr)
        return 2
    for name in dict.fromkeys(names):
        w = weights_of(name, op="zoo pull")
        path = fetch(name, w, progress=_progress(args))
        print(f"{name}: {path} (sha256 {w.sha256[:12]}..., {format_size(w.size)}) verified")
    return 0


def evaluate(args: argparse.Namespace) -> int:
    from .. import recipes
    net = load(args.name, pretrained=True, progress=_progress(args))
    measured = recipes.evaluate(args.recipe or args.name, net)
    recorded = weights_of(args.name, op="zoo eval").metrics
    rows = [("METRIC", "RECORDED", "MEASURED")]
    for key in dict.fromkeys([*recorded, *measured]):
        rows.append((key, f"{recorded[key]:.6g}" if key in recorded else "-",
                     f"{measured[key]:.6g}" if key in measured else "-"))
    print(f"{args.name}: weights evaluated with the recipe of {args.recipe or args.name!r}")
    print(_table(rows))
    return 0


def train(args: argparse.Namespace) -> int:
    from .. import recipes
    get_model_entry(args.name, op="zoo train")
    path, metrics = recipes.train(args.name, seed=args.seed, out_dir=args.out)
    sha, size = sha256_of(path), path.stat().st_size
    print(f"{args.name}: trained with seed {args.seed} -> {path}")
    print(", ".join(f"{k}={v:g}" for k, v in metrics.items()))
    print(f"sha256 {sha}, {size} bytes")
    registered = get_model_entry(args.name).weights
    if registered is not None:
        same = "yes, bit for bit" if registered.sha256 == sha else "no (compare the metrics)"
        print(f"the registered weights reproduced: {same}")
    shown = {k: v for k, v in metrics.items() if k != "train_seconds"}
    print(f"registry entry: Weights(file={path.name!r}, sha256={sha!r}, size={size}, "
          f"urls=(...), license=..., metrics={shown!r}, "
          f"recipe='sporeling zoo train {args.name} --seed {args.seed}')")
    return 0
