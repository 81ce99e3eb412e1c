"""The TVM backend's ``fused_group`` kernel: one call of the group's generated function
(:mod:`.group_codegen`), compiled once per group and input shapes and dtypes; where TVM
does not generate it, its members run one by one on this backend's kernels."""
from __future__ import annotations

from operator import itemgetter

import numpy as np

from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING

from .group import Group, generic_group, layout, on_stack
from .kernels import (_lookup, _spec, compact, function, fused_elementwise, fused_reduce,
                      invoke, packed, views)

__all__ = ["fused_group", "prepared_group", "in_place"]

_GROUP_CALLS: dict = {}  # id(members) -> (members, {input specs: call})


def fused_group(backend, *inputs, out=None, members):
    """The members' results; ``out``: a buffer (or None) per result, for the results that
    are Parameters' new values (see :func:`in_place`)."""
    call, inputs = _lookup(_GROUP_CALLS, id(members), members, inputs, _group_call)
    return call(backend, *inputs, out=out)


def prepared_group(params: dict, specs) -> object:
    """The kernel of one call site of a program: its ``members`` bound, on inputs of these
    ``(shape, dtype)`` (a program's do not change), called without a lookup."""
    return _group_call(params["members"], None, tuple(_spec(*s) for s in specs))


def in_place(params: dict, n_inputs: int) -> tuple:
    """Per result, the inputs its buffer may be: those only the chain computing it reads
    (it reads each element before writing it; no other loop reads them at all -- one of
    the same nest could be scheduled to read after the write)."""
    readers: dict = {}
    for m, member in enumerate(params["members"]):
        for r in member.refs:
            if r >= 0:
                readers.setdefault(r, set()).add(m)
    return tuple(tuple(r for r in member.refs if r >= 0 and readers[r] == {m})
                 if member.kind == "fused_elementwise" else ()
                 for m, member in enumerate(params["members"]))


def _group_call(members, inputs, specs=None):
    """``call(backend, *inputs, out=None) -> results`` for ``members`` on inputs of these
    shapes and dtypes (``specs``: theirs, when no inputs are given)."""
    if specs is None:
        specs = tuple(_spec(a.shape, a.dtype) for a in inputs)
    group = Group(members, specs)
    plan = layout(members, group.specs)  # the arrays' shapes
    fn = None if isinstance(plan, str) else function(group)
    if fn is None:
        return _one_by_one(members)
    shared = generic_group(group)  # what the function was generated for
    arguments_of = layout(shared.members, shared.specs).args
    results = [(shape, np.dtype(dtype)) for shape, dtype in plan.results]
    n_in, n_out = len(specs), len(results)
    # the accumulators the function does not keep on its stack, allocated with the
    # results (in this call's shapes)
    passed = [(source, (tuple(shape), np.dtype(dtype)))
              for source, (shape, dtype), generated in zip(plan.sources, plan.args,
                                                          arguments_of)
              if not on_stack(source, *generated)]
    scratch = [spec for source, spec in passed if source[0] == "scratch"]
    # the function's arguments in order, as positions in (*inputs, *results, *scratch):
    # each array as it is (the function declares every array in its own shape)
    order, k = [], n_in + n_out
    for source, _ in passed:
        order.append(source[1] if source[0] == "in" else n_in + source[1]
                     if source[0] == "out" else k)
        k += source[0] == "scratch"
    arguments = itemgetter(*order) if len(order) > 1 else lambda a: (a[order[0]],)
    # where an argument fails (ValueError, BufferError: TVM reads compact, writeable
    # arrays only; TypeError: a program's constant that is a Python number) the inputs are
    # copied into arrays it takes
    fed = [(specs[at][0], np.dtype(specs[at][1])) if at < n_in else None for at in order]
    blocks: dict = {}  # which results the call allocates -> where they lie in one block
    everything = (True,) * n_out

    def run(backend, *inputs, out=None):
        # the results allocated are views of one pool buffer (kernels.packed); a
        # Parameter's new value is written where its old one was
        if out is None:
            block = blocks.get(everything)
            if block is None:
                block = blocks[everything] = packed(results + scratch)
            outs = views(backend.allocate((block[0],), np.uint8), block[1])
        else:
            fresh = tuple(o is None or not o.flags.c_contiguous for o in out)
            block = blocks.get(fresh)
            if block is None:
                block = blocks[fresh] = packed([r for r, f in zip(results, fresh) if f] +
                                               scratch)
            allocated = iter(views(backend.allocate((block[0],), np.uint8), block[1]))
            outs = [next(allocated) if f else o for f, o in zip(fresh, out)]
            outs += allocated
        args = arguments((*inputs, *outs))
        try:
            invoke(fn, *args)
        except (ValueError, BufferError, TypeError):
            if RECORDING:
                capture.impure("copies an operand")
            fn(*[a if spec is None else compact(np.asarray(a, spec[1]), spec[0])
                 for a, spec in zip(args, fed)])
        return tuple(outs[:n_out]) if scratch else tuple(outs)
    return run


def _one_by_one(members):
    def run(backend, *inputs, out=None):
        results = []
        for m, member in enumerate(members):
            operands = [inputs[r] if r >= 0 else results[-1 - r] for r in member.refs]
            kernel = fused_elementwise if member.kind == "fused_elementwise" else fused_reduce
            results.append(kernel(backend, *operands, out=None if out is None else out[m],
                                  **dict(member.params)))
        return tuple(results)
    return run
