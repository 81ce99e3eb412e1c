"""Parallel's answer to expression's ``sporeling_shard`` hook: ``sx.shard(fn, ...)`` and
``Cell.shard(...)`` (MindSpore's operator parallel entry points).

``Cell.shard`` is expression's own method; it asks the plugin host, and
:func:`shard_hook` answers here -- no class is patched from outside.
"""
from __future__ import annotations

from .api import Shard
from .errors import ShardingError

__all__ = ["cell_shard", "shard_hook"]

# keywords shard accepts; device and level: MindSpore's, accepted and ignored
_OPTIONS = ("parameter_plan", "device_num", "name", "device", "level")


def shard_hook(fn, in_strategy, out_strategy, options):
    """``fn`` split over the ranks: a :class:`Shard` for a function; for a Cell, the Cell
    itself (:func:`cell_shard`)."""
    from sporeling.expression.nn import Cell
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise ShardingError("unknown keyword", op=f"shard({getattr(fn, '__name__', fn)})",
                            expected=f"one of {', '.join(_OPTIONS)}", got=", ".join(unknown))
    kw = {k: v for k, v in options.items() if k not in ("device", "level")}
    if isinstance(fn, Cell):
        return cell_shard(fn, in_strategy, out_strategy, **kw)
    return Shard(fn, in_strategy, out_strategy, **kw)


def cell_shard(cell, in_strategy, out_strategy=None, parameter_plan=None, device_num=None,
               name=None):
    """Run ``cell``'s ``construct`` split over the ranks of the current communicator.

    ``in_strategy``: blocks per dimension of each input (None: decided by propagation);
    ``out_strategy``: the layout each rank gets its results in (None: whole results);
    ``parameter_plan``: ``{parameter name: blocks per dimension}`` for Parameters to store
    in a given layout. The other ops' strategies come from sharding propagation (or the
    search in ``auto_parallel`` mode). Returns the Cell; calls run in PyNative mode, and
    under a recording grad (``TrainOneStepCell``) the rank's program is recorded, so
    gradients reach the Parameters. ``cell.sharded`` is the :class:`Shard` (its ``plan``
    and ``table``).
    """
    construct = type(cell).construct.__get__(cell)
    sharded = Shard(construct, in_strategy, out_strategy, name=name or type(cell).__name__,
                    parameter_plan=parameter_plan, device_num=device_num)
    cell.__dict__["construct"] = sharded  # this instance only, past Cell.__setattr__
    cell.__dict__["sharded"] = sharded
    return cell
