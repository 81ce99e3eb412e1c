"""``nn.Cell``'s buffers and state dicts (MindSpore 2.10's PyTorch-style API).

A buffer is a Tensor a cell keeps that is not a Parameter (running statistics, masks):
``register_buffer(name, tensor, persistent=True)`` makes it an attribute and lists it in
``buffers()``/``named_buffers()``; persistent buffers also go into ``state_dict()``.
``state_dict()`` maps attribute paths (``"dense.weight"``) to the parameters and persistent
buffers (detached Tensors sharing their data, or the objects themselves with
``keep_vars=True``), plus ``"<path>._extra_state"`` for cells that override
``get_extra_state``. ``load_state_dict(state_dict, strict=True)`` copies values back and
returns ``(missing_keys, unexpected_keys)``. Sub-cells that are not ``ms.nn.Cell``
subclasses (the built-in layers) hold parameters only.
"""
from __future__ import annotations

from collections import OrderedDict, namedtuple
from typing import Any, Dict, TypeVar

import numpy as np

from sporeling.expression import Tensor

__all__ = ["CellStateMixin", "IncompatibleKeys"]

IncompatibleKeys = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])
_EXTRA_STATE = "_extra_state"
_HOOK_KINDS = ("state_dict_pre", "state_dict_post", "load_state_dict_pre",
               "load_state_dict_post")


class _Handle:
    """What the state-dict ``register_*_hook`` methods return: ``remove()`` unregisters."""

    def __init__(self, table: dict, key: int):
        self._table, self._key = table, key

    def remove(self) -> None:
        self._table.pop(self._key, None)


def _buffers(cell) -> "OrderedDict[str, bool]":
    """The cell's buffer names and whether each is persistent (none for sx cells)."""
    return cell.__dict__.get("_buffers") or OrderedDict()


def _hooks(cell, kind: str) -> dict:
    return (cell.__dict__.get("_state_hooks") or {}).get(kind, {})


def _has_extra_state(cell) -> bool:
    own = getattr(type(cell), "get_extra_state", None)
    return own is not None and own is not CellStateMixin.get_extra_state


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


