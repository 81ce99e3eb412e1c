"""Graph mode's layout pass for the oneDNN backend (:mod:`.assign`), the two primitives
it writes (:mod:`.primitives`) and the pass folding a convolution's bias and activation
into it (:mod:`.epilogues`)."""
from .assign import LAYOUTS, assign_layouts
from .epilogues import EPILOGUES, fuse_epilogues
from .primitives import onednn_blocked_p, onednn_reorder_p
from .probe import block_size

__all__ = ["LAYOUTS", "EPILOGUES", "assign_layouts", "fuse_epilogues", "onednn_blocked_p",
           "onednn_reorder_p", "block_size"]
