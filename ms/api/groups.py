"""The name groups of ms/api/mindspore-2.10/ and the rule for a "public" name.

Shared by ``dump_names.py`` (run with real MindSpore, writes the lists) and ``coverage.py``
(run with the facade, counts them), so that one rule decides what is public on both sides.
Pure Python, no imports beyond the standard library: it must load under either interpreter.

The rule (ms/api/README.md):

* **a namespace** (a module, or a name group of one): when it defines ``__all__``, its public
  names are the ``__all__`` entries that are identifiers, do not start with ``_`` and that
  ``getattr`` resolves (``mindspore.__all__`` lists names it never binds, and the characters
  of ``__version__``; ``mindspore.mint.__all__`` repeats ``mint.nn``'s names). Without
  ``__all__``: the names of ``vars(module)`` not starting with ``_`` whose value is not a
  module and, when it has a ``__module__``, was defined under the same top-level package
  (``mindspore...`` for MindSpore, ``sporeling...`` for the facade) — so ``import platform``
  or ``from typing import Any`` is not API.
* **a class** (``Tensor``, ``nn.Cell``, ``GeneratorDataset``): the names of ``dir(cls)`` not
  starting with ``_`` (methods, properties and class attributes, inherited ones included;
  attributes an instance sets in ``__init__`` are not counted).
* **the autodiff group** (``kind: paths``): presence only — ``vjp``, ``jvp``, ``vmap``,
  ``jacfwd``, ``jacrev`` at the top level and in ``ops``, wherever ``getattr`` resolves them
  (2.10 binds ``mindspore.vjp`` without listing it in ``mindspore.__all__``).
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Callable

VERSION = "2.10"


@dataclass(frozen=True)
class Group:
    """One list: ``ms/api/mindspore-2.10/<key>.txt``."""
    key: str          # the file's stem
    title: str        # what the list holds (its header and the table's first column)
    target: str       # a dotted path under ``mindspore`` (``mindspore.ops``, ``mindspore.Tensor``)
    kind: str         # "namespace", "class" or "paths" (dotted paths under ``target``)
    select: str = ""  # a filter name of SELECTORS (namespace groups only)


def is_public_identifier(name) -> bool:
    return isinstance(name, str) and name.isidentifier() and not name.startswith("_")


def _top_package(obj) -> str:
    return (getattr(obj, "__name__", "") or "").split(".", 1)[0]


def namespace_names(module) -> set[str]:
    """The public names of ``module`` (the rule above)."""
    declared = getattr(module, "__all__", None)
    names = set()
    if declared is not None:
        for name in declared:
            if not is_public_identifier(name):
                continue
            try:
                getattr(module, name)
            except Exception:  # noqa: BLE001 - a lazy attribute that fails is not there
                continue
            names.add(name)
        return names
    top = _top_package(module)
    for name, value in vars(module).items():
        if not is_public_identifier(name) or inspect.ismodule(value):
            continue
        defined_in = getattr(value, "__module__", None)
        if isinstance(defined_in, str) and defined_in.split(".", 1)[0] != top:
            continue
        names.add(name)
    return names


def class_names(cls) -> set[str]:
    """The public attributes of ``cls``: ``dir(cls)`` without ``_`` names."""
    return {name for name in dir(cls) if is_public_identifier(name)}


def resolve(root, dotted: str):
    """``root.a.b`` for ``dotted == "a.b"`` (``root`` for ""); AttributeError if absent."""
    obj = root
    for part in filter(None, dotted.split(".")):
        obj = getattr(obj, part)
    return obj


# --- filters that split one namespace into several groups; each takes (obj, base) where
# base is the namespace's base class (Primitive for ops, Cell for nn) --------------------

def _is_primitive_class(obj, base) -> bool:
    return inspect.isclass(obj) and issubclass(obj, base)


def _is_function(obj, base) -> bool:
    return callable(obj) and not inspect.isclass(obj)


def _is_other_ops(obj, base) -> bool:
    return not _is_primitive_class(obj, base) and not _is_function(obj, base)


def _is_cell(obj, base) -> bool:
    return inspect.isclass(obj) and issubclass(obj, base)


def _is_not_cell(obj, base) -> bool:
    return not _is_cell(obj, base)


SELECTORS: dict[str, tuple[str, Callable]] = {
    # name: (the base class, a dotted path under the group's target's root, and the filter)
    "ops.functions": ("ops.Primitive", _is_function),
    "ops.primitives": ("ops.Primitive", _is_primitive_class),
    "ops.other": ("ops.Primitive", _is_other_ops),
    "nn.cells": ("nn.Cell", _is_cell),
    "nn.other": ("nn.Cell", _is_not_cell),
}

GROUPS = [
    Group("mindspore", "`mindspore` (`__all__`)", "mindspore", "namespace"),
    Group("autodiff", "`vjp`, `jvp`, `vmap`, `jacfwd`, `jacrev`", "mindspore", "paths"),
    Group("ops.functions", "`mindspore.ops` functions", "mindspore.ops", "namespace",
          "ops.functions"),
    Group("ops.primitives", "`mindspore.ops` Primitive classes", "mindspore.ops", "namespace",
          "ops.primitives"),
    Group("ops.other", "`mindspore.ops` other names (classes that are not Primitives, ...)",
          "mindspore.ops", "namespace", "ops.other"),
    Group("nn.cells", "`mindspore.nn` Cells", "mindspore.nn", "namespace", "nn.cells"),
    Group("nn.other", "`mindspore.nn` other names (metrics, lr functions, ...)",
          "mindspore.nn", "namespace", "nn.other"),
    Group("Tensor", "`mindspore.Tensor` methods and properties", "mindspore.Tensor", "class"),
    Group("nn.Cell", "`mindspore.nn.Cell` methods and properties", "mindspore.nn.Cell", "class"),
    Group("dataset", "`mindspore.dataset`", "mindspore.dataset", "namespace"),
    Group("dataset.GeneratorDataset", "`mindspore.dataset.GeneratorDataset` methods",
          "mindspore.dataset.GeneratorDataset", "class"),
    Group("dataset.vision", "`mindspore.dataset.vision`", "mindspore.dataset.vision",
          "namespace"),
    Group("dataset.text", "`mindspore.dataset.text`", "mindspore.dataset.text", "namespace"),
    Group("train", "`mindspore.train`", "mindspore.train", "namespace"),
    Group("mint", "`mindspore.mint`", "mindspore.mint", "namespace"),
    Group("mint.nn", "`mindspore.mint.nn`", "mindspore.mint.nn", "namespace"),
    Group("mint.nn.functional", "`mindspore.mint.nn.functional`",
          "mindspore.mint.nn.functional", "namespace"),
    Group("mint.optim", "`mindspore.mint.optim`", "mindspore.mint.optim", "namespace"),
]

# The autodiff group: where 2.10 may have each function (the dump keeps those it has).
AUTODIFF = ["vjp", "jvp", "vmap", "jacfwd", "jacrev"]
AUTODIFF_PLACES = ["", "ops"]


def group_names(group: Group, root, split: bool = True) -> set[str]:
    """The names of ``group`` in the package ``root`` (``mindspore`` or ``sporeling.ms``),
    by the rule above; ``split=False`` skips the group's filter (the facade's names are
    matched against the list, whatever kind of object carries them). Raises
    AttributeError when the group's target does not exist under ``root``."""
    target = resolve(root, group.target.partition(".")[2])
    if group.kind == "class":
        return class_names(target)
    if group.kind == "paths":  # presence only: 2.10 binds these without listing them
        names = set()
        for place in AUTODIFF_PLACES:
            for name in AUTODIFF:
                dotted = f"{place}.{name}" if place else name
                try:
                    resolve(target, dotted)
                except AttributeError:
                    continue
                names.add(dotted)
        return names
    names = namespace_names(target)
    if group.select and split:
        base_path, keep = SELECTORS[group.select]
        base = resolve(root, base_path)
        names = {n for n in names if keep(getattr(target, n), base)}
    return names
