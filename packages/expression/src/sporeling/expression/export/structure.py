"""How a graph's flat outputs nest (a Tensor, tuples, lists, dicts of them), as JSON."""
from __future__ import annotations

import reprlib

from sporeling.compiler.export import SIRError

__all__ = ["structure_to_json", "structure_from_json"]


def structure_to_json(node):
    """A ``sporeling.compiler.ir.flatten`` structure as JSON (namedtuples become tuples)."""
    if node is None:
        return None
    if node[0] is dict:
        if not all(isinstance(k, str) for k in node[1]):
            raise SIRError("outputs in a dict need string keys", op="export",
                           got=repr(node[1]))
        return {"dict": {k: structure_to_json(n) for k, n in zip(node[1], node[2])}}
    kind, children = node
    return {"list" if kind is list else "tuple": [structure_to_json(n) for n in children]}


def structure_from_json(data, where: str):
    """The inverse of :func:`structure_to_json`; a :class:`SIRError` for anything else."""
    if data is None:
        return None
    if isinstance(data, dict) and len(data) == 1:
        (kind, children), = data.items()
        if kind == "dict" and isinstance(children, dict):
            keys = tuple(sorted(children))
            return (dict, keys, tuple(structure_from_json(children[k], where) for k in keys))
        if kind in ("list", "tuple") and isinstance(children, list):
            return (list if kind == "list" else tuple,
                    tuple(structure_from_json(c, where) for c in children))
    raise SIRError("a malformed output structure", where=where, field="meta.out_structure",
                   expected='null, {"tuple": [...]}, {"list": [...]} or {"dict": {...}}',
                   got=reprlib.repr(data))
