"""Name analysis of Python ASTs for the control-flow conversion: which names a block
assigns, which it reads, and which it reads before assigning them (loop-carried)."""
from __future__ import annotations

import ast
from collections import Counter

__all__ = ["stores", "loads", "exposed", "declared", "has_control_flow", "calls_print",
           "SCOPES"]

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _walk_scope(nodes):
    """Nodes of ``nodes`` without descending into nested functions, classes, comprehensions
    (whose names are their own); the nested definitions themselves are yielded."""
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, SCOPES):
            if not isinstance(node, ast.Lambda):
                stack.extend(node.decorator_list)
            continue
        if isinstance(node, _COMPREHENSIONS):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def stores(nodes) -> set[str]:
    """Names bound by ``nodes`` in the current scope."""
    out: set[str] = set()
    for node in _walk_scope(list(nodes)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def loads(nodes) -> Counter:
    """How often each name is read in ``nodes`` (nested scopes included: conservative)."""
    out: Counter = Counter()
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                out[node.id] += 1
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                out[node.target.id] += 1
    return out


def exposed(stmts, defined: set | None = None) -> set[str]:
    """Names ``stmts`` may read before assigning them (reads of the previous iteration's
    values when ``stmts`` is a loop body)."""
    defined = set() if defined is None else set(defined)
    found: set[str] = set()
    _exposed_block(stmts, defined, found)
    return found


def _exposed_block(stmts, defined: set, found: set) -> None:
    for stmt in stmts:
        _exposed_stmt(stmt, defined, found)


def _reads(nodes, defined, found):
    found.update(n for n in loads(nodes) if n not in defined)


def _exposed_stmt(stmt, defined: set, found: set) -> None:
    if isinstance(stmt, ast.If):
        _reads([stmt.test], defined, found)
        a, b = set(defined), set(defined)
        _exposed_block(stmt.body, a, found)
        _exposed_block(stmt.orelse, b, found)
        defined |= a & b
    elif isinstance(stmt, (ast.While, ast.For, ast.AsyncFor)):
        _reads([stmt.test] if isinstance(stmt, ast.While) else [stmt.iter], defined, found)
        inner = set(defined)
        if not isinstance(stmt, ast.While):
            inner |= stores([stmt.target])
        _exposed_block(stmt.body, inner, found)
        _exposed_block(stmt.orelse, set(defined), found)
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        _reads([i.context_expr for i in stmt.items], defined, found)
        defined |= stores([i.optional_vars for i in stmt.items if i.optional_vars])
        _exposed_block(stmt.body, defined, found)
    elif isinstance(stmt, ast.Try):
        _exposed_block(stmt.body, set(defined), found)
        for h in stmt.handlers:
            _exposed_block(h.body, set(defined), found)
        _exposed_block(stmt.orelse + stmt.finalbody, set(defined), found)
    else:
        _reads([stmt], defined, found)
        defined |= stores([stmt])


def declared(fn: ast.AST) -> set[str]:
    """Names a function declares ``global`` or ``nonlocal``."""
    out: set[str] = set()
    for node in _walk_scope(fn.body):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
    return out


def has_control_flow(fn: ast.AST) -> bool:
    """Whether the function's own body has ``if``/``while``/``for``, a conditional
    expression or an ``assert`` (the constructs a tensor condition breaks)."""
    return any(isinstance(n, (ast.If, ast.While, ast.For, ast.IfExp, ast.Assert))
               for n in _walk_scope(fn.body))


def calls_print(fn: ast.AST) -> bool:
    """Whether the function's own body calls ``print`` (by that name): converted, the call
    prints traced values when the graph runs (``runtime.print_``)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and
               n.func.id == "print" for n in _walk_scope(fn.body))
