"""``ms.nn.Cell``: sporeling's ``Cell`` with the MindSpore 2.x methods scripts call that
Sporeling does not need (``set_grad``, ``set_inputs``, ``add_flags``, ...).

User networks subclass it (``class Net(nn.Cell)``). ``isinstance(x, nn.Cell)`` and
``issubclass(C, nn.Cell)`` hold for every sporeling Cell, the re-exported layers included, so
code that walks ``cells_and_names()`` and tests ``isinstance(cell, nn.Cell)`` keeps working.
"""
from __future__ import annotations

from sporeling.expression.nn import Cell as _SxCell

from .cell_compat import CellCompatMixin
from .cell_runtime import CellRuntimeMixin
from .cell_state import CellStateMixin

__all__ = ["Cell"]


class _CellMeta(type):
    """``nn.Cell`` answers isinstance/issubclass for any sporeling Cell; its subclasses
    answer as usual."""

    def __instancecheck__(cls, obj):
        if cls is Cell:
            return isinstance(obj, _SxCell)
        return type.__instancecheck__(cls, obj)

    def __subclasscheck__(cls, sub):
        if cls is Cell:
            return issubclass(sub, _SxCell)
        return type.__subclasscheck__(cls, sub)


class Cell(CellStateMixin, CellRuntimeMixin, CellCompatMixin, _SxCell, metaclass=_CellMeta):
    """MindSpore's ``nn.Cell`` (see :class:`sporeling.expression.nn.Cell` for the rest;
    buffers and state dicts: ``cell_state.py``; bookkeeping members: ``cell_compat.py``;
    dtype, storage, offload/parallel switches and compile state: ``cell_runtime.py``).

    ``set_grad`` is recorded only: ``grad``/``value_and_grad`` differentiate what they are
    given, no flag is needed (MindSpore needs it to build the backward graph).

    In Graph mode ``construct`` may read its inputs' values (2.10's JIT Fallback: the graph
    is specialised on them, see ``ms.jit``)."""

    _specialize_values = True

    def __init__(self, auto_prefix=True, flags=None):
        super().__init__(auto_prefix, flags)
        self._note_instance()

    def set_train(self, mode: bool = True) -> "Cell":
        """Training (True) or inference mode for this cell and its sub-cells; ``phase``
        becomes ``"train"`` or ``"predict"`` (as MindSpore sets it)."""
        super().set_train(mode)
        for _, cell in self.cells_and_names():
            cell.__dict__["_phase"] = "train" if mode else "predict"
        return self

    def _graph_root(self):
        from sporeling.expression.graph.cell_call import graph_call
        return lambda *args, **kwargs: graph_call(self, args, kwargs)

    def compile(self, *args, **kwargs) -> None:
        """Compile the graph a Graph-mode call with these inputs runs, without running it
        (MindSpore's ``model(x) = model.compile(x) + model.construct(x)``); the call then
        reuses it."""
        from sporeling.expression.graph.cell_call import cache_of
        cache_of(self).prepare(self._graph_root(), args, kwargs, (self.training,))
        if not kwargs:  # what get_func_graph_proto serializes
            self.__dict__["_compiled_inputs"] = args

    def compile_and_run(self, *args, **kwargs):
        """Compile (once per input signature) and run the graph, in either mode."""
        from sporeling.expression.graph.cell_call import cache_of
        return cache_of(self).call(self._graph_root(), args, kwargs, (self.training,))

    def set_grad(self, requires_grad: bool = True) -> "Cell":
        """Mark the cell as differentiated (recorded in ``requires_grad``); returns it."""
        self.__dict__["requires_grad"] = bool(requires_grad)
        return self

    def set_inputs(self, *inputs) -> None:
        """MindSpore's dynamic-shape declaration. Sporeling compiles per input signature
        (shapes, dtypes) and caches each graph, so the declaration is only kept."""
        self.__dict__["_declared_inputs"] = inputs

    def get_inputs(self):
        """What ``set_inputs`` declared (None if nothing)."""
        return self.__dict__.get("_declared_inputs")

    def add_flags(self, **flags) -> "Cell":
        """Attach flags to this cell (``get_flags`` returns them)."""
        self._flags.update(flags)
        return self

    def add_flags_recursive(self, **flags) -> "Cell":
        """Attach flags to this cell and every sub-cell."""
        for _, cell in self.cells_and_names():
            cell._flags.update(flags)
        return self

    def get_flags(self) -> dict:
        return dict(self._flags)

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Prefix the names of this cell's parameters (MindSpore's; attaching the cell to a
        parent later names them from the attribute path again)."""
        if not isinstance(prefix, str):
            raise TypeError(f"update_parameters_name: prefix must be a str, got "
                            f"{type(prefix).__name__}")
        for param in self.get_parameters(expand=recurse):
            param.name = prefix + param.name
