"""Second AST pass: ``if``/``while``/``for`` become calls of the runtime helpers.

Each statement's *state* -- the variables it assigns that are read elsewhere (after it, in
a later iteration, or before their assignment inside it) -- is passed in and returned by
generated functions, so the helpers can run them as Python or trace them into sub-graphs::

    if x.sum() > 0:                 def _sp_true1(y): y = x * 2; return (y,)
        y = x * 2           -->     def _sp_false1(y): y = -x; return (y,)
    else:                           (y,) = _sp.if_stmt(x.sum() > 0, _sp_true1, _sp_false1,
        y = -x                                         (_sp.ld(lambda: y, 'y'),), ('y',))

``and``/``or``/``not``/``a if c else b`` become helpers too, and calls go through
``_sp.call`` (which converts user functions on demand); ``print(...)`` becomes
``_sp.print_(print, ...)``, which prints traced values when the graph runs. Statements
whose conversion would change Python semantics (``yield``, ``del``, writes to
``global``/``nonlocal`` names, an ``if`` inside ``try``) stay Python, with a condition that
must not be traced. Statements whose effect would escape a traced body (``print``, writes to
attributes and items) are preceded by ``_sp.python_only(construct, where)`` (see
:mod:`.checks`).
"""
from __future__ import annotations

import ast
import builtins

from .analysis import SCOPES, declared, exposed, loads, stores
from .flags import ERR, RET, sp

__all__ = ["Converter"]

_BUILTINS = frozenset(dir(builtins))


def _name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _args(names):
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


def _tuple(names, store=False):
    return ast.Tuple(elts=[_name(n, store) for n in names],
                     ctx=ast.Store() if store else ast.Load())


def _const_tuple(values):
    return ast.Tuple(elts=[ast.Constant(v) for v in values], ctx=ast.Load())


def _locate(node, like):
    """Give generated nodes ``like``'s first line (one line: CPython places a call of a
    multi-line attribute on its last line)."""
    for n in ast.walk(node):
        if "lineno" in n._attributes and not hasattr(n, "lineno"):
            n.lineno = n.end_lineno = like.lineno
            n.col_offset = n.end_col_offset = like.col_offset
    return node


