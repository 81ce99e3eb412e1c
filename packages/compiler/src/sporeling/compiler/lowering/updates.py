"""Parameter updates written in place: ``assign(w, value)`` with no copy.

A compiled training step ends with one ``assign`` per updated Parameter (``w`` a graph
input, the Parameter's own buffer). When ``value`` comes from a kernel writing ``out=``,
and nothing reads ``w``'s old contents after that kernel -- directly, through a view, or in
the kernel itself at a position it may not write over -- the kernel writes ``value`` into
``w``'s buffer and the ``assign`` finds nothing left to copy (its kernel returns ``w`` when
given ``w``). A momentum update ``v = m*v + g; w = w - lr*v`` then streams each buffer once
instead of twice.

A multi-result kernel of kind ``outs`` (a group of generated loops) takes such buffers for
any of its results -- ``out=`` a tuple, None where it allocates -- under the same rule, with
the input positions each of its results may write over.

The buffer is the caller's: a read-only input (a Parameter fed as a copy, see
``sporeling.expression.graph.effects``) is not written; the kernel then allocates, and the
``assign`` behaves as it always did.
"""
from __future__ import annotations

from .liveness import Liveness, Step

__all__ = ["updates_in_place"]


def updates_in_place(names: list, steps: list[Step], input_slots, output_slots,
                     live: Liveness) -> dict[int, int | tuple]:
    """Instruction index -> the input slot its result is written into (a multi-result
    kernel's: a tuple, one entry per result, None where none), for each ``assign``
    (``names[i] == "assign"``, inputs ``(target, value)``) whose value can be computed in
    the target's buffer. ``live`` is the liveness of ``steps`` (for views of the target)."""
    producer = {}  # value -> (step, which result: None for a single-result "out" kernel)
    for i, s in enumerate(steps):
        if s.kind == "out" and len(s.outputs) == 1:
            producer[s.outputs[0]] = (i, None)
        elif s.kind == "outs":
            producer.update((v, (i, j)) for j, v in enumerate(s.outputs))
    inputs, outputs = set(input_slots), set(output_slots)
    found: dict[int, int | dict] = {}
    taken: set = set()
    for a, step in enumerate(steps):
        if names[a] != "assign" or len(step.inputs) != 2:
            continue
        target, value = step.inputs
        p, j = producer.get(value, (None, None))
        if (p is None or target not in inputs or value in outputs or p > a
                or target in taken):
            continue
        writes_over = steps[p].in_place if j is None else steps[p].in_place[j]
        if _old_value_read_after(target, p, a, steps, live, writes_over) or any(
                target in live.roots.get(o, ()) for o in outputs if o != step.outputs[0]):
            continue
        taken.add(target)
        if j is None:
            found[p] = target
        else:
            found.setdefault(p, {})[j] = target
    return {p: t if isinstance(t, int) else
            tuple(t.get(j) for j in range(len(steps[p].outputs))) for p, t in found.items()}


def _old_value_read_after(target, p, a, steps, live, writes_over) -> bool:
    """Whether an instruction from ``p`` on (but ``a``) reads ``target``'s buffer --
    ``p`` itself only at the positions ``writes_over`` it may write over is fine."""
    for t in range(p, len(steps)):
        if t == a:
            continue
        step = steps[t]
        for i, v in enumerate(step.inputs):
            if target in live.roots.get(v, ()) and not (
                    t == p and v == target and i in writes_over):
                return True
    return False
