"""vmap and operator-parallel rules of :mod:`.shape`'s primitives (reshape, broadcast_to,
transpose, concat, split), beside them but in a file of their own to keep ``shape.py``
short; ``shape.py`` imports this module at its end."""
from __future__ import annotations

from ..core import bind
from ..core.sharding import Fresh, OpDims, broadcast_dims, def_sharding_rule, labels, shape_of
from ._batching import at_front, batch_size, reshape, shift_axis, to_front
from .shape import broadcast_to_p, concat_p, reshape_p, split_p, transpose_p


# ---- batching -------------------------------------------------------------------------------

@reshape_p.def_batching
def _reshape_batching(args, dims, *, shape):
    x = to_front(args[0], dims[0])
    return reshape(x, (x.shape[0],) + tuple(shape)), 0


@broadcast_to_p.def_batching
def _broadcast_to_batching(args, dims, *, shape):
    x = to_front(args[0], dims[0])
    inner = tuple(x.shape[1:])
    x = reshape(x, (x.shape[0],) + (1,) * (len(shape) - len(inner)) + inner)
    return bind(broadcast_to_p, x, shape=(x.shape[0],) + tuple(shape)), 0


@transpose_p.def_batching
def _transpose_batching(args, dims, *, axes):
    x = to_front(args[0], dims[0])
    return bind(transpose_p, x, axes=(0,) + tuple(a + 1 for a in axes)), 0


@concat_p.def_batching
def _concat_batching(args, dims, *, axis):
    size = batch_size(args, dims)
    xs = [at_front(x, d, size) for x, d in zip(args, dims)]
    return bind(concat_p, *xs, axis=axis + 1), 0


@split_p.def_batching
def _split_batching(args, dims, *, indices, axis):
    (x,), (d,) = args, dims
    outs = bind(split_p, x, indices=indices, axis=shift_axis(axis, d))
    return outs, (d,) * len(outs)


# ---- sharding -------------------------------------------------------------------------------

@broadcast_to_p.def_sharding_rule
def _broadcast_to_sharding(eq):
    fixed: set[str] = set()
    ins, out = broadcast_dims([shape_of(eq.inputs[0])], shape_of(eq.outputs[0]), fixed,
                              Fresh())
    fixed.update(out[:len(out) - len(ins[0])])  # created dimensions: every device makes them
    return OpDims(ins, [out], fixed,
                  local_params=lambda eq, outs: {**eq.params, "shape": outs[0]})


@transpose_p.def_sharding_rule
def _transpose_sharding(eq):
    names = labels(len(shape_of(eq.inputs[0])))
    return OpDims([names], [tuple(names[a] for a in eq.params["axes"])])


def _reshape_blocks(src, dst):
    """Pairs of index ranges of ``src`` and ``dst`` with equal products, size-1 axes apart."""
    i = j = 0
    blocks = []
    while i < len(src) or j < len(dst):
        if i < len(src) and src[i] == 1:
            blocks.append(((i, i + 1), (j, j)))
            i += 1
            continue
        if j < len(dst) and dst[j] == 1:
            blocks.append(((i, i), (j, j + 1)))
            j += 1
            continue
        i0, j0 = i, j
        a, b = src[i], dst[j]
        i, j = i + 1, j + 1
        while a != b:
            if a < b:
                a *= src[i]
                i += 1
            else:
                b *= dst[j]
                j += 1
        blocks.append(((i0, i), (j0, j)))
    return blocks


@reshape_p.def_sharding_rule
def _reshape_sharding(eq):
    """Only the leading axis of each merged/split group may be split: its blocks stay
    contiguous through the reshape (the leading output axis must divide by the split)."""
    src, dst = shape_of(eq.inputs[0]), shape_of(eq.outputs[0])
    ins, outs = [None] * len(src), [None] * len(dst)
    fresh = Fresh()
    for n, ((i0, i1), (j0, j1)) in enumerate(_reshape_blocks(src, dst)):
        lead = f"b{n}"
        for i in range(i0, i1):
            ins[i] = lead if i == i0 and j1 > j0 else fresh()
        for j in range(j0, j1):
            outs[j] = lead if j == j0 and i1 > i0 else fresh()
    fixed = {label for label in ins + outs if not label.startswith("b")}
    return OpDims([tuple(ins)], [tuple(outs)], fixed,
                  local_params=lambda eq, outs: {**eq.params, "shape": outs[0]})


@def_sharding_rule(concat_p, split_p)
def _concat_split_sharding(eq):
    """The joined (or cut) axis stays whole; the others split alike in every operand."""
    names = labels(len(shape_of(eq.outputs[0])))
    fixed = {names[eq.params["axis"] % len(names)]}
    return OpDims([names] * len(eq.inputs), [names] * len(eq.outputs), fixed)
