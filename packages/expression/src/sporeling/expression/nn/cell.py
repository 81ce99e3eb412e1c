"""``Cell``: the base of every layer and network (MindSpore's ``nn.Cell``).

A Cell owns Parameters and sub-Cells, registered in attribute order when assigned in
``__init__``; calling a Cell runs its ``construct``. Parameter names are hierarchical
(``"encoder.layers.1.bias"``), and -- as in MindSpore -- ``Parameter.name`` itself is set
from the attribute path when a Cell is attached to its parent.

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> net = nn.SequentialCell(nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2))
    >>> [name for name, _ in net.parameters_and_names()]
    ['0.weight', '0.bias', '2.weight', '2.bias']
    >>> net[2].bias.name
    '2.bias'
    >>> net(np.ones((5, 3), np.float32)).shape
    (5, 2)

Differences a PyTorch user will meet: a new Cell is **not** in training mode
(``training`` is False until ``set_train()``, as in MindSpore); ``bprop`` replaces autograd
Functions; ``to_float`` casts a cell's inputs and parameters for its computation.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Iterator

from sporeling.compiler.core.stack import STACK
from sporeling.core import ArgumentError, GRAPH_MODE, context_version, dtypes, get_context
from sporeling.core.arguments import checked_init

from ..structure_epoch import changed as _structure_changed
from ..tensor import Parameter
from ._argument_errors import call_error

__all__ = ["Cell"]

_DEFAULT_PARAM_NAMES = (None, "", "Parameter")

# Graph mode: [context version, mode is GRAPH_MODE] re-read only when the context changes
_GRAPH_MODE = [-1, False]


def _in_trace() -> bool:
    """A Graph-mode trace runs in this thread: Cells called are inlined into its graph."""
    return any(layer.rebind for layer in STACK.layers)


def _graph_mode() -> bool:
    version = context_version()
    if _GRAPH_MODE[0] != version:
        _GRAPH_MODE[0], _GRAPH_MODE[1] = version, get_context("mode") == GRAPH_MODE
    return _GRAPH_MODE[1]


class Cell:
    """Base class of layers and networks: subclass it, assign Parameters and sub-Cells in
    ``__init__`` (after ``super().__init__()``), compute in ``construct``.

    ``auto_prefix=False`` keeps this cell's attribute names out of its children's
    ``Parameter.name`` (MindSpore's flag, used by wrapper cells such as ``WithLossCell``).
    A subclass that defines ``bprop(self, *inputs, out, dout)`` (returning one gradient per
    input) has its backward replaced by it.
    """

    _has_bprop = False
    _hooked = False  # True once a hook is registered on the instance (see _hooks.py)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._has_bprop = callable(getattr(cls, "bprop", None))
        init = cls.__dict__.get("__init__")
        if init is not None and cls.__module__.startswith("sporeling."):
            cls.__init__ = checked_init(init)  # bad arguments: a named error, not int("a")

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None):
        d = self.__dict__
        d["_params"] = OrderedDict()      # attribute -> Parameter (or None)
        d["_param_base"] = {}             # attribute -> name Parameter.name is built from
        d["_cells"] = OrderedDict()       # attribute -> Cell (or None)
        d["training"] = False
        d["_cast_dtype"] = None
        d["_auto_prefix"] = bool(auto_prefix)
        if flags is not None and not isinstance(flags, dict):
            raise ArgumentError("bad flags", op=type(self).__name__, expected="a dict or None",
                                got=repr(flags)[:80])
        d["_flags"] = dict(flags or {})

    # ---- registration -------------------------------------------------------------------

    def _registries(self):
        params = self.__dict__.get("_params")
        if params is None:
            raise AttributeError(f"{type(self).__name__}: call super().__init__() before "
                                 "assigning Parameters or Cells")
        return params, self.__dict__["_cells"]

    def __setattr__(self, name: str, value) -> None:
        _structure_changed()  # compiled graphs re-check their guards (see ..structure_epoch)
        if isinstance(value, Parameter):
            params, cells = self._registries()
            cells.pop(name, None)
            params[name] = value
            base = name if value.name in _DEFAULT_PARAM_NAMES else value.name
            self._param_base[name] = base
            value.name = base
        elif isinstance(value, Cell):
            params, cells = self._registries()
            params.pop(name, None)
            cells[name] = value
            value._update_parameter_names(name if self._auto_prefix else "")
        elif value is None and ("_params" in self.__dict__ and
                                (name in self._params or name in self._cells)):
            (self._params if name in self._params else self._cells)[name] = None
        elif "_params" in self.__dict__ and name in self._params and \
                self._params[name] is not None:
            raise TypeError(f"{type(self).__name__}.{name} is a Parameter; assign a "
                            f"Parameter (or None), not {type(value).__name__} -- to change "
                            "its value use set_data")
        elif "_cells" in self.__dict__ and name in self._cells:
            del self._cells[name]
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        _structure_changed()
        for table in (self.__dict__.get("_params", {}), self.__dict__.get("_cells", {})):
            table.pop(name, None)
        object.__delattr__(self, name)

    def insert_param_to_cell(self, param_name: str, param, check_name_contain_dot=True):
        """Register ``param`` under ``param_name`` (like assigning the attribute)."""
        if not isinstance(param_name, str) or not param_name:
            raise KeyError(f"{type(self).__name__}: parameter name must be a non-empty "
                           f"string, got {param_name!r}")
        if check_name_contain_dot and "." in param_name:
            raise KeyError(f"{type(self).__name__}: parameter name {param_name!r} contains "
                           "'.'")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"{type(self).__name__}.insert_param_to_cell: expected a "
                            f"Parameter or None, got {type(param).__name__}")
        if hasattr(self, param_name) and param_name not in self._params:
            raise KeyError(f"{type(self).__name__}: attribute {param_name!r} already exists")
        setattr(self, param_name, param)

    def insert_child_to_cell(self, child_name: str, child_cell) -> None:
        """Register ``child_cell`` under ``child_name`` (like assigning the attribute)."""
        if not isinstance(child_name, str) or not child_name or "." in child_name:
            raise KeyError(f"{type(self).__name__}: child name must be a non-empty string "
                           f"without '.', got {child_name!r}")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"{type(self).__name__}.insert_child_to_cell: expected a Cell "
                            f"or None, got {type(child_cell).__name__}")
        setattr(self, child_name, child_cell)

    def _update_parameter_names(self, prefix: str) -> None:
        """Set ``Parameter.name`` of the whole subtree from ``prefix`` and attribute paths."""
        for attr, p in self._params.items():
            if p is not None:
                base = self._param_base[attr]
                p.name = f"{prefix}.{base}" if prefix else base
        for attr, cell in self._cells.items():
            if cell is not None:
                sub = (f"{prefix}.{attr}" if prefix else attr) if self._auto_prefix else prefix
                cell._update_parameter_names(sub)

    # ---- traversal --------------------------------------------------------------------

    def cells_and_names(self, cells=None, name_prefix: str = "") -> Iterator[tuple[str, "Cell"]]:
        """``(path, cell)`` for this cell (path ``name_prefix``) and every descendant,
        depth first in registration order; a cell reachable twice is yielded once."""
        seen = set() if cells is None else cells
        stack = [(name_prefix, self)]
        while stack:
            path, cell = stack.pop()
            if id(cell) in seen:
                continue
            seen.add(id(cell))
            yield path, cell
            children = [(f"{path}.{n}" if path else n, c) for n, c in cell._cells.items()
                        if c is not None]
            stack.extend(reversed(children))

    def cells(self) -> list["Cell"]:
        """The direct sub-cells."""
        return [c for c in self._cells.values() if c is not None]

    def name_cells(self) -> "OrderedDict[str, Cell]":
        """The direct sub-cells by attribute name."""
        return OrderedDict((n, c) for n, c in self._cells.items() if c is not None)

    def parameters_and_names(self, name_prefix: str = "", expand: bool = True):
        """``(path, parameter)`` pairs: this cell's, then (``expand``) its descendants';
        a parameter shared by several cells is yielded once, under its first path."""
        seen = set()
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else \
            [(name_prefix, self)]
        for path, cell in cells:
            for attr, p in cell._params.items():
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    yield (f"{path}.{attr}" if path else attr), p

    def get_parameters(self, expand: bool = True):
        """Every parameter (a generator), as ``parameters_and_names`` orders them."""
        return (p for _, p in self.parameters_and_names(expand=expand))

    def trainable_params(self, recurse: bool = True) -> list:
        """The parameters with ``requires_grad`` True (what optimizers and ``grad`` take)."""
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list:
        """The parameters with ``requires_grad`` False (e.g. BatchNorm's moving statistics)."""
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> "OrderedDict[str, Parameter]":
        """Parameters keyed by ``Parameter.name`` (MindSpore's checkpoint keys)."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    # ---- modes ----------------------------------------------------------------------------

    def set_train(self, mode: bool = True) -> "Cell":
        """Training (True) or inference mode for this cell and all descendants."""
        for _, cell in self.cells_and_names():
            cell.__dict__["training"] = bool(mode)
        _structure_changed()
        return self

    def to_float(self, dst_type) -> "Cell":
        """Compute this cell and its descendants in ``dst_type`` (float16, bfloat16 or
        float32): floating inputs and parameters are cast at each cell's boundary, so
        outputs come out in ``dst_type`` (MindSpore's semantics; the cast is recorded, so
        gradients still reach the float32 parameters)."""
        dst = dtypes.dtype(dst_type)
        if dst not in (dtypes.float16, dtypes.bfloat16, dtypes.float32):
            raise TypeError(f"{type(self).__name__}.to_float: expected float16, bfloat16 or "
                            f"float32, got {dst}")
        for _, cell in self.cells_and_names():
            cell.__dict__["_cast_dtype"] = dst
        return self

    def apply(self, fn: Callable[["Cell"], None]) -> "Cell":
        """Call ``fn`` on every sub-cell (children first) and then on this cell."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    # ---- calling --------------------------------------------------------------------------

    def construct(self, *inputs, **kwargs):
        """The computation; every Cell subclass defines it."""
        raise NotImplementedError(f"{type(self).__name__} does not define construct()")

    def shard(self, in_strategy=None, out_strategy=None, **kw):
        """Run this Cell split over the ranks (MindSpore's ``Cell.shard``); returns the Cell.

        ``in_strategy`` / ``out_strategy``: blocks per dimension of each input / output;
        other keywords (``parameter_plan=``...) go to the implementation, which a plugin
        gives through the ``sporeling_shard`` hook (``sporeling-parallel``); without one
        this raises a :class:`~sporeling.core.errors.SporelingError` saying to install it.
        """
        from ..sharding import shard
        return shard(self, in_strategy, out_strategy, **kw)

    def __call__(self, *args, **kwargs):
        if _graph_mode() or _in_trace():
            from ..graph.cell_call import graph_call
            return graph_call(self, args, kwargs)
        if self._hooked:
            from ._hooks import call_hooked
            return call_hooked(self, args, kwargs)
        if self._cast_dtype is not None:
            from ._calling import call_cast
            return call_cast(self, args, kwargs)
        if self._has_bprop:
            from ._calling import call_bprop
            return call_bprop(self, args, kwargs)
        try:
            return self.construct(*args, **kwargs)
        except Exception as exc:  # no cost unless raised: a SporelingError names the user's line
            from sporeling.compiler.core import locate
            error = call_error(self, args, kwargs, exc)
            if error is exc:
                locate(exc, traceback=True)
                raise
            raise locate(error) from exc

    def _pynative_call(self, args: tuple, kwargs: dict):
        """The call without Graph mode: what a graph inlines, and the eager fallback."""
        if self._cast_dtype is not None:
            from ._calling import call_cast
            return call_cast(self, args, kwargs)
        if self._has_bprop:
            from ._calling import call_bprop
            return call_bprop(self, args, kwargs)
        return self.construct(*args, **kwargs)

    # ---- hooks (PyNative; see _hooks.py) ------------------------------------------------

    def register_forward_pre_hook(self, hook_fn, *, prepend=False, with_kwargs=False):
        """``hook_fn(cell, args)`` before ``construct`` (``(cell, args, kwargs)`` with
        ``with_kwargs``); a non-None result replaces the arguments. Returns a handle whose
        ``remove()`` unregisters it. PyNative only."""
        from ._hooks import register
        return register(self, "forward_pre", hook_fn, prepend, with_kwargs=with_kwargs)

    def register_forward_hook(self, hook_fn, *, prepend=False, with_kwargs=False,
                              always_call=False):
        """``hook_fn(cell, args, output)`` after ``construct`` (``(cell, args, kwargs,
        output)`` with ``with_kwargs``); a non-None result replaces the output. Returns a
        handle (``remove()``). PyNative only; ``always_call`` is accepted."""
        from ._hooks import register
        return register(self, "forward", hook_fn, prepend, with_kwargs=with_kwargs,
                        always_call=always_call)

    def register_backward_pre_hook(self, hook_fn):
        """``hook_fn(cell, grad_output)`` in the backward pass, before the cell's own
        backward; a non-None result replaces ``grad_output``. Returns a handle."""
        from ._hooks import register
        return register(self, "backward_pre", hook_fn)

    def register_backward_hook(self, hook_fn):
        """``hook_fn(cell, grad_input, grad_output)`` once the gradients of the cell's Tensor
        inputs are known; a non-None result replaces ``grad_input``. Returns a handle."""
        from ._hooks import register
        return register(self, "backward", hook_fn)

    def compile_cache_info(self) -> dict:
        """Graph mode: ``{"compile_count", "entries", "compile_seconds"}`` of this Cell's
        compile cache (a compilation per new input signature, training flag or set of
        Parameters)."""
        from ..graph.cell_call import cache_of
        return cache_of(self).info()

    # ---- display --------------------------------------------------------------------------

    def extend_repr(self) -> str:
        """Extra text shown inside this cell's ``<...>`` in ``repr``; layers override it."""
        return ""

    def __repr__(self) -> str:
        head = f"{type(self).__name__}<{self.extend_repr()}"
        children = [(n, c) for n, c in self._cells.items() if c is not None]
        if not children:
            return head + ">"
        lines = [head]
        for name, cell in children:
            text = repr(cell).replace("\n", "\n  ")
            lines.append(f"  ({name}): {text}")
        return "\n".join(lines) + "\n  >"
