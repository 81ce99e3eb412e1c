"""Automatic strategy search: the cost model and the three search modes (see the package
README, "Strategy search")."""
from .api import MODES, SearchResult, format_table, search, strategy_table
from .cost import CostModel, Machine, measure, op_flops

__all__ = ["MODES", "SearchResult", "format_table", "search", "strategy_table", "CostModel",
           "Machine", "measure", "op_flops"]
