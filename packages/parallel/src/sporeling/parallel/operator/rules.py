"""Sharding rules: for each primitive, how its operands' dimensions relate.

A rule turns an equation into :class:`OpDims`: one *label* per dimension of every operand
and result. Dimensions sharing a label are split together (the rows of ``x`` and of
``x @ w``); a label in ``fixed`` must stay whole on every device (the softmax axis, the
axes a layer norm normalises, a kernel's spatial axes); a label in ``reduce`` appears in
operands but not in results -- splitting it leaves each device with a partial result to be
reduced (``"sum"`` for a matmul's contracted dimension). ``local`` computes the op on one
device's blocks when re-binding the primitive with adjusted parameters is not enough
(an embedding whose table rows are split).

The table is keyed by primitive name; :func:`def_sharding_rule` adds a rule (plugins
included). A primitive without a rule runs replicated: every device computes it whole.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

__all__ = ["OpDims", "def_sharding_rule", "sharding_rule", "RULES", "ELEMENTWISE"]


@dataclass
class OpDims:
    inputs: list[tuple[str, ...]]
    outputs: list[tuple[str, ...]]
    fixed: set[str] = field(default_factory=set)
    reduce: dict[str, str] = field(default_factory=dict)
    local: Callable | None = None          # local(eq, rank_info, *blocks) -> result(s)
    local_params: Callable | None = None   # local_params(eq, out_local_shapes) -> params

    @property
    def labels(self) -> list[str]:
        """Every label in first-seen order (the order device axes are handed out in)."""
        seen: dict[str, None] = {}
        for dims in self.inputs + self.outputs:
            for label in dims:
                seen.setdefault(label, None)
        return list(seen)

    @property
    def splittable(self) -> list[str]:
        return [lab for lab in self.labels if lab not in self.fixed]


RULES: dict[str, Callable] = {}


def def_sharding_rule(*names: str):
    """Register ``rule(eq) -> OpDims | None`` for the primitives ``names`` (None: the
    equation is run replicated)."""
    def register(rule):
        for name in names:
            RULES[name] = rule
        return rule
    return register


def _replicated(eq) -> OpDims:
    dims = OpDims([], [])
    counter = iter(range(10 ** 6))
    for group, target in ((eq.inputs, dims.inputs), (eq.outputs, dims.outputs)):
        for v in group:
            labels = tuple(f"r{next(counter)}" for _ in v.aval.shape)
            target.append(labels)
            dims.fixed.update(labels)
    return dims


def sharding_rule(eq) -> OpDims:
    """The OpDims of ``eq`` (all fixed -- replicated -- when its primitive has no rule)."""
    rule = RULES.get(eq.prim.name)
    dims = rule(eq) if rule is not None else None
    return dims if dims is not None else _replicated(eq)


def _shape(v):
    return tuple(v.aval.shape)


class _Fresh:
    def __init__(self, prefix="f"):
        self.prefix, self.n = prefix, 0

    def __call__(self):
        self.n += 1
        return f"{self.prefix}{self.n}"


def _broadcast_dims(in_shapes, out_shape, fixed, fresh):
    """Right-aligned labels; a size-1 dimension broadcast against a longer one stays whole."""
    out = tuple(f"d{i}" for i in range(len(out_shape)))
    ins = []
    for shape in in_shapes:
        offset = len(out_shape) - len(shape)
        labels = []
        for j, n in enumerate(shape):
            if n == 1 and out_shape[offset + j] != 1:
                label = fresh()
                fixed.add(label)
            else:
                label = out[offset + j]
            labels.append(label)
        ins.append(tuple(labels))
    return ins, out


ELEMENTWISE = (
    "add", "sub", "mul", "div", "maximum", "minimum", "pow", "atan2", "mod", "floordiv",
    "where", "equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
    "logical_and", "logical_or", "logical_xor", "logical_not",
    "exp", "log", "log1p", "expm1", "tanh", "sigmoid", "relu", "gelu", "silu", "softplus",
    "leaky_relu", "neg", "abs", "sign", "sqrt", "rsqrt", "rsqrt_eps", "square", "reciprocal",
    "sin", "cos", "erf", "floor", "ceil", "round", "cast", "clip", "clip_scalar",
    "pow_scalar", "isfinite", "isinf", "isnan", "relu_grad", "tanh_grad", "sigmoid_grad",
)


@def_sharding_rule(*ELEMENTWISE)
def _elementwise(eq):
    fixed: set[str] = set()
    ins, out = _broadcast_dims([_shape(v) for v in eq.inputs], _shape(eq.outputs[0]),
                               fixed, _Fresh())
    return OpDims(ins, [out], fixed)


@def_sharding_rule("broadcast_to")
def _broadcast_to(eq):
    fixed: set[str] = set()
    ins, out = _broadcast_dims([_shape(eq.inputs[0])], _shape(eq.outputs[0]), fixed, _Fresh())
    new = len(out) - len(ins[0])
    fixed.update(out[:new])  # created dimensions: every device makes them whole
    return OpDims(ins, [out], fixed,
                  local_params=lambda eq, outs: {**eq.params, "shape": outs[0]})


_REDUCE_KIND = {"sum": "sum", "mean": "mean", "max": "max", "min": "min"}


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(a % ndim for a in axis)


@def_sharding_rule("sum", "mean", "max", "min", "logsumexp", "argmax", "argmin")
def _reduction(eq):
    shape = _shape(eq.inputs[0])
    axes = _axes(eq.params.get("axis"), len(shape))
    keep = eq.params.get("keepdims", False)
    ins = tuple(f"d{i}" for i in range(len(shape)))
    kind = _REDUCE_KIND.get(eq.prim.name)
    fixed: set[str] = set() if kind else {ins[a] for a in axes}
    out, fresh = [], _Fresh()
    for i, label in enumerate(ins):
        if i not in axes:
            out.append(label)
        elif keep:
            out.append(fresh())
            fixed.add(out[-1])
    reduce = {ins[a]: kind for a in axes} if kind else {}
    return OpDims([ins], [tuple(out)], fixed, reduce)


@def_sharding_rule("softmax", "log_softmax")
def _softmax(eq):
    shape = _shape(eq.inputs[0])
    labels = tuple(f"d{i}" for i in range(len(shape)))
    fixed = {labels[a] for a in _axes(eq.params.get("axis", -1), len(shape))}
    return OpDims([labels], [labels], fixed)


@def_sharding_rule("normalize")
def _normalize(eq):
    """Layer norm's core: the normalised axes stay whole; the statistics keep them as 1s."""
    shape = _shape(eq.inputs[0])
    labels = tuple(f"d{i}" for i in range(len(shape)))
    axes = _axes(eq.params["axis"], len(shape))
    fixed = {labels[a] for a in axes}
    stats = tuple(f"s{i}" if i in axes else lab for i, lab in enumerate(labels))
    fixed.update(stats[a] for a in axes)
    outs = [labels] + [stats] * (len(eq.outputs) - 1)
    return OpDims([labels], outs, fixed)


