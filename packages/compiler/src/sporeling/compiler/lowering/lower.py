"""Lowering a graph to a runtime :class:`~sporeling.runtime.executor.Program`.

Each equation becomes one instruction calling its primitive's kernel (the same kernel the
eager interpreter calls, so results equal :func:`~sporeling.compiler.ir.evaluate`'s); Vars
and Consts become numbered slots; the memory plan (:mod:`.memplan`) gives single-result
kernels an ``out=`` view of one arena. How an equation lowers is asked of its primitive's
record, in this order: its lowering rule (``prim.def_lowering``: control flow, whose kernel
is a closure running lowered sub-programs -- so the runtime never sees the IR), the
backend's kernel, its Python ``impl``; an equation with none of them was replaced before by
the primitive's decomposition (:mod:`.decompose`), or is a :class:`MissingRuleError`.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> x = np.ones((4, 8), np.float32)
    >>> g = make_graph(lambda x: ops.sum(ops.exp(ops.mul(x, 2.0)), axis=1), x)
    >>> lp = lower(g)
    >>> lp(x)[0].shape, lp.plan.in_place    # exp writes over mul's dead result
    ((4,), [(1, 2, 3)])
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sporeling.core import get_context
from sporeling.runtime import get_backend
from sporeling.runtime.executor import BufferSpec, Instruction, Program, build, run

from ..core.primitive import MissingRuleError
from ..ir import Const, Graph, verify
from .decompose import decompose
from .liveness import Step, analyse
from .memplan import MemoryPlan, plan_memory
from .updates import updates_in_place

__all__ = ["LoweredProgram", "lower"]


@dataclass(eq=False)
class LoweredProgram:
    """A runtime program with what the compiler knows about it: the slot of every Var,
    the memory plan, and the lowered sub-programs of control flow."""
    program: Program
    plan: MemoryPlan
    slot_of: dict
    sub_programs: list = field(default_factory=list)

    def __call__(self, *args) -> list:
        return run(self.program, args)

    @property
    def memory(self) -> dict:
        """The plan's statistics (arena, lower bound, ratio, in-place reuses, ...) plus
        the arenas of sub-programs (``sub_arena_bytes``, recursively)."""
        stats = self.plan.stats()
        stats["sub_arena_bytes"] = sum(s.memory["arena_bytes"] + s.memory["sub_arena_bytes"]
                                       for s in self.sub_programs)
        return stats


def _impl_kernel(impl):
    def kernel(backend, *inputs, out=None, **params):
        return impl(*inputs, **params)
    return kernel


def lower(graph: Graph, *, backend=None, plan: bool = True, in_place: bool = True,
          alignment: int = 64) -> LoweredProgram:
    """``graph`` as a runnable :class:`LoweredProgram` on ``backend`` (default: the one
    ``device_target`` chooses). ``plan=False`` lets every kernel allocate from the pool;
    ``in_place=False`` forbids buffer reuse by elementwise kernels."""
    verify(graph, check_types=False)
    backend = backend if backend is not None else get_backend(get_context("device_target"))
    graph = decompose(graph, backend)
    slot_of: dict = {}
    constants: dict = {}

    def slot(v) -> int:
        key = id(v) if isinstance(v, Const) else v
        s = slot_of.get(key)
        if s is None:
            s = slot_of[key] = len(slot_of)
            if isinstance(v, Const):
                constants[s] = v.value
        return s

    input_slots = tuple(slot(v) for v in graph.inputs)
    subs: list[LoweredProgram] = []

    def lower_sub(sub: Graph):
        lowered = lower(sub, backend=backend, plan=plan, in_place=in_place,
                        alignment=alignment)
        subs.append(lowered)
        return build(lowered.program)

    instructions, steps, sizes, keys, avals = [], [], {}, {}, {}
    for eq in graph.equations:
        prim = eq.prim
        name, multi = prim.name, prim.multiple_results
        ins = tuple(slot(v) for v in eq.inputs)
        outs = tuple(slot(v) for v in eq.outputs)
        params, kind, writes_over = dict(eq.params), "opaque", ()
        if prim.lowering is not None:
            kernel, params = prim.lowering(eq, lower_sub), {}
        elif backend.has_kernel(name):
            kernel = backend.kernel(name)
            memory = backend.kernel_memory(name)  # declared with the kernel, per backend
            kind = "opaque" if memory.kind == "out" and multi else memory.kind
            writes_over = memory.positions(len(ins), params) if kind in ("out", "outs") \
                else ()
        elif prim.impl is not None:
            kernel = _impl_kernel(prim.impl)
        else:
            raise MissingRuleError(f"cannot lower primitive {name!r}: no kernel on backend "
                                   f"{backend.name!r}, no lowering rule, no Python impl, "
                                   f"no decomposition", op=name, where=eq.source,
                                   hint="register a kernel (sporeling_add_kernels), or give "
                                        "the primitive a decomposition "
                                        "(prim.def_decomposition) or a lowering rule "
                                        "(prim.def_lowering)")
        steps.append(Step(ins, outs, kind, writes_over))
        if kind == "out":
            aval = eq.outputs[0].aval
            avals[outs[0]] = aval
            sizes[outs[0]] = int(np.prod(aval.shape, dtype=np.int64)) * aval.dtype.itemsize
        for v, s in zip(eq.inputs + eq.outputs, ins + outs):
            keys[s] = (tuple(v.aval.shape), v.aval.dtype)
        instructions.append(Instruction(kernel, ins, outs, params, None, multi, name,
                                        eq.source))
    prepare = getattr(backend, "prepare_kernels", None)
    if prepare is not None:  # a compiling backend builds the program's kernels together,
        # and may return, per call, its kernel prepared for that call's params and inputs
        prepared = prepare([(ins.name, ins.params, tuple(keys[s] for s in ins.inputs))
                            for ins in instructions])
        for ins, kernel in zip(instructions, prepared or ()):
            if kernel is not None:
                ins.kernel, ins.bound = kernel, True
    output_slots = tuple(slot(v) for v in graph.outputs)
    names = [ins.name for ins in instructions]
    into = updates_in_place(names, steps, input_slots, output_slots,
                            analyse(steps, output_slots)) if plan and "assign" in names else {}
    for p in into:  # writes a Parameter's buffer: not planned, aliases its inputs
        steps[p] = Step(steps[p].inputs, steps[p].outputs, "opaque")
        sizes.pop(instructions[p].outputs[0], None)
    memory = plan_memory(steps, sizes if plan else {}, keys, output_slots,
                         alignment=alignment, in_place=in_place)
    for ins in instructions:
        offset = memory.offsets.get(ins.outputs[0]) if ins.outputs else None
        if offset is not None:
            aval = avals[ins.outputs[0]]
            ins.out = BufferSpec(offset, tuple(aval.shape), aval.dtype)
    for p, target in into.items():  # a slot; for a multi-result kernel a tuple of them
        instructions[p].out = target
    program = Program(instructions, len(slot_of), input_slots, output_slots, constants,
                      memory.arena_bytes, backend, graph.name)
    return LoweredProgram(program, memory, slot_of, subs)
