"""First AST pass: ``break``, ``continue`` and nested ``return`` become flag variables.

A tensor condition cannot jump: every path is traced. So ``break`` sets ``_sp_brkN``,
``continue`` sets ``_sp_contN`` and a ``return`` inside a compound statement stores its
value in ``_sp_ret`` and sets ``_sp_done``; the statements after one that may set a flag
run under ``if _sp.not_any(flags):`` and loops stop on their flags. Under Python conditions
these guards are plain Python ``if``s (nothing reaches the graph); under tensor conditions
the next pass turns them into ``cond``/``while_loop`` like any other ``if``.

``raise`` inside a compound statement (not in ``try``/``with``, whose handlers may catch it)
works like a ``return``: it sets ``_sp_err`` to its site's code through ``_sp.raise_``
(which raises at once unless a tensor-dependent body is being traced) and ``_sp_done``; the
function returns ``_sp.checked(_sp_err, ...)``, a run-time check (see :mod:`.checks`).
``assert c, m`` is first rewritten to ``if not c: raise AssertionError(m)``. A ``raise``
inside ``try``/``with`` stays a Python raise, marked with its line: if it leaves a traced
body uncaught, that body refuses it.
"""
from __future__ import annotations

import ast
import sys

from .analysis import SCOPES

__all__ = ["rewrite_flags", "RET", "DONE", "ERR", "ERRORS"]

RET, DONE = "_sp_ret", "_sp_done"
ERR, ERRORS = "_sp_err", "_sp_errors"
_PROTECTED = (ast.Try, ast.With, ast.AsyncWith)


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


def _has_nested_return(fn, checks: bool = True) -> bool:
    """A ``return`` before the end, or (``checks``) a ``raise``/``assert`` that may run
    conditionally."""
    def walk(stmts, top, protected=False):
        for i, s in enumerate(stmts):
            if isinstance(s, SCOPES):
                continue
            if isinstance(s, ast.Return) and not (top and i == len(stmts) - 1):
                return True
            conditional_raise = isinstance(s, ast.Raise) and s.exc is not None and not top
            if checks and not protected and (isinstance(s, ast.Assert) or conditional_raise):
                return True
            inner = protected or isinstance(s, _PROTECTED)
            for field in ("body", "orelse", "finalbody"):
                if walk(getattr(s, field, []) or [], False, inner):
                    return True
            for h in getattr(s, "handlers", []) or []:
                if walk(h.body, False, inner):
                    return True
        return False
    return walk(fn.body, True)


class _Loop:
    def __init__(self, n):
        self.brk, self.cont = f"_sp_brk{n}", f"_sp_cont{n}"
        self.has_break = self.has_cont = False


