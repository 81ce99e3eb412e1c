"""Op strategies: which device axes split each label of an op (see :mod:`.rules`).

A user writes a strategy MindSpore's way -- per operand, the number of blocks per dimension
(``((2, 1), (1, 4))`` for a matmul) -- and :func:`from_strategy` checks it against the op
and hands out device axes: the replicating axes first, then each label's axes in the order
the labels appear. :func:`candidates` lists the strategies the search considers;
:func:`from_input_layout` derives the strategy that keeps an operand's layout as it comes
(what sharding propagation does).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from .errors import ShardingError
from .layout import Layout
from .rules import OpDims

__all__ = ["OpSharding", "from_strategy", "candidates", "from_input_layout", "validate"]


@dataclass(frozen=True)
class OpSharding:
    """Device axes per label; labels not listed are whole."""
    n_axes: int
    axes: tuple[tuple[str, tuple[int, ...]], ...]

    def of(self, label: str) -> tuple[int, ...]:
        for lab, axes in self.axes:
            if lab == label:
                return axes
        return ()

    def layout(self, labels, dims: OpDims | None = None) -> Layout:
        """The layout of a tensor whose dimensions carry ``labels``; with ``dims`` given,
        the split reduction labels make it partial."""
        partial = ()
        if dims is not None:
            partial = tuple(sorted((a, kind) for lab, kind in dims.reduce.items()
                                   for a in self.of(lab)))
        return Layout(self.n_axes, tuple(self.of(lab) for lab in labels), partial)

    def in_layouts(self, dims: OpDims) -> list[Layout]:
        return [self.layout(labels) for labels in dims.inputs]

    def out_layouts(self, dims: OpDims) -> list[Layout]:
        return [self.layout(labels, dims) for labels in dims.outputs]

    def strategy(self, dims: OpDims) -> tuple[tuple[int, ...], ...]:
        """MindSpore's form: blocks per dimension of every operand."""
        return tuple(tuple(2 ** len(self.of(lab)) for lab in labels) for labels in dims.inputs)


def _sizes(eq, dims: OpDims) -> dict[str, list[int]]:
    sizes: dict[str, list[int]] = {}
    for group, labels_list in ((eq.inputs, dims.inputs), (eq.outputs, dims.outputs)):
        for v, labels in zip(group, labels_list):
            for n, lab in zip(v.aval.shape, labels):
                sizes.setdefault(lab, []).append(int(n))
    return sizes


def _error(eq, message, *, expected, got, strategy):
    return ShardingError(f"{message} (strategy {strategy})", op=eq.prim.name,
                         expected=expected, got=got, where=eq.source)


def from_strategy(eq, dims: OpDims, strategy, n_axes: int) -> OpSharding:
    """Check a user strategy (blocks per dimension per operand) against ``eq`` and turn it
    into device axes; a :class:`ShardingError` names the op, the dimension, the strategy
    and the user's line when it does not fit."""
    strategy = tuple(tuple(int(s) for s in st) for st in strategy)
    if len(strategy) != len(dims.inputs):
        raise _error(eq, "one tuple per operand", expected=f"{len(dims.inputs)} tuples",
                     got=len(strategy), strategy=strategy)
    split: dict[str, int] = {}
    for i, (st, labels, v) in enumerate(zip(strategy, dims.inputs, eq.inputs)):
        shape = tuple(v.aval.shape)
        if len(st) != len(labels):
            raise _error(eq, f"operand {i} has {len(labels)} dimensions (shape {shape})",
                         expected=f"{len(labels)} numbers", got=st, strategy=strategy)
        for d, (s, lab, n) in enumerate(zip(st, labels, shape)):
            where = f"operand {i} dimension {d} (size {n})"
            if s < 1 or s & (s - 1):
                raise _error(eq, f"{where}: splits must be powers of two",
                             expected="1, 2, 4, ...", got=s, strategy=strategy)
            if n % s:
                raise _error(eq, f"{where} does not divide by its split",
                             expected=f"a divisor of {n}", got=s, strategy=strategy)
            if s > 1 and lab in dims.fixed:
                raise _error(eq, f"{where} cannot be split by {eq.prim.name}",
                             expected=1, got=s, strategy=strategy)
            if lab in split and split[lab] != s:
                raise _error(eq, f"{where} must be split like the dimension it meets",
                             expected=split[lab], got=s, strategy=strategy)
            split[lab] = s
    total = 1
    for s in split.values():
        total *= s
    if total > 2 ** n_axes:
        raise _error(eq, "more blocks than devices", expected=f"at most {2 ** n_axes}",
                     got=total, strategy=strategy)
    sharding = assign(dims, split, n_axes)
    validate(eq, dims, sharding, strategy=strategy)
    return sharding


