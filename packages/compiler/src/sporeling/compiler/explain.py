"""What a compiled program does, in words: which equations fused, which calls run as
generated code, which run a library's or NumPy's kernel, and what fell back -- the report of
``jit(f).explain()``.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> from sporeling.compiler.pipeline import compile_graph
    >>> from sporeling.runtime import get_backend
    >>> x = np.ones((4, 3), np.float32)
    >>> exe = compile_graph(make_graph(lambda x: ops.sum(ops.exp(ops.mul(x, 2.0))), x),
    ...                     level="O1", backend=get_backend("numpy"))
    >>> print(explain(exe, level="O1"))  # doctest: +ELLIPSIS
    program <lambda>: jit_level O1, lowered on numpy, 2 calls, arena ... B
      fused: 1 elementwise chain of 2 equations
      numpy: 2 (fused_elementwise, sum)
    <BLANKLINE>
         # primitive                  runs on         operands -> results
         0 fused_elementwise          numpy           f32[4,3] -> f32[4,3]  (mul, exp)  at ...
         1 sum                        numpy           f32[4,3] -> f32[]  at ...
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from sporeling.runtime import CallReport
from sporeling.runtime.executor.replay import describe as describe_step

from .core.primitive import primitives
from .ir import Var

__all__ = ["explain"]

_FUSED = ("fused_elementwise", "fused_reduce")


def explain(executable, level: str | None = None) -> str:
    """The report of ``executable`` (a compiled graph, :class:`~.pipeline.Executable`):
    a summary -- chains fused, calls per provider, what a code-generating backend did not
    generate and why -- then one line per call with its operands' and results' shapes and
    the user's source line where it has one; then the same for each sub-program (the
    bodies and conditions of its ``cond``, ``while_loop`` and ``scan``, compiled once each),
    indented under it."""
    return "\n".join(_report(executable.program, level, ""))


def _report(lowered, level, indent: str) -> list[str]:
    """The lines of :func:`explain` for one lowered program and its sub-programs."""
    program = lowered.program
    backend = program.backend
    specs = _slot_specs(lowered)
    registered = primitives()
    rows, by_runner, not_generated = [], {}, []
    for k, ins in enumerate(program.instructions):
        operands = [specs.get(s) for s in ins.inputs]
        report = backend.explain_call(ins.name, ins.params, operands) \
            if None not in operands else CallReport(backend.provider(ins.name))
        by_runner.setdefault(report.provider, Counter())[ins.name] += 1
        if report.not_generated is not None:
            not_generated.append(f"#{k} {ins.name}: {report}")
        rows.append((k, ins, report, operands))
    native = " (native)" if getattr(backend, "native", False) else ""
    what = "program" if not indent else "sub-program"
    lines = [f"{what} {program.name}: jit_level {level or '?'}, lowered on "
             f"{backend.name}{native}, {len(program.instructions)} calls, arena "
             f"{_size(program.arena_bytes)}"]
    lines += _fusion_summary(program.instructions)
    step = describe_step(program)
    if step is not None:
        lines.append(f"  whole step: {step}")
    for runner, names in sorted(by_runner.items(), key=lambda kv: -sum(kv[1].values())):
        detail = ", ".join(f"{n} {c}" if c > 1 else n for n, c in names.most_common())
        lines.append(f"  {runner}: {sum(names.values())} ({detail})")
    if not_generated:
        lines.append("  not generated (the provider below runs them):")
        lines += [f"    {line}" for line in not_generated]
    lines += ["", f"  {'#':>4} {'primitive':<26} {'runs on':<15} operands -> results"]
    for k, ins, report, operands in rows:
        results = " ".join(_spec(specs.get(s)) for s in ins.outputs)
        runs_on = f"{report.provider}: generated" if report.generated else report.provider
        text = f"  {k:>4} {ins.name:<26} {runs_on:<15} " \
               f"{' '.join(_spec(o) for o in operands)} -> {results}"
        if ins.name in _FUSED and ins.params.get("expr"):
            text += "  (" + ", ".join(node[0] for node in ins.params["expr"]) + ")"
        if ins.params.get("members"):
            text += f"  ({len(ins.params['members'])} members)"
        describe = getattr(registered.get(ins.name), "describe", None)
        if describe is not None:
            text += f"  ({describe(**ins.params)})"
        if ins.where:
            text += f"  at {ins.where}"
        lines.append(text)
    for sub in lowered.sub_programs:
        lines += [""] + _report(sub, level, "    ")
    return [indent + line if line else line for line in lines]


def _fused(instructions):
    """``(kind, expr)`` of every fused chain and reduction, a group's members included (a
    backend's pass may group consecutive ones into one call: ``members`` with a ``kind``
    and ``params`` each)."""
    for ins in instructions:
        if ins.name in _FUSED:
            yield ins.name, ins.params.get("expr", ())
        for member in ins.params.get("members", ()):
            yield member.kind, dict(member.params).get("expr", ())


def _fusion_summary(instructions) -> list[str]:
    fused = list(_fused(instructions))
    chains = [expr for kind, expr in fused if kind == "fused_elementwise"]
    reductions = [expr for kind, expr in fused if kind == "fused_reduce"]
    groups = [ins for ins in instructions if ins.params.get("members")]
    if not chains and not reductions:
        return ["  fused: nothing"]
    parts = []
    if chains:
        size = sum(len(expr) for expr in chains)
        parts.append(f"{len(chains)} elementwise chain{'s' * (len(chains) > 1)} of {size} "
                     f"equations")
    if reductions:
        parts.append(f"{len(reductions)} reduction{'s' * (len(reductions) > 1)} of chains")
    if groups:
        size = sum(len(ins.params["members"]) for ins in groups)
        parts.append(f"{size} of them in {len(groups)} group{'s' * (len(groups) > 1)} "
                     f"(one call each)")
    return ["  fused: " + ", ".join(parts)]


def _slot_specs(lowered) -> dict:
    """Slot -> ``(shape, dtype)`` of every value the program holds."""
    specs = {}
    for key, slot in lowered.slot_of.items():
        if isinstance(key, Var):
            specs[slot] = (tuple(key.aval.shape), np.dtype(key.aval.dtype))
    for slot, value in lowered.program.constants.items():
        specs[slot] = (np.shape(value), np.asarray(value).dtype)
    return specs


def _spec(spec) -> str:
    if spec is None:
        return "?"
    shape, dtype = spec
    kind = {"f": "f", "i": "i", "u": "u", "b": "bool", "c": "c"}.get(dtype.kind, dtype.kind)
    bits = "" if kind == "bool" else str(dtype.itemsize * 8)
    return f"{kind}{bits}[{','.join(map(str, shape))}]"


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    return f"{n / 1024:.1f} KiB" if n < 1024 ** 2 else f"{n / 1024 ** 2:.1f} MiB"
