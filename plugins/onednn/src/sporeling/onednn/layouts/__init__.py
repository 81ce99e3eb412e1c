"""Graph mode's layout pass for the oneDNN backend (:mod:`.assign`) and the two primitives
it writes (:mod:`.primitives`)."""
from .assign import LAYOUTS, assign_layouts
from .primitives import onednn_blocked_p, onednn_reorder_p
from .probe import block_size

__all__ = ["LAYOUTS", "assign_layouts", "onednn_blocked_p", "onednn_reorder_p", "block_size"]