class _Exprs(ast.NodeTransformer):
    """``and``/``or``/``not``/conditional expressions and calls inside an expression."""

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        helper = "and_" if isinstance(node.op, ast.And) else "or_"
        thunks = [ast.Lambda(args=_args([]), body=v) for v in node.values]
        return _locate(ast.Call(func=sp(helper), args=thunks, keywords=[]), node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return _locate(ast.Call(func=sp("not_"), args=[node.operand], keywords=[]), node)
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        args = [node.test, ast.Lambda(args=_args([]), body=node.body),
                ast.Lambda(args=_args([]), body=node.orelse)]
        return _locate(ast.Call(func=sp("ifexp"), args=args, keywords=[]), node)

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id == "print":  # (whatever `print` is then)
            node.args = [func] + node.args
            node.func = _locate(sp("print_"), node)
            return node
        if isinstance(func, ast.Name) and func.id in _BUILTINS:
            return node
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                func.value.id == "_sp":
            return node
        node.args = [func] + node.args
        node.func = _locate(sp("call"), node)
        return node

    def visit_Lambda(self, node):
        return node  # a lambda's body runs later, in its caller's hands

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda


def _root(node) -> str | None:
    """The name an attribute/item chain starts from (``a`` of ``a.b[0].c``), or None."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _escaping_effect(s, local: set) -> str | None:
    """What in the simple statement ``s`` acts outside the function's own objects (and so
    must not run while a tensor-dependent body is traced), or None. Writing into an object
    bound to a name of ``local`` (made by this function) is the function's business: a
    traced value stored there and used after the body is caught as an escaped tracer."""
    if isinstance(s, SCOPES + (ast.If, ast.While, ast.For, ast.With, ast.AsyncWith,
                               ast.Try)):
        return None  # their bodies are checked statement by statement
    targets = s.targets if isinstance(s, ast.Assign) else \
        [s.target] if isinstance(s, (ast.AugAssign, ast.AnnAssign)) else []
    for target in targets:
        for node in ast.walk(target):
            if not isinstance(node, (ast.Attribute, ast.Subscript)) or \
                    not isinstance(node.ctx, ast.Store) or _root(node) in local:
                continue
            kind = "an attribute" if isinstance(node, ast.Attribute) else "an item"
            return f"assigning to {kind} (`{ast.unparse(node)}`)"
    stack = [s]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "print":
            return "`print`"
        if not isinstance(node, SCOPES):
            stack.extend(ast.iter_child_nodes(node))
    return None


class Converter:
    """Converts one function's body (after :func:`~.flags.rewrite_flags`)."""

    def __init__(self, fn: ast.FunctionDef, filename: str, qualname: str | None = None,
                 guards: bool = True):
        self.fn, self.filename, self.count = fn, filename, 0
        self.qualname, self.guards = qualname, guards
        self.all_loads = loads(fn.body)
        self.declared = declared(fn)
        self.local = stores(fn.body) - self.declared  # objects this function makes
        self.exprs = _Exprs()

    def where(self, node) -> str:
        suffix = f" in {self.qualname}" if self.qualname else ""
        return f"{self.filename}:{node.lineno}{suffix}"

    def run(self) -> None:
        self.fn.body = self.block(self.fn.body, None)

    def block(self, stmts, in_try):
        out = []
        for s in stmts:
            construct = _escaping_effect(s, self.local) if self.guards else None
            if construct is not None:
                out.append(_locate(ast.Expr(value=ast.Call(func=sp("python_only"), args=[
                    ast.Constant(construct), ast.Constant(self.where(s))], keywords=[])), s))
            out.extend(self.stmt(s, in_try))
        return out

    def stmt(self, s, in_try):
        if isinstance(s, SCOPES):
            return [s]
        if isinstance(s, (ast.If, ast.While, ast.For)):
            return self.control(s, in_try)
        if isinstance(s, (ast.With, ast.AsyncWith)):
            s.items = [self.exprs.visit(i) for i in s.items]
            s.body = self.block(s.body, in_try)
            return [s]
        if isinstance(s, ast.Try):
            s.body = self.block(s.body, s)
            for h in s.handlers:
                h.body = self.block(h.body, s)
            s.orelse = self.block(s.orelse, s)
            s.finalbody = self.block(s.finalbody, s)
            return [s]
        return [self.exprs.visit(s)]

    def unsupported(self, s, in_try):
        """``(construct, file:line)`` that keeps ``s`` Python, or None."""
        if in_try is not None:
            return "a tensor-dependent statement inside `try`", self.where(in_try)
        for node in ast.walk(s):
            if isinstance(node, SCOPES):
                continue
            if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)):
                return f"`{type(node).__name__.lower()}`", self.where(node)
            if isinstance(node, ast.Delete):
                return "`del`", self.where(node)
        for name in sorted(stores([s]) & self.declared):
            return f"assigning the global/nonlocal name `{name}`", self.where(s)
        return None

    def state(self, s, inner_exposed: set, extra=()) -> list[str]:
        outside = self.all_loads - loads([s])
        assigned = (stores(s.body + s.orelse) | set(extra)) - self.declared
        return sorted(n for n in assigned if outside[n] > 0 or n in inner_exposed)

    def control(self, s, in_try):
        bad = self.unsupported(s, in_try)
        if bad is not None:  # stays Python; only a Python condition is allowed
            if isinstance(s, ast.For):
                s.iter = self.exprs.visit(s.iter)
            else:
                s.test = _locate(ast.Call(func=sp("python_test"), args=[
                    self.exprs.visit(s.test), ast.Constant(bad[0]), ast.Constant(bad[1])],
                    keywords=[]), s.test)
            s.body = self.block(s.body, in_try)
            s.orelse = self.block(s.orelse, in_try)
            return [s]
        self.count += 1
        k = self.count
        if isinstance(s, ast.If):
            names = self.state(s, exposed(s.body) | exposed(s.orelse))
            t = self.function(f"_sp_true{k}", names, self.block(s.body, in_try), names, s)
            f = self.function(f"_sp_false{k}", names, self.block(s.orelse, in_try), names, s)
            # a branch that may raise leaves variables undefined: zeros stand in (the check
            # raises before anything reads them)
            raising = names if ERR in stores(s.body + s.orelse) else ()
            call = self.helper("if_stmt", [self.exprs.visit(s.test), _name(t.name),
                                           _name(f.name)], names, s, zero_ok=raising)
            return [t, f, self.assign(names, call, s)]
        if isinstance(s, ast.While):
            test_stmt = ast.Expr(value=s.test)
            names = self.state(s, exposed([test_stmt] + s.body))
            test = self.function(f"_sp_test{k}", names, [], None, s,
                                 ret=self.exprs.visit(s.test))
            body = self.function(f"_sp_body{k}", names, self.block(s.body, in_try), names, s)
            call = self.helper("while_stmt", [_name(test.name), _name(body.name)], names, s)
            return [test, body, self.assign(names, call, s)]
        targets = stores([s.target])
        stop = getattr(s, "sp_stop", [])
        names = self.state(s, exposed(s.body, targets) | set(stop), extra=stop)
        bind = ast.Assign(targets=[s.target], value=_name("_sp_item"))
        body = self.function(f"_sp_body{k}", names + ["_sp_item"],
                             [_locate(bind, s)] + self.block(s.body, in_try), names, s)
        it = s.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
            it = _locate(ast.Call(func=sp("range_"), args=it.args, keywords=it.keywords), it)
        keywords = []
        if stop:
            lam = ast.Lambda(args=_args(names), body=ast.Call(
                func=sp("not_any"), args=[_name(f) for f in stop], keywords=[]))
            keywords.append(ast.keyword(arg="stop", value=lam))
        call = self.helper("for_stmt", [self.exprs.visit(it), _name(body.name)], names, s,
                           zero_ok=sorted(targets & set(names)), keywords=keywords)
        return [body, self.assign(names, call, s)]

    def function(self, fname, params, body, returns, like, ret=None):
        if returns is not None:
            body = body + [ast.Return(value=_tuple(returns))]
        else:
            body = body + [ast.Return(value=ret)]
        fn = ast.FunctionDef(name=fname, args=_args(params), body=body or [ast.Pass()],
                             decorator_list=[], returns=None)
        globs = sorted(stores(body) & self.declared)
        if globs:  # only reached for names kept Python (see unsupported)
            fn.body.insert(0, ast.Global(names=globs))
        return _locate(fn, like)

    def helper(self, name, args, names, like, zero_ok=(), keywords=()):
        state = ast.Tuple(elts=[ast.Call(func=sp("ld"), args=[
            ast.Lambda(args=_args([]), body=_name(n)), ast.Constant(n)], keywords=[])
            for n in names], ctx=ast.Load())
        zero = sorted(set(zero_ok) | ({RET} & set(names)))
        call = ast.Call(func=sp(name), args=args + [state, _const_tuple(names),
                                                    _const_tuple(zero)],
                        keywords=list(keywords))
        return _locate(call, like)

    def assign(self, names, call, like):
        if not names:
            return _locate(ast.Expr(value=call), like)
        return _locate(ast.Assign(targets=[_tuple(names, store=True)], value=call), like)