class CellStateMixin:
    """Buffers and state dicts for ``ms.nn.Cell``."""

    T_destination = TypeVar("T_destination", bound=Dict[str, Any])

    # ---- buffers --------------------------------------------------------------------------

    def register_buffer(self, name, tensor, persistent=True) -> None:
        """Keep ``tensor`` (a Tensor, or None) as attribute ``name``; listed by ``buffers()``
        and, when ``persistent``, saved by ``state_dict()``."""
        if not isinstance(name, str):
            raise TypeError(f"register_buffer: name must be a str, got {type(name).__name__}")
        if not name or "." in name:
            raise KeyError(f"register_buffer: name must be non-empty and without '.', got "
                           f"{name!r}")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"register_buffer: cannot register a {type(tensor).__name__} as "
                            f"buffer {name!r} (a Tensor or None is expected)")
        if name in self._params or name in self._cells or \
                (hasattr(self, name) and name not in _buffers(self)):
            raise KeyError(f"register_buffer: attribute {name!r} already exists")
        self.__dict__.setdefault("_buffers", OrderedDict())[name] = bool(persistent)
        object.__setattr__(self, name, tensor)

    def get_buffer(self, target: str):
        """The buffer at dotted path ``target`` (``"block.running_mean"``)."""
        *path, name = target.split(".")
        cell = self.get_sub_cell(".".join(path)) if path else self
        if name not in _buffers(cell):
            raise AttributeError(f"{type(cell).__name__} has no buffer {name!r} "
                                 f"(get_buffer({target!r}))")
        return getattr(cell, name)

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """``(path, buffer)`` pairs, this cell's then (``recurse``) its sub-cells'."""
        seen = set()
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        for path, cell in cells:
            for name in _buffers(cell):
                value = getattr(cell, name, None)
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield _join(path, name), value

    def buffers(self, recurse=True):
        """Every buffer (an iterator)."""
        return (b for _, b in self.named_buffers(recurse=recurse))

    def get_sub_cell(self, target: str):
        """The sub-cell at dotted path ``target`` (``""``: this cell)."""
        cell = self
        for part in filter(None, target.split(".")):
            child = cell._cells.get(part)
            if child is None:
                raise AttributeError(f"{type(cell).__name__} has no sub-cell {part!r} "
                                     f"(path {target!r})")
            cell = child
        return cell

    # ---- extra state ----------------------------------------------------------------------

    def get_extra_state(self):
        """What a cell saves besides parameters and buffers: override it (and
        ``set_extra_state``) to add a ``"_extra_state"`` entry to ``state_dict``."""
        raise RuntimeError("Cell.get_extra_state was called without being overridden; "
                           "override it to save extra state")

    def set_extra_state(self, state):
        """Restore what ``get_extra_state`` returned (override both together)."""
        raise RuntimeError("Cell.set_extra_state was called without being overridden; "
                           "override it with get_extra_state to load extra state")

    # ---- hooks ----------------------------------------------------------------------------

    def _register_state_hook(self, kind: str, hook):
        if not callable(hook):
            raise TypeError(f"register_{kind}_hook: hook must be callable, got "
                            f"{type(hook).__name__}")
        tables = self.__dict__.setdefault("_state_hooks", {k: {} for k in _HOOK_KINDS})
        key = len(tables[kind]) and max(tables[kind]) + 1
        tables[kind][key] = hook
        return _Handle(tables[kind], key)

    def register_state_dict_pre_hook(self, hook):
        """``hook(cell, prefix, keep_vars)`` before this cell's entries are collected."""
        return self._register_state_hook("state_dict_pre", hook)

    def register_state_dict_post_hook(self, hook):
        """``hook(cell, state_dict, prefix, local_metadata)`` after this cell's entries are
        in ``state_dict`` (it may change the dict in place)."""
        return self._register_state_hook("state_dict_post", hook)

    def register_load_state_dict_pre_hook(self, hook):
        """``hook(cell, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` before this cell's entries are loaded."""
        return self._register_state_hook("load_state_dict_pre", hook)

    def register_load_state_dict_post_hook(self, hook):
        """``hook(cell, incompatible_keys)`` once ``load_state_dict`` has loaded everything
        (it may edit the key lists in place)."""
        return self._register_state_hook("load_state_dict_post", hook)

    # ---- state dicts ----------------------------------------------------------------------

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """``{path: tensor}`` of the parameters, persistent buffers and extra states."""
        if args:
            raise TypeError("state_dict: pass destination, prefix and keep_vars by keyword")
        out = OrderedDict() if destination is None else destination
        for path, cell in self.cells_and_names(name_prefix=prefix):
            for hook in _hooks(cell, "state_dict_pre").values():
                hook(cell, path + "." if path else "", keep_vars)
            for name, param in cell._params.items():
                if param is not None:
                    out[_join(path, name)] = param if keep_vars else param.detach()
            for name, persistent in _buffers(cell).items():
                value = getattr(cell, name, None)
                if persistent and value is not None:
                    out[_join(path, name)] = value if keep_vars else value.detach()
            if _has_extra_state(cell):
                out[_join(path, _EXTRA_STATE)] = cell.get_extra_state()
            for hook in _hooks(cell, "state_dict_post").values():
                hook(cell, out, path + "." if path else "", {})
        return out

    def load_state_dict(self, state_dict, strict=True):
        """Copy ``state_dict``'s values into the parameters and persistent buffers (shapes
        must match); ``strict``: every key must match. Returns
        ``(missing_keys, unexpected_keys)``."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"load_state_dict: expected a dict, got "
                            f"{type(state_dict).__name__}")
        state = OrderedDict(state_dict)
        missing, unexpected, errors, used = [], [], [], set()
        for path, cell in self.cells_and_names():
            prefix = path + "." if path else ""
            for hook in _hooks(cell, "load_state_dict_pre").values():
                hook(cell, state, prefix, {}, strict, missing, unexpected, errors)
            _load_local(cell, state, prefix, missing, errors, used)
        unexpected.extend(k for k in state if k not in used)
        if strict:
            if unexpected:
                errors.insert(0, f"unexpected keys: {unexpected}")
            if missing:
                errors.insert(0, f"missing keys: {missing}")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}: "
                               + "; ".join(errors))
        result = IncompatibleKeys(missing, unexpected)
        for _, cell in self.cells_and_names():
            for hook in _hooks(cell, "load_state_dict_post").values():
                hook(cell, result)
        return result


def _as_array(value) -> np.ndarray:
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def _load_local(cell, state, prefix, missing, errors, used) -> None:
    """Load one cell's own entries (its sub-cells are visited by the caller)."""
    entries = [(n, p) for n, p in cell._params.items() if p is not None]
    entries += [(n, getattr(cell, n, None)) for n, keep in _buffers(cell).items() if keep]
    for name, target in entries:
        key = prefix + name
        if key not in state:
            missing.append(key)
            continue
        used.add(key)
        value = _as_array(state[key])
        if target is None:
            object.__setattr__(cell, name, Tensor(value))
            continue
        if tuple(value.shape) != tuple(target.shape):
            errors.append(f"size mismatch for {key}: copying a param with shape "
                          f"{tuple(value.shape)}, the shape in current model is "
                          f"{tuple(target.shape)}")
            continue
        if hasattr(target, "set_data"):
            target.set_data(value.astype(_as_array(target).dtype))
        else:
            object.__setattr__(cell, name, Tensor(value.astype(_as_array(target).dtype)))
    if _has_extra_state(cell):
        key = prefix + _EXTRA_STATE
        if key in state:
            used.add(key)
            cell.set_extra_state(state[key])
        else:
            missing.append(key)
