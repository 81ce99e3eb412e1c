"""``Cell.shard``: MindSpore's way of running a Cell's ``construct`` split over the ranks.

Attached to :class:`~sporeling.expression.nn.Cell` by :func:`install_cell_shard` when
``sporeling.parallel`` is imported (expression itself knows nothing of parallelism).
"""
from __future__ import annotations

from .api import Shard

__all__ = ["cell_shard", "install_cell_shard"]


def cell_shard(self, in_strategy, out_strategy=None, parameter_plan=None, device=None,
               level=0):
    """Run this Cell's ``construct`` split over the ranks of the current communicator.

    ``in_strategy``: blocks per dimension of each input (None: decided by propagation);
    ``out_strategy``: the layout each rank gets its results in (None: whole results);
    ``parameter_plan``: ``{parameter name: blocks per dimension}`` for Parameters to store
    in a given layout. The other ops' strategies come from sharding propagation (or the
    search in ``auto_parallel`` mode). ``device`` and ``level`` are accepted for
    MindSpore compatibility and ignored. Returns the Cell; calls run in PyNative mode, for
    inference (gradients do not flow through a sharded call yet).
    """
    construct = type(self).construct.__get__(self)
    sharded = Shard(construct, in_strategy, out_strategy, name=type(self).__name__,
                    parameter_plan=parameter_plan)
    self.__dict__["construct"] = sharded  # past Cell.__setattr__: not a sub-cell
    self.__dict__["sharded"] = sharded
    return self


def install_cell_shard() -> None:
    from sporeling.expression.nn import Cell
    if getattr(Cell, "shard", None) is None:
        Cell.shard = cell_shard
