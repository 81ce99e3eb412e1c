"""The ``meta`` section :func:`export` writes (``input_names``, ``out_structure``,
``model``), checked against the loaded graph: a file whose meta does not fit is refused
when loading, not when the GraphCell is first called."""
from __future__ import annotations

import reprlib

from sporeling.compiler.export import SIRError

from .structure import structure_from_json

__all__ = ["meta_to_json", "meta_from_json"]


def meta_to_json(input_names: list[str], out_structure_json, model: str) -> dict:
    return {"input_names": input_names, "out_structure": out_structure_json, "model": model}


def _leaves(node) -> int:
    """How many tensors a structure holds (a leaf is None)."""
    return 1 if node is None else sum(map(_leaves, node[-1]))


def meta_from_json(meta: dict, graph, where: str) -> tuple:
    """``(out_structure, input_names)`` of a loaded file's ``meta``; a :class:`SIRError`
    naming the file and the field for anything else."""
    names = meta.get("input_names")
    n_in = len(graph.inputs)
    if names is not None and not (isinstance(names, list) and len(names) == n_in and all(
            isinstance(x, str) for x in names) and len(set(names)) == n_in):
        raise SIRError("malformed input names", where=where, field="meta.input_names",
                       expected=f"a list of {n_in} distinct strings", got=reprlib.repr(names))
    if not isinstance(meta.get("model", ""), str):
        raise SIRError("a malformed model name", where=where, field="meta.model",
                       expected="a string", got=reprlib.repr(meta["model"]))
    structure = structure_from_json(meta.get("out_structure"), where)
    if _leaves(structure) != len(graph.outputs):
        raise SIRError("an output structure that does not fit the graph", where=where,
                       field="meta.out_structure",
                       expected=f"{len(graph.outputs)} tensors", got=_leaves(structure))
    return structure, names
