"""The IR as text: one equation a line, with shapes, dtypes and the user's source line."""
from __future__ import annotations

import numpy as np

from .graph import Const, Graph

__all__ = ["graph_to_text"]


def _const_text(c: Const) -> str:
    if c.value.ndim == 0:
        return repr(c.value.item())
    if c.value.size <= 4:
        return f"const({np.array2string(c.value, separator=', ')}:{c.value.dtype})"
    return f"const({c.aval})"


def _param_text(value, names, indent) -> str:
    if isinstance(value, Graph):
        return "\n" + graph_to_text(value, names, indent + "    ")
    if isinstance(value, np.dtype):
        return str(value)
    return repr(value)


def _expr_text(expr) -> str:
    """A fused chain's nodes by name (its full tuple would run for lines)."""
    try:
        return " -> ".join(node[0] for node in expr)
    except (TypeError, IndexError):
        return repr(expr)


def graph_to_text(graph: Graph, names: dict | None = None, indent: str = "") -> str:
    """``graph`` as readable text; Vars are numbered in order of definition."""
    names = {} if names is None else names

    def name(v) -> str:
        if isinstance(v, Const):
            return _const_text(v)
        if v not in names:
            names[v] = f"%{len(names)}"
        return names[v]

    args = ", ".join(f"{name(v)}: {v.aval}" for v in graph.inputs)
    lines = [f"{indent}graph {graph.name}({args}) {{"]
    for eq in graph.equations:
        outs = ", ".join(f"{name(v)}: {v.aval}" for v in eq.outputs)
        operands = ", ".join(name(v) for v in eq.inputs)
        params = "".join(f", {k}={_param_text(p, names, indent)}" if k != "expr" else
                         f", expr=[{_expr_text(p)}]" for k, p in eq.params.items())
        where = f"  # {eq.source}" if eq.source else ""
        lines.append(f"{indent}  {outs} = {eq.prim.name}({operands}{params}){where}")
    lines.append(f"{indent}  return {', '.join(name(v) for v in graph.outputs)}")
    lines.append(f"{indent}}}")
    return "\n".join(lines)