@def_sharding_rule("matmul")
def _matmul(eq):
    xs, ys = _shape(eq.inputs[0]), _shape(eq.inputs[1])
    if len(xs) < 2 or len(ys) < 2:
        return None
    out_shape = _shape(eq.outputs[0])
    fixed: set[str] = set()
    batch_ins, batch_out = _broadcast_dims([xs[:-2], ys[:-2]], out_shape[:-2], fixed,
                                           _Fresh())
    x = batch_ins[0] + ("m", "k")
    y = batch_ins[1] + ("k", "n")
    return OpDims([x, y], [batch_out + ("m", "n")], fixed, {"k": "sum"})


@def_sharding_rule("transpose")
def _transpose(eq):
    labels = tuple(f"d{i}" for i in range(len(_shape(eq.inputs[0]))))
    return OpDims([labels], [tuple(labels[a] for a in eq.params["axes"])])


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


@def_sharding_rule("reshape")
def _reshape(eq):
    """Only the leading axis of each merged/split group may be split: its blocks stay
    contiguous through the reshape (the leading output axis must divide by the split)."""
    src, dst = _shape(eq.inputs[0]), _shape(eq.outputs[0])
    ins, outs = [None] * len(src), [None] * len(dst)
    fixed: set[str] = set()
    fresh = _Fresh()
    for n, ((i0, i1), (j0, j1)) in enumerate(_reshape_blocks(src, dst)):
        lead = f"b{n}"
        for i in range(i0, i1):
            ins[i] = lead if i == i0 and j1 > j0 else fresh()
        for j in range(j0, j1):
            outs[j] = lead if j == j0 and i1 > i0 else fresh()
    for label in ins + outs:
        if not label.startswith("b"):
            fixed.add(label)
    return OpDims([tuple(ins)], [tuple(outs)], fixed,
                  local_params=lambda eq, outs: {**eq.params, "shape": outs[0]})


