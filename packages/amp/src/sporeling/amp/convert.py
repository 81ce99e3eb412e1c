"""``auto_mixed_precision`` and ``custom_mixed_precision``: convert a network to a level.

The conversion works at two grains, both of which run unchanged in PyNative and Graph mode:

* **Cells** (``Cell.to_float``): a converted Cell casts its floating inputs and its
  parameters to its dtype when called, so it computes in that dtype; the float32
  Parameters stay the master copy (the casts are recorded, gradients reach them).
* **Primitives** (:mod:`.policy`): while the network runs, listed primitives called
  directly in a ``construct`` have their operands cast.

========  ==============================================================================
level     what computes in the low dtype
========  ==============================================================================
``O0``    nothing (the network is returned as it is)
``O1``    white-listed Cells (Dense, Conv*, PReLU, MultiheadAttention, LSTM, GRU),
          whose outputs are cast back to float32, and white-listed primitives (matmul,
          conv*, einsum) called directly, whose low outputs promote where they meet float32
``O2``    every Cell but the black-listed ones (BatchNorm, LayerNorm, GroupNorm, Softmax,
          losses), which stay float32 with their inputs cast up; black-listed primitives
          (exp, log, pow, softmax, reductions...) stay float32
``O3``    the whole network
``auto``  per primitive: white list low, black list float32, the rest the widest of their
          operands (MindSpore's ``auto``)
========  ==============================================================================

The result is an :class:`AmpCell` wrapping the network (parameter names unchanged) whose
floating outputs are cast back to float32. Converting a network twice is an error.

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> net = auto_mixed_precision(nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(),
    ...                                              nn.Dense(8, 2)), "O2")
    >>> net(np.ones((3, 4), np.float32)).dtype
    dtype('float32')
    >>> net.network[0]._cast_dtype, net.network[0].weight.dtype   # master stays float32
    (dtype('float16'), dtype('float32'))
"""
from __future__ import annotations

from sporeling.core import SporelingError, dtypes
from sporeling.expression import ops
from sporeling.expression.nn import Cell

from .levels import check_dtype, check_level
from .lists import (BLACK_CELLS, WHITE_CELLS, black_primitives, resolve_entries,
                    white_primitives)
from .policy import CastPolicy, run_under

__all__ = ["auto_mixed_precision", "custom_mixed_precision", "AmpCell"]

_FLAG = "amp_level"


def _to_float32(value):
    dtype = getattr(value, "dtype", None)
    if dtype is not None and hasattr(value, "shape"):
        return ops.cast(value, dtypes.float32) if dtype in (dtypes.float16, dtypes.bfloat16) \
            else value
    if isinstance(value, (tuple, list)):
        return type(value)(_to_float32(v) for v in value)
    if isinstance(value, dict):
        return {k: _to_float32(v) for k, v in value.items()}
    return value


class AmpCell(Cell):
    """A network converted by :func:`auto_mixed_precision`: runs it (under the level's
    primitive policy, if any) and casts its floating outputs back to float32."""

    def __init__(self, network: Cell, level: str, dtype, policy: CastPolicy | None):
        super().__init__(auto_prefix=False)
        self.network = network
        self.amp_level, self.amp_dtype, self._policy = level, dtype, policy

    def construct(self, *inputs, **kwargs):
        if self._policy is None:
            return _to_float32(self.network(*inputs, **kwargs))
        return _to_float32(run_under(self._policy, self.network, *inputs, **kwargs))

    def extend_repr(self) -> str:
        return f"amp_level={self.amp_level}, dtype={self.amp_dtype}"


def _check_network(network, op: str) -> None:
    if not isinstance(network, Cell):
        raise SporelingError("expected a Cell", op=op, expected="an nn.Cell",
                             got=type(network).__name__)
    if isinstance(network, AmpCell) or _FLAG in network._flags:
        done = network.amp_level if isinstance(network, AmpCell) else network._flags[_FLAG]
        raise SporelingError("the network is already converted", op=op,
                             expected="a network not yet converted by auto_mixed_precision "
                                      "or custom_mixed_precision",
                             got=f"a network converted to {done!r}",
                             hint="convert the original float32 network once")


def _float32_outputs(cell: Cell) -> None:
    """``cell`` returns float32: its class's ``construct`` with the outputs cast back (an
    instance attribute, which ``Cell.__call__`` finds before the class's)."""
    construct = type(cell).construct

    def cast_back(*inputs, **kwargs):
        return _to_float32(construct(cell, *inputs, **kwargs))
    cast_back.__wrapped__ = construct
    object.__setattr__(cell, "construct", cast_back)


def _convert_cells(network: Cell, low, white: tuple, black: tuple) -> None:
    """``white`` given: those Cells low, returning float32. Else: everything low but the
    ``black`` Cells."""
    if white:
        for _, cell in list(network.cells_and_names()):
            if isinstance(cell, white) and cell._cast_dtype is None:
                cell.to_float(low)
                _float32_outputs(cell)
        return
    network.to_float(low)
    for _, cell in network.cells_and_names():
        if isinstance(cell, black):
            cell.to_float(dtypes.float32)


def auto_mixed_precision(network: Cell, amp_level: str = "O0", dtype=dtypes.float16):
    """``network`` converted to ``amp_level`` (``"O0"``, ``"O1"``, ``"O2"``, ``"O3"`` or
    ``"auto"``, see the module doc) computing in ``dtype`` (float16 or bfloat16).

    ``O0`` returns ``network`` itself; other levels convert its Cells in place and return
    an :class:`AmpCell` around it (outputs float32).
    """
    op = "auto_mixed_precision"
    level = check_level(amp_level, op)
    low = check_dtype(dtype, op)
    _check_network(network, op)
    if level == "O0":
        return network
    policy = None
    if level == "O1":
        _convert_cells(network, low, WHITE_CELLS, ())
        policy = CastPolicy(low, white=white_primitives())
    elif level == "O2":
        _convert_cells(network, low, (), BLACK_CELLS)
        policy = CastPolicy(low, black=black_primitives())
    elif level == "O3":
        network.to_float(low)
    else:  # auto
        policy = CastPolicy(low, white=white_primitives(), black=black_primitives())
    network._flags[_FLAG] = level
    return AmpCell(network, level, low, policy)


def custom_mixed_precision(network: Cell, *, white_list=None, black_list=None,
                           dtype=dtypes.float16):
    """``network`` with your own list: ``white_list`` (Cell classes and primitive names
    computed low, like O1) or ``black_list`` (everything low but those, like O2) -- exactly
    one of them.

        >>> from sporeling.expression import nn
        >>> net = custom_mixed_precision(nn.Dense(2, 2), white_list=[nn.Dense, "einsum"])
        >>> net.network._cast_dtype
        dtype('float16')
    """
    op = "custom_mixed_precision"
    if (white_list is None) == (black_list is None):
        raise SporelingError("give exactly one of white_list and black_list", op=op,
                             expected="white_list=[...] or black_list=[...]",
                             got="both" if white_list is not None else "neither")
    low = check_dtype(dtype, op)
    _check_network(network, op)
    if white_list is not None:
        cells, prims = resolve_entries(white_list, "white_list", op)
        _convert_cells(network, low, cells or (_NoCell,), ())
        policy = CastPolicy(low, white=prims) if prims else None
    else:
        cells, prims = resolve_entries(black_list, "black_list", op)
        _convert_cells(network, low, (), cells)
        policy = CastPolicy(low, black=prims) if prims else None
    network._flags[_FLAG] = "custom"
    return AmpCell(network, "custom", low, policy)


class _NoCell(Cell):
    """Matches no Cell (a white list of primitives only)."""
