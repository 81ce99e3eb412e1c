"""The TVM backend's ``fused_group`` kernel: one call of the group's generated function
(:mod:`.group_codegen`), compiled once per group and input shapes and dtypes; where TVM
does not generate it, its members run one by one on this backend's kernels."""
from __future__ import annotations

import numpy as np

from .group import Group, layout
from .kernels import (_lookup, _spec, compact, function, fused_elementwise, fused_reduce,
                      packed, views)

__all__ = ["fused_group", "in_place"]

_GROUP_CALLS: dict = {}  # id(members) -> (members, {input specs: call})


def fused_group(backend, *inputs, out=None, members):
    """The members' results; ``out``: a buffer (or None) per result, for the results that
    are Parameters' new values (see :func:`in_place`)."""
    call, inputs = _lookup(_GROUP_CALLS, id(members), members, inputs, _group_call)
    return call(backend, inputs, out)


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


def _group_call(members, inputs):
    """``call(backend, inputs) -> results`` for ``members`` on inputs of these shapes and
    dtypes."""
    group = Group(members, tuple(_spec(a.shape, a.dtype) for a in inputs))
    plan = layout(members, group.specs)
    fn = None if isinstance(plan, str) else function(group)
    if fn is None:
        return _one_by_one(members)
    results = [(shape, np.dtype(dtype)) for shape, dtype in plan.results]
    # each argument in order: ("in", input) or ("out", result) -- the array as it is: the
    # function declares every array in its own shape -- or ("scratch", shape, dtype), an
    # accumulator
    feeds = [("scratch", tuple(shape), np.dtype(dtype)) if source[0] == "scratch" else
             (source[0], source[1], None)
             for source, (shape, dtype) in zip(plan.sources, plan.args)]

    blocks: dict = {}  # which results the call allocates -> where they lie in one block
    everything = (True,) * len(results)

    def run(backend, inputs, out):
        # the results allocated are views of one pool buffer (kernels.packed); a
        # Parameter's new value is written where its old one was
        fresh = everything if out is None else \
            tuple(o is None or not o.flags.c_contiguous for o in out)
        block = blocks.get(fresh)
        if block is None:
            block = blocks[fresh] = packed([r for r, f in zip(results, fresh) if f])
        size, at = block
        allocated = iter(views(backend.allocate((size,), np.uint8), at))
        outs = [next(allocated) if f else o for f, o in zip(fresh, out or everything)]
        args = []
        for kind, what, dtype in feeds:
            args.append(inputs[what] if kind == "in" else outs[what] if kind == "out" else
                        np.empty(what, dtype))
        try:
            fn(*args)
        except (ValueError, BufferError):  # TVM reads compact, writeable arrays only:
            # the inputs that are not (a broadcast constant, a read-only copy) are copied
            fn(*[compact(a, a.shape) if feed[0] == "in" else a
                 for a, feed in zip(args, feeds)])
        return tuple(outs)
    return run


def _one_by_one(members):
    def run(backend, inputs, out):
        results = []
        for m, member in enumerate(members):
            operands = [inputs[r] if r >= 0 else results[-1 - r] for r in member.refs]
            kernel = fused_elementwise if member.kind == "fused_elementwise" else fused_reduce
            results.append(kernel(backend, *operands, out=None if out is None else out[m],
                                  **dict(member.params)))
        return tuple(results)
    return run