def _embedding_local(eq, info, indices, table):
    """This device's rows of the table answer the indices that fall in them; the others
    give zeros, and the sum over the row-splitting devices is the lookup."""
    from sporeling.compiler import bind, ops
    rows = table.shape[0]
    start = info.block_start(1, 0) if info is not None else 0
    local = np.asarray(indices) - start  # indices are data, never differentiated
    inside = (local >= 0) & (local < rows)
    out = bind(eq.prim, np.where(inside, local, 0).astype(np.asarray(indices).dtype),
               table, padding_idx=None)
    return ops.mul(out, inside[..., None].astype(eq.outputs[0].aval.dtype))


@def_sharding_rule("embedding")
def _embedding(eq):
    idx = tuple(f"i{n}" for n in range(len(_shape(eq.inputs[0]))))
    return OpDims([idx, ("v", "e")], [idx + ("e",)], set(), {"v": "sum"},
                  local=_embedding_local)


@def_sharding_rule("gather")
def _gather(eq):
    xs, idx = _shape(eq.inputs[0]), _shape(eq.inputs[1])
    axis = eq.params["axis"]
    x = tuple(f"x{i}" for i in range(len(xs)))
    ind = tuple(f"i{i}" for i in range(len(idx)))
    return OpDims([x, ind], [x[:axis] + ind + x[axis + 1:]], {x[axis]})


@def_sharding_rule("conv2d")
def _conv2d(eq):
    """Batch and output channels split; input channels and space stay whole."""
    groups = eq.params.get("groups", 1)
    x = ("n", "c", "h", "w")
    w = ("o", "ci", "kh", "kw")
    fixed = {"c", "h", "w", "ci", "kh", "kw", "oh", "ow"} | ({"o"} if groups != 1 else set())
    return OpDims([x, w], [("n", "o", "oh", "ow")], fixed)


def _labels(n, prefix="d"):
    return tuple(f"{prefix}{i}" for i in range(n))


@def_sharding_rule("concat", "split")
def _concat_split(eq):
    """The joined (or cut) axis stays whole; the others split alike in every operand."""
    axis = eq.params["axis"] % len(_shape(eq.outputs[0]))
    labels = _labels(len(_shape(eq.outputs[0])))
    fixed = {labels[axis]}
    return OpDims([labels] * len(eq.inputs), [labels] * len(eq.outputs), fixed)


@def_sharding_rule("slice")
def _slice(eq):
    """Axes taken whole (start 0, stop at the end, step 1) may split; sliced ones stay whole."""
    shape = _shape(eq.inputs[0])
    labels = _labels(len(shape))
    fixed = {lab for lab, (start, stop, step), n in zip(labels, eq.params["slices"], shape)
             if (start, stop, step) != (0, n, 1)}
    return OpDims([labels], [labels], fixed)


@def_sharding_rule("pad")
def _pad(eq):
    labels = _labels(len(_shape(eq.inputs[0])))
    fixed = {lab for lab, width in zip(labels, eq.params["pad_width"]) if tuple(width) != (0, 0)}
    return OpDims([labels], [labels], fixed)


@def_sharding_rule("cumsum")
def _cumsum(eq):
    labels = _labels(len(_shape(eq.inputs[0])))
    return OpDims([labels], [labels], {labels[eq.params["axis"] % len(labels)]})


@def_sharding_rule("one_hot")
def _one_hot(eq):
    labels = _labels(len(_shape(eq.inputs[0])))
    return OpDims([labels], [labels + ("depth",)], {"depth"})


@def_sharding_rule("softmax_cross_entropy")
def _softmax_cross_entropy(eq):
    """Classes stay whole; the batch splits for ``reduction="sum"`` (partial sums) and
    ``"none"``. A ``"mean"`` divides by the count of labels not ignored, which no rank knows
    alone, so its batch stays whole too."""
    logits, labels_shape = _shape(eq.inputs[0]), _shape(eq.inputs[1])
    batch = _labels(len(logits) - 1, "n")
    x = batch + ("c",)
    y = x if len(labels_shape) == len(logits) else batch
    reduction = eq.params.get("reduction", "mean")
    if reduction == "none":
        return OpDims([x, y], [batch], {"c"})
    fixed = {"c"} | (set(batch) if reduction != "sum" else set())
    return OpDims([x, y], [()], fixed, {lab: "sum" for lab in batch})