class _Rewriter:
    def __init__(self, returns: bool, where, checks: bool = True):
        self.returns, self.count, self.where, self.checks = returns, 0, where, checks
        self.raises = 0      # raise sites turned into error codes
        self.depth = 0       # compound statements around the current one
        self.protected = 0   # of which try/with (their handlers may catch a raise)

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
        if self.checks:  # (library code keeps its raises: they check Python arguments)
            if isinstance(s, ast.Assert) and sys.flags.optimize:
                return [_at(ast.Pass(), s)], set()  # python -O drops asserts
            if isinstance(s, ast.Assert) and self.returns and not self.protected:
                s = _assert_as_if(s)
            if isinstance(s, ast.Raise) and s.exc is not None:
                done = self.raise_(s)
                if done is not None:
                    return done
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
            guarded = not isinstance(s, ast.If)
            self.depth += 1
            self.protected += guarded
            try:
                flags = self.bodies(s, loop)
            finally:
                self.depth -= 1
                self.protected -= guarded
        return [s], flags

    def raise_(self, s):
        """A user's ``raise`` in a compound statement: ``_sp_err = _sp.raise_(code, lambda:
        exc, where, _sp_errors, source)`` and ``_sp_done``. Inside ``try``/``with`` (a
        handler may catch it): a Python raise of ``_sp.marked(exc, where)``. At the top of
        the function (unconditional): None, it stays as it is."""
        if self.protected:
            s.exc = _at(ast.Call(func=sp("marked"), args=[s.exc, ast.Constant(self.where(s))],
                                 keywords=[]), s)
            return [s], set()
        if not (self.returns and self.depth):
            return None
        self.raises += 1
        cause = [] if s.cause is None else [ast.keyword(arg="cause", value=_thunk(s.cause, s))]
        call = _at(ast.Call(func=sp("raise_"), args=[
            ast.Constant(self.raises), _thunk(s.exc, s), ast.Constant(self.where(s)),
            _name(ERRORS), ast.Constant(ast.unparse(s.exc))], keywords=cause), s)
        return [_set(ERR, call, s), _set(DONE, ast.Constant(True), s)], {DONE}

    def bodies(self, s, loop):
        flags = set()
        for field in ("body", "orelse", "finalbody"):
            if getattr(s, field, None):
                new, more = self.block(getattr(s, field), loop)
                flags |= more
                setattr(s, field, new or [_at(ast.Pass(), s)])
        for h in getattr(s, "handlers", []):
            new, more = self.block(h.body, loop)
            h.body = new or [_at(ast.Pass(), h)]
            flags |= more
        return flags

    def loop(self, s):
        self.count += 1
        inner = _Loop(self.count)
        self.depth += 1
        try:
            body, flags = self.block(s.body, inner)
        finally:
            self.depth -= 1
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
            self.depth += 1
            try:
                orelse, more = self.block(orelse, None)
            finally:
                self.depth -= 1
            done = done or DONE in more
            post = [_at(ast.If(test=not_any(stop, s), body=orelse, orelse=[]), s)
                    ] if stop else orelse
        return pre + [s] + post, ({DONE} if done else set())


def _thunk(expr, like):
    lam = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                        kw_defaults=[], kwarg=None, defaults=[]), body=expr)
    return _at(lam, like)


def _assert_as_if(s: ast.Assert) -> ast.If:
    """``assert test, msg`` as ``if not test: raise AssertionError(msg)``."""
    exc = ast.Call(func=_name("AssertionError"), args=[s.msg] if s.msg else [], keywords=[])
    test = ast.UnaryOp(op=ast.Not(), operand=s.test)
    node = ast.If(test=test, body=[ast.Raise(exc=exc, cause=None)], orelse=[])
    ast.copy_location(node, s)
    for n in ast.walk(node):  # the generated nodes on the assert's line
        if "lineno" in n._attributes and not hasattr(n, "lineno"):
            _at(n, s)
    return node


def rewrite_flags(fn: ast.FunctionDef, where=lambda node: f"line {node.lineno}",
                  checks: bool = True) -> None:
    """Rewrite ``fn``'s body in place (see the module doc); ``where(node)`` is the
    ``file:line`` a raise site reports; ``checks=False`` leaves ``raise``/``assert`` as
    they are (Sporeling's own code, whose raises check Python arguments)."""
    returns = _has_nested_return(fn, checks)
    rewriter = _Rewriter(returns, where, checks)
    body, _ = rewriter.block(fn.body, None)
    if returns:
        first = fn.body[0]
        undefined = ast.Call(func=sp("undefined"), args=[ast.Constant("the return value")],
                             keywords=[])
        value = ast.Call(func=sp("result"), args=[_name(RET)], keywords=[])
        head = [_set(RET, undefined, first), _set(DONE, ast.Constant(False), first)]
        if rewriter.raises:  # the result goes through the run-time check of the raises
            value = ast.Call(func=sp("checked"), args=[_name(ERR), _name(ERRORS), value],
                             keywords=[])
            head += [_set(ERR, ast.Constant(0), first),
                     _set(ERRORS, ast.Dict(keys=[], values=[]), first)]
        body = head + body + [_at(ast.Return(value=value), fn.body[-1])]
    fn.body = body
