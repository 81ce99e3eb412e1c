"""First AST pass: ``break``, ``continue`` and nested ``return`` become flag variables.

A tensor condition cannot jump: every path is traced. So ``break`` sets ``_sp_brkN``,
``continue`` sets ``_sp_contN`` and a ``return`` inside a compound statement stores its
value in ``_sp_ret`` and sets ``_sp_done``; the statements after one that may set a flag
run under ``if _sp.not_any(flags):`` and loops stop on their flags. Under Python conditions
these guards are plain Python ``if``s (nothing reaches the graph); under tensor conditions
the next pass turns them into ``cond``/``while_loop`` like any other ``if``.
"""
from __future__ import annotations

import ast

from .analysis import SCOPES

__all__ = ["rewrite_flags", "RET", "DONE"]

RET, DONE = "_sp_ret", "_sp_done"


def _at(node, like):
    """``node`` placed on ``like``'s first line (see transform._locate)."""
    node.lineno = node.end_lineno = like.lineno
    node.col_offset = node.end_col_offset = like.col_offset
    return node


def _name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _set(name, value, like):
    node = ast.Assign(targets=[_name(name, True)], value=value)
    return _at(node, like)


def sp(attr: str):
    return ast.Attribute(value=_name("_sp"), attr=attr, ctx=ast.Load())


def not_any(flags, like):
    call = ast.Call(func=sp("not_any"), args=[_name(f) for f in sorted(flags)], keywords=[])
    return _at(call, like)


def _has_nested_return(fn) -> bool:
    def walk(stmts, top):
        for i, s in enumerate(stmts):
            if isinstance(s, SCOPES):
                continue
            if isinstance(s, ast.Return) and not (top and i == len(stmts) - 1):
                return True
            for field in ("body", "orelse", "finalbody"):
                if walk(getattr(s, field, []) or [], False):
                    return True
            for h in getattr(s, "handlers", []) or []:
                if walk(h.body, False):
                    return True
        return False
    return walk(fn.body, True)


class _Loop:
    def __init__(self, n):
        self.brk, self.cont = f"_sp_brk{n}", f"_sp_cont{n}"
        self.has_break = self.has_cont = False


class _Rewriter:
    def __init__(self, returns: bool):
        self.returns, self.count = returns, 0

    def block(self, stmts, loop):
        """``(new statements, flags they may set)``."""
        out, found = [], set()
        for i, s in enumerate(stmts):
            new, flags = self.stmt(s, loop)
            out.extend(new)
            found |= flags
            if flags and i < len(stmts) - 1:
                rest, more = self.block(stmts[i + 1:], loop)
                found |= more
                out.append(_at(ast.If(test=not_any(flags, stmts[i + 1]),
                                                    body=rest, orelse=[]), stmts[i + 1]))
                break
        return out, found

    def stmt(self, s, loop):
        if isinstance(s, ast.Return) and self.returns:
            value = s.value or _at(ast.Constant(None), s)
            return [_set(RET, value, s), _set(DONE, ast.Constant(True), s)], {DONE}
        if isinstance(s, ast.Break) and loop is not None:
            loop.has_break = True
            return [_set(loop.brk, ast.Constant(True), s)], {loop.brk}
        if isinstance(s, ast.Continue) and loop is not None:
            loop.has_cont = True
            return [_set(loop.cont, ast.Constant(True), s)], {loop.cont}
        if isinstance(s, (ast.While, ast.For)):
            return self.loop(s)
        flags = set()
        if isinstance(s, (ast.If, ast.With, ast.Try)):
            for field in ("body", "orelse", "finalbody"):
                if getattr(s, field, None):
                    new, more = self.block(getattr(s, field), loop)
                    flags |= more
                    setattr(s, field, new or [_at(ast.Pass(), s)])
            for h in getattr(s, "handlers", []):
                new, more = self.block(h.body, loop)
                h.body = new or [_at(ast.Pass(), h)]
                flags |= more
        return [s], flags

    def loop(self, s):
        self.count += 1
        inner = _Loop(self.count)
        body, flags = self.block(s.body, inner)
        done = DONE in flags
        stop = ([inner.brk] if inner.has_break else []) + ([DONE] if done else [])
        if inner.has_cont:
            body = [_set(inner.cont, ast.Constant(False), s)] + body
        pre = [_set(inner.brk, ast.Constant(False), s)] if inner.has_break else []
        if stop and isinstance(s, ast.While):
            s.test = _at(ast.Call(func=sp("and_"), args=[
                _thunk(not_any(stop, s), s), _thunk(s.test, s)], keywords=[]), s.test)
        elif stop:
            body = [_at(ast.If(test=not_any(stop, s), body=body, orelse=[]), s)]
            s.sp_stop = stop
        s.body = body or [_at(ast.Pass(), s)]
        orelse, s.orelse = s.orelse, []
        post = []
        if orelse:
            orelse, more = self.block(orelse, None)
            done = done or DONE in more
            post = [_at(ast.If(test=not_any(stop, s), body=orelse, orelse=[]), s)
                    ] if stop else orelse
        return pre + [s] + post, ({DONE} if done else set())


def _thunk(expr, like):
    lam = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                        kw_defaults=[], kwarg=None, defaults=[]), body=expr)
    return _at(lam, like)


def rewrite_flags(fn: ast.FunctionDef) -> None:
    """Rewrite ``fn``'s body in place (see the module doc)."""
    returns = _has_nested_return(fn)
    body, _ = _Rewriter(returns).block(fn.body, None)
    if returns:
        first = fn.body[0]
        undefined = ast.Call(func=sp("undefined"), args=[ast.Constant("the return value")],
                             keywords=[])
        tail = ast.Return(value=ast.Call(func=sp("result"), args=[_name(RET)], keywords=[]))
        body = [_set(RET, undefined, first), _set(DONE, ast.Constant(False), first)] + body \
            + [_at(tail, fn.body[-1])]
    fn.body = body
