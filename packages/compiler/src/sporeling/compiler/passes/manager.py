"""The pass manager: the registered passes, run in stages, filtered by level.

Stages run in the order of :data:`~.base.STAGES`; within one, passes run by ``order``.
``simplify`` repeats until a round changes nothing (a fold exposes a simplification, which
exposes a common subexpression...). The graph is verified at the end, and after every pass
when ``verify_each`` is true (default: the ``SPORELING_VERIFY_IR=1`` environment variable).

``SPORELING_DUMP=dir`` (or ``SPORELING_DUMP_IR=dir``, which wins; or
``set_context(save_graphs=dir)``; ``True`` means ``./sporeling_ir``) writes the IR text
before and after each pass that runs, as ``dir/<k>_<graph>/<n>_<pass>_before.ir`` and
``..._after.ir``; a code-generating backend writes what it generates there too (the TVM
backend: TensorIR and LLVM, under ``dir/tvm/``).

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(lambda x: ops.exp(ops.mul(ops.add(x, 0.0), 2.0)),
    ...                np.ones(3, np.float32))
    >>> optimize(g, "O1").primitive_counts()
    {'fused_elementwise': 1}
    >>> optimize(g, "O0").primitive_counts()
    {'add': 1, 'mul': 1, 'exp': 1}
"""
from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Iterable

from sporeling.core import ContextError, SporelingError, get_context, get_plugin_host

from ..ir import Graph, IRError, graph_to_text, verify
from .base import LEVELS, STAGES, Pass, PassContext, PassRegistry

__all__ = ["optimize", "registered_passes", "dump_dir", "DUMP_ENV", "VERIFY_ENV",
           "DEFAULT_DUMP_DIR"]

DUMP_ENV = "SPORELING_DUMP_IR"
DUMP_ALL_ENV = "SPORELING_DUMP"  # the IR and what backends generate from it
VERIFY_ENV = "SPORELING_VERIFY_IR"
DEFAULT_DUMP_DIR = "sporeling_ir"
_MAX_ROUNDS = 4
_dumps = itertools.count()


def registered_passes(host=None) -> PassRegistry:
    """Every pass the plugins contribute through ``sporeling_add_passes`` (built once per
    plugin host)."""
    host = host if host is not None else get_plugin_host()
    return host.cached("passes", lambda: host.collect("sporeling_add_passes", PassRegistry()))


def _context(key: str, default):
    try:
        return get_context(key)
    except ContextError:  # a plugin host without the compiler's plugin (tests)
        return default


def dump_dir() -> Path | None:
    """Where compilation writes what it made (None: nowhere): ``SPORELING_DUMP_IR``,
    ``SPORELING_DUMP`` or the ``save_graphs`` context key."""
    env = os.environ.get(DUMP_ENV) or os.environ.get(DUMP_ALL_ENV)
    if env:
        return Path(env)
    setting = _context("save_graphs", False)
    if setting is True:
        return Path(DEFAULT_DUMP_DIR)
    return Path(setting) if setting else None


class _Dumper:
    def __init__(self, root: Path | None, name: str):
        self.dir = None if root is None else root / f"{next(_dumps):03d}_{name}"
        self.n = 0

    def write(self, p: Pass, when: str, graph: Graph) -> None:
        if self.dir is None:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / f"{self.n:02d}_{p.name}_{when}.ir").write_text(graph_to_text(graph) + "\n")
        if when == "after":
            self.n += 1


def _run(p: Pass, graph: Graph, ctx: PassContext, dumper: _Dumper, check: bool) -> Graph:
    dumper.write(p, "before", graph)
    result = p.run(graph, ctx)
    if not isinstance(result, Graph):
        raise SporelingError(f"pass {p.name!r} did not return a Graph", op="optimize",
                             expected="a Graph", got=type(result).__name__)
    dumper.write(p, "after", result)
    if check and result is not graph:
        try:
            verify(result)
        except IRError as exc:
            raise IRError(f"pass {p.name!r} produced a malformed graph: {exc.detail}",
                          where=exc.where, expected=exc.expected, got=exc.got) from exc
    return result


def optimize(graph: Graph, level: str | None = None, name: str | None = None, *,
             passes: PassRegistry | None = None, only: Iterable[str] | None = None,
             verify_each: bool | None = None, ctx: PassContext | None = None,
             backend=None) -> Graph:
    """``graph`` after the passes of ``level`` (default: the context's ``jit_level``).

    ``name`` labels the dumps (default: the graph's name); ``passes`` replaces the
    registered passes, ``only`` restricts them to some names; ``ctx`` collects statistics;
    ``backend`` is the one the graph will be lowered on (default: the device target's).
    """
    level = level if level is not None else _context("jit_level", "O1")
    if level not in LEVELS:
        raise SporelingError("unknown optimisation level", op="optimize",
                             expected=" or ".join(LEVELS), got=repr(level))
    registry = passes if passes is not None else registered_passes()
    only = None if only is None else set(only)
    if ctx is None:
        ctx = PassContext(level)
    ctx.level = level
    if backend is not None:
        ctx.backend = backend
    ctx.options.setdefault("recompute", _context("recompute", False))
    check = os.environ.get(VERIFY_ENV, "") == "1" if verify_each is None else verify_each
    dumper = _Dumper(dump_dir(), name or graph.name)
    for stage in STAGES:
        selected = [p for p in registry.in_stage(stage)
                    if p.applies(ctx) and (only is None or p.name in only)]
        for _ in range(_MAX_ROUNDS if stage == "simplify" else 1):
            before = graph
            for p in selected:
                graph = _run(p, graph, ctx, dumper, check)
            if graph is before:
                break
    verify(graph)
    return graph
