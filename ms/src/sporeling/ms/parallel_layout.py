"""MindSpore 2.10's ``ms.shard`` and ``ms.Layout`` over ``sporeling.parallel``'s operator
parallel.

``Layout(device_matrix, alias_name)`` names the axes of a device matrix; calling it with
one alias (or a tuple of aliases, or ``"None"``) per tensor dimension gives a tensor's
layout. ``shard`` takes such layouts where MindSpore does (``in_strategy``,
``out_strategy``, ``parameter_plan``) and hands ``sporeling.parallel`` what they mean for
each dimension: the number of blocks it is cut into, the product of its axes' sizes (the
device order inside a dimension is the library's; results are the same).
"""
from __future__ import annotations

import math

from sporeling.core.errors import SporelingError

__all__ = ["Layout", "shard"]


class Layout:
    """A device matrix with named axes; ``layout("dp", "mp")`` is a tensor's layout."""

    def __init__(self, device_matrix, alias_name, rank_list=None):
        if not isinstance(device_matrix, tuple) or not device_matrix or not all(
                isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in device_matrix):
            raise TypeError(f"For 'Layout', 'device_matrix' must be a tuple of positive ints, "
                            f"but got {device_matrix!r}.")
        if not isinstance(alias_name, tuple) or len(alias_name) != len(device_matrix) or \
                not all(isinstance(a, str) for a in alias_name):
            raise TypeError(f"For 'Layout', 'alias_name' must be a tuple of "
                            f"{len(device_matrix)} str, but got {alias_name!r}.")
        if "None" in alias_name or len(set(alias_name)) != len(alias_name):
            raise ValueError(f"For 'Layout', the aliases must be distinct and not 'None', "
                             f"but got {alias_name!r}.")
        if rank_list is not None and len(rank_list) != math.prod(device_matrix):
            raise ValueError(f"For 'Layout', 'rank_list' must hold {math.prod(device_matrix)} "
                             f"ranks, but got {len(rank_list)}.")
        self._device_shape, self._alias_name = device_matrix, alias_name
        self._rank_list = list(range(math.prod(device_matrix))) if rank_list is None \
            else list(rank_list)
        self._tensor_map = None

    def __call__(self, *tensor_map):
        """The layout of a tensor: per dimension an alias, a tuple of aliases (split over
        their product) or ``"None"`` (not split)."""
        layout = Layout(self._device_shape, self._alias_name, self._rank_list)
        used, maps = set(), []
        for item in tensor_map:
            names = item if isinstance(item, tuple) else (item,)
            indices = []
            for name in names:
                if name == "None" and len(names) == 1:
                    continue
                if name not in self._alias_name or name in used:
                    raise ValueError(f"For 'Layout', each tensor dimension takes aliases of "
                                     f"{self._alias_name} (each once) or 'None', but got "
                                     f"{item!r}.")
                used.add(name)
                # MindSpore counts device axes from the right
                indices.append(len(self._alias_name) - 1 - self._alias_name.index(name))
            maps.append(tuple(indices) if isinstance(item, tuple) else
                        (indices[0] if indices else -1))
        layout._tensor_map = tuple(maps)
        return layout

    def splits(self) -> tuple:
        """The number of blocks each tensor dimension is cut into."""
        if self._tensor_map is None:
            raise SporelingError("a Layout needs its tensor map first", op="Layout",
                                 expected="layout('dp', 'mp') -- one alias per dimension",
                                 got="the device matrix alone")
        size = {len(self._device_shape) - 1 - i: n for i, n in enumerate(self._device_shape)}
        return tuple(math.prod(size[i] for i in (m if isinstance(m, tuple) else (m,))
                               if i != -1) for m in self._tensor_map)

    def to_dict(self) -> dict:
        """``device_matrix``, ``tensor_map``, ``interleaved_parallel``, ``alias_name``,
        ``rank_list`` (MindSpore's keys)."""
        if self._tensor_map is None:
            raise SporelingError("a Layout needs its tensor map first", op="Layout.to_dict",
                                 expected="layout('dp', 'mp')", got="the device matrix alone")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": False, "alias_name": self._alias_name,
                "rank_list": self._rank_list}

    def __repr__(self) -> str:
        return (f"Layout(device_matrix={self._device_shape}, alias_name={self._alias_name}, "
                f"tensor_map={self._tensor_map})")


def _blocks(strategy):
    """A strategy with every Layout replaced by its blocks per dimension."""
    if strategy is None:
        return None
    if isinstance(strategy, Layout):
        return strategy.splits()
    if isinstance(strategy, dict):
        return {k: _blocks(v) for k, v in strategy.items()}
    if isinstance(strategy, (tuple, list)) and any(isinstance(s, (Layout, tuple, list))
                                                   for s in strategy):
        return tuple(_blocks(s) for s in strategy)
    return strategy


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
    """``fn`` (a function or a Cell) run split over the ranks of the current communicator:
    ``in_strategy`` / ``out_strategy`` give each input's / output's blocks per dimension
    (tuples, or ``Layout`` calls), ``parameter_plan`` ``{parameter name: strategy}``.
    ``device`` and ``level`` are MindSpore's and change nothing on the CPU."""
    import sporeling.expression as sx
    if not isinstance(in_strategy, tuple):
        raise TypeError(f"For 'shard', 'in_strategy' must be a tuple, but got "
                        f"{type(in_strategy).__name__}.")
    if parameter_plan is not None and not isinstance(parameter_plan, dict):
        raise TypeError(f"For 'shard', 'parameter_plan' must be a dict or None, but got "
                        f"{type(parameter_plan).__name__}.")
    kwargs = {} if parameter_plan is None else {"parameter_plan": _blocks(parameter_plan)}
    return sx.shard(fn, _blocks(in_strategy), _blocks(out_strategy), **kwargs)
