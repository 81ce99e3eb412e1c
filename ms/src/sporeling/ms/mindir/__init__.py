"""MindIR, MindSpore's model format (``mind_ir.proto``): :func:`export` writes a network as
MindSpore 2.10 does, :func:`load` reads one (written by MindSpore or by Sporeling) into a
:class:`MindIRGraph` that ``nn.GraphCell`` runs."""
from .api import export, load, load_mindir, save_mindir
from .errors import MindIRError, MindIRUnsupportedError
from .reader import MindIRGraph, parse_mindir, read_mindir
from .writer import export_mindir, to_model

__all__ = ["export", "load", "load_mindir", "save_mindir",
           "MindIRError", "MindIRUnsupportedError", "MindIRGraph",
           "parse_mindir", "read_mindir", "export_mindir", "to_model"]