def assign(dims: OpDims, split: dict[str, int], n_axes: int) -> OpSharding:
    """Canonical axes: replicating axes first, then labels in first-seen order."""
    needed = sum(s.bit_length() - 1 for s in split.values())
    nxt = n_axes - needed
    axes = []
    for lab in dims.labels:
        bits = split.get(lab, 1).bit_length() - 1
        if bits:
            axes.append((lab, tuple(range(nxt, nxt + bits))))
            nxt += bits
    return OpSharding(n_axes, tuple(axes))


def validate(eq, dims: OpDims, sharding: OpSharding, *, strategy=None) -> None:
    """Every split dimension divides by its blocks (outputs included: a reshape's)."""
    for lab, sizes in _sizes(eq, dims).items():
        blocks = 2 ** len(sharding.of(lab))
        for n in sizes:
            if n % blocks:
                raise _error(eq, f"a dimension of size {n} does not divide by its split",
                             expected=f"a divisor of {n}", got=blocks,
                             strategy=strategy or sharding.strategy(dims))
        if blocks > 1 and lab in dims.fixed:
            raise _error(eq, "a dimension the op needs whole is split", expected=1,
                         got=blocks, strategy=strategy or sharding.strategy(dims))


def candidates(eq, dims: OpDims, n_axes: int, *, full: bool = True) -> list[OpSharding]:
    """Every strategy splitting labels by powers of two that divide their sizes, using all
    devices when ``full`` (MindSpore's fully_use_devices), else at most all of them."""
    sizes = _sizes(eq, dims)
    labels = dims.splittable
    options = []
    for lab in labels:
        top = 0
        while top < n_axes and all(n % (2 ** (top + 1)) == 0 for n in sizes.get(lab, [1])):
            top += 1
        options.append(range(top + 1))
    found = []
    for bits in itertools.product(*options):
        used = sum(bits)
        if used > n_axes or (full and used != n_axes and labels):
            continue
        found.append(assign(dims, {lab: 2 ** b for lab, b in zip(labels, bits)}, n_axes))
    if not found:  # nothing fills the devices exactly: fall back to every fitting split
        return candidates(eq, dims, n_axes, full=False) if full else \
            [OpSharding(n_axes, ())]
    return found


def from_input_layout(eq, dims: OpDims, index: int, layout: Layout) -> OpSharding | None:
    """The strategy that takes operand ``index`` in ``layout`` as it is (None when the op
    cannot: a fixed dimension split, or an axis shared by two labels)."""
    return _from_layout(eq, dims, dims.inputs[index], layout)


def from_output_layout(eq, dims: OpDims, index: int, layout: Layout) -> OpSharding | None:
    """The strategy producing result ``index`` directly in ``layout`` (None if it cannot)."""
    return _from_layout(eq, dims, dims.outputs[index], layout)


def _from_layout(eq, dims: OpDims, labels, layout: Layout) -> OpSharding | None:
    """The strategy splitting the dimensions ``labels`` as ``layout`` splits them."""
    axes = []
    used: set[int] = set()
    for lab, ax in zip(labels, layout.dims):
        if not ax:
            continue
        if lab in dims.fixed or used & set(ax):
            return None
        used.update(ax)
        axes.append((lab, tuple(ax)))
    sharding = OpSharding(layout.n_axes, tuple(axes))
    try:
        validate(eq, dims, sharding)
    except ShardingError:
        return None
    return sharding
