"""``convert(fn)``: the Graph-mode version of a Python function whose ``if``/``while``/``for``
may depend on tensors (see :mod:`.transform` and :mod:`.runtime`).

The function's source is parsed, rewritten and compiled with its original file name and
line numbers, so tracebacks, errors and the IR's source lines point at the user's code. The
result shares the original's globals and closure cells. Conversions are cached per code
object, and on disk for later processes (:mod:`.disk_cache`: a second process reads no
source and rewrites nothing); a function without control flow (nor calls of user functions
that have some) and without a ``print`` call is returned unchanged, and so is anything whose
source is unavailable (builtins, lambdas).

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> from sporeling.compiler.frontend.ast_convert import _doc_example as f
    >>> g = make_graph(convert(f), np.ones(3, np.float32))
    >>> sorted(g.primitive_counts())
    ['cond', 'greater', 'sum']
    >>> make_graph(lambda x: convert(f)(x, False), np.ones(3, np.float32)).primitive_counts()
    {'neg': 1}
"""
from __future__ import annotations

import ast
import inspect
import linecache
import logging
import re
import textwrap
import threading
import types
import weakref

from . import runtime
from .analysis import calls_print, has_control_flow
from .disk_cache import DiskEntry, code_from, module_from, rewrite_record, with_code
from .flags import rewrite_flags
from .transform import Converter

__all__ = ["convert", "is_converted"]

log = logging.getLogger("sporeling.compiler.frontend")

_NOT_GENERAL = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
_CODE_CACHE: dict = {}  # (code, owner class) -> converted code object, or None
_SUMMARIES: dict = {}  # code -> _Summary, or None (no source)
_FN_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_LOCK = threading.RLock()  # conversions, one at a time (see _convert)
_SP_CELL = types.CellType(runtime)
_CONVERTED = "_sp_converted"  # the converted function's name in the rewritten module
_SKIP = ("sporeling.", "numpy", "ml_dtypes", "builtins", "functools", "typing", "abc",
         "collections", "inspect", "importlib", "_pytest", "pytest")


def is_converted(fn) -> bool:
    return getattr(getattr(fn, "__func__", fn), "__sporeling_converted__", False)


def is_user_function(fn) -> bool:
    """Whether on-demand conversion applies to ``fn`` (not library code)."""
    fn = getattr(fn, "__func__", fn)
    module = getattr(fn, "__module__", None) or ""
    return isinstance(fn, types.FunctionType) and fn.__name__ != "<lambda>" and \
        not (module + ".").startswith(tuple(s if s.endswith(".") else s + "." for s in _SKIP))


def convert(fn):
    """``fn`` with tensor-dependent control flow rewritten (functions and bound methods)."""
    if isinstance(fn, types.MethodType):
        inner = _convert(fn.__func__, type(fn.__self__))
        return fn if inner is fn.__func__ else types.MethodType(inner, fn.__self__)
    return _convert(fn, None)


def _convert(fn, owner):
    if not isinstance(fn, types.FunctionType) or getattr(fn, "__sporeling_converted__", False):
        return fn
    hit = _FN_CACHE.get(fn)
    if hit is not None and hit[0] is owner:
        return hit[1]
    # one conversion at a time: CPython 3.11's ast.parse/compile of AST objects is not
    # thread-safe ("AST constructor recursion depth mismatch" when two ranks' threads of a
    # local parallel run converted at once)
    with _LOCK:
        code = _converted_code(fn, owner)
    out = fn if code is None else _instantiate(code, fn)
    _FN_CACHE[fn] = (owner, out)
    return out


def _source(code: types.CodeType) -> str:
    """The source of ``code``: the block at its first line in its file's lines -- what
    ``inspect.getsource(code)`` finds, without its search of ``sys.modules`` for the file's
    module (30 of the 108 ms a LeNet step's conversion took); ``inspect`` where the lines
    are not at hand."""
    linecache.checkcache(code.co_filename)  # a file edited since: read anew, as inspect does
    lines = linecache.getlines(code.co_filename)
    at = code.co_firstlineno - 1
    if 0 <= at < len(lines) and _DEFINITION.match(lines[at]):
        return "".join(inspect.getblock(lines[at:]))
    return inspect.getsource(code)


_DEFINITION = re.compile(r"\s*(@|def\s|async\s+def\s)")


def _parse(fn) -> ast.FunctionDef | None:
    code = fn.__code__
    try:
        # the code's own source: inspect.getsource(fn) would follow __wrapped__ (a
        # functools.wraps wrapper, such as grad's, would be read as the function it wraps)
        source = textwrap.dedent(_source(code))
        module = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    node = module.body[0] if module.body else None
    if not isinstance(node, ast.FunctionDef) or node.name != code.co_name:
        return None
    ast.increment_lineno(module, code.co_firstlineno - 1)
    return node


class _Summary:
    """What conversion needs to know of a function: whether it has control flow of its own,
    the calls that may reach some (``("name", f)`` or ``("self", m)``), its tree while not
    yet rewritten, its rewrite once made, and its disk entry (:mod:`.disk_cache`)."""
    __slots__ = ("own", "calls", "node", "rewrite", "disk", "dirty")

    def __init__(self, own, calls, node, rewrite, disk, dirty):
        self.own, self.calls, self.node = own, calls, node
        self.rewrite, self.disk, self.dirty = rewrite, disk, dirty

    def save(self) -> None:
        if self.dirty:
            self.disk.save(self.own, self.calls, self.rewrite)
            self.dirty = False


def _calls(node: ast.FunctionDef) -> tuple:
    """The calls of user functions ``node`` may make: of a name, or of a method of its
    first parameter (``self.m``), in order, once each."""
    first = node.args.args[0].arg if node.args.args else None
    calls = {}
    for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
        if isinstance(call.func, ast.Name):
            calls["name", call.func.id] = None
        elif isinstance(call.func, ast.Attribute) and \
                isinstance(call.func.value, ast.Name) and call.func.value.id == first:
            calls["self", call.func.attr] = None
    return tuple(calls)


def _summary(fn) -> _Summary | None:
    """``fn``'s summary: from memory, from its disk entry, else from its source (None
    when it has none)."""
    code = fn.__code__
    if code in _SUMMARIES:
        return _SUMMARIES[code]
    summary = None
    # (by the code's name: a functools.wraps wrapper of a lambda is named "<lambda>" too)
    if code.co_name != "<lambda>" and not code.co_flags & _NOT_GENERAL:
        disk = DiskEntry(fn)
        record = disk.load()
        if record is not None:
            summary = _Summary(record["own"], tuple(map(tuple, record["calls"])), None,
                               record["rewrite"], disk, dirty=False)
        else:
            node = _parse(fn)
            if node is not None:
                own = has_control_flow(node) or calls_print(node)
                # the tree is kept for the rewrite only where one is certain
                summary = _Summary(own, _calls(node), node if own else None, None, disk,
                                   dirty=disk.enabled)
    _SUMMARIES[code] = summary
    return summary


def _converted_code(fn, owner):
    key = (fn.__code__, owner)
    if key in _CODE_CACHE:
        return _CODE_CACHE[key]
    summary = _summary(fn)
    needed = summary is not None and _needs(fn, summary, owner, set())
    code = _compile(fn, summary) if needed else None
    if summary is not None:
        summary.save()
    # "nothing to convert" may depend on the closure (grad's wrapper calls whatever it
    # wraps): then it holds for this function object only, not for every one of its code
    if code is not None or not fn.__closure__:
        _CODE_CACHE[key] = code
    return code


def _needs(fn, summary: _Summary, owner, seen) -> bool:
    """Control flow in ``fn`` or in a user function it calls by name or as ``self.m``."""
    if fn.__code__ in seen:
        return False
    seen.add(fn.__code__)
    if summary.own:
        return True
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    for kind, name in summary.calls:
        target = None
        if kind == "name":
            cell = cells.get(name)
            try:
                target = cell.cell_contents if cell is not None else fn.__globals__.get(name)
            except ValueError:  # an empty cell
                target = None
        elif owner is not None:
            target = inspect.getattr_static(owner, name, None)
        if is_user_function(target):
            sub = _summary(target)
            if sub is not None and _needs(target, sub, owner, seen):
                return True
    return False


class _Mangle(ast.NodeTransformer):
    """Private names (``self.__x``) as the class body would have mangled them."""

    def __init__(self, cls: str):
        self.prefix = "_" + cls.lstrip("_")

    def _m(self, name: str) -> str:
        private = name.startswith("__") and not name.endswith("__")
        return self.prefix + name if private else name

    def visit_Attribute(self, node):
        self.generic_visit(node)
        node.attr = self._m(node.attr)
        return node

    def visit_Name(self, node):
        node.id = self._m(node.id)
        return node


def _compile(fn, summary: _Summary):
    """The code of ``fn`` converted, from its rewrite when made before (in this process or,
    through its disk entry, in another), else from its source."""
    if summary.rewrite is not None:
        try:
            code = code_from(summary.rewrite)
            if code is None:  # an entry written before compiled code was kept
                code = _compiled(module_from(summary.rewrite), fn, summary)
            return _converted(code, fn)
        except (SyntaxError, ValueError, TypeError, KeyError, StopIteration) as error:
            log.info("stored rewrite of %s unusable (%s): converting again",
                     fn.__qualname__, error)
    node = summary.node if summary.node is not None else _parse(fn)
    summary.node = None  # the rewrite changes the tree: it is used once
    if node is None:  # its source went away since it was summarised
        return None
    module = _rewrite(fn, node)
    summary.rewrite = rewrite_record(module) if summary.disk.enabled else None
    return _converted(_compiled(module, fn, summary), fn)


def _compiled(module: ast.Module, fn, summary: _Summary):
    """``_rewrite``'s module compiled, kept with the rewrite for the disk entry."""
    code = compile(module, fn.__code__.co_filename, "exec")
    if summary.rewrite is not None:
        summary.rewrite = with_code(summary.rewrite, code)
        summary.dirty = summary.disk.enabled
    return code


def _rewrite(fn, node: ast.FunctionDef) -> ast.Module:
    """The module defining ``_sp_factory(*freevars, _sp)``, which returns ``fn`` converted."""
    node.decorator_list = []
    parts = fn.__qualname__.split(".")
    if len(parts) > 1 and parts[-2] != "<locals>":
        _Mangle(parts[-2]).visit(node)
    filename = fn.__code__.co_filename
    node.name = _CONVERTED  # not fn's name: that is bound outside (recursion)
    users = not (fn.__module__ or "").startswith("sporeling.")  # not Sporeling's own code
    rewrite_flags(node, lambda n: f"{filename}:{n.lineno} in {fn.__qualname__}", checks=users)
    Converter(node, filename, fn.__qualname__, guards=users).run()
    params = [ast.arg(arg=n) for n in fn.__code__.co_freevars] + [ast.arg(arg="_sp")]
    factory = ast.FunctionDef(
        name="_sp_factory", args=ast.arguments(posonlyargs=[], args=params, vararg=None,
                                               kwonlyargs=[], kw_defaults=[], kwarg=None,
                                               defaults=[]),
        body=[node, ast.Return(value=ast.Name(id=node.name, ctx=ast.Load()))],
        decorator_list=[], returns=None)
    module = ast.Module(body=[ast.copy_location(factory, node)], type_ignores=[])
    return ast.fix_missing_locations(module)


def _converted(code, fn):
    """The converted function's code, out of ``_rewrite``'s module compiled."""
    outer = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    code = next(c for c in outer.co_consts
                if isinstance(c, types.CodeType) and c.co_name == _CONVERTED)
    return _renamed(code, f"{outer.co_name}.<locals>.{_CONVERTED}", fn.__qualname__,
                    fn.__name__)


def _renamed(code, old: str, new: str, name: str | None = None):
    """``code`` and the functions nested in it qualified under ``new`` instead of ``old``
    (tracebacks and error locations name ``Net.construct``, not the factory)."""
    consts = tuple(_renamed(c, old, new) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    qualname = new + code.co_qualname[len(old):] if code.co_qualname.startswith(old) \
        else code.co_qualname
    return code.replace(co_consts=consts, co_qualname=qualname,
                        co_name=name or code.co_name)


def _instantiate(code, fn):
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = tuple(_SP_CELL if n == "_sp" else cells[n] for n in code.co_freevars)
    new = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__dict__.update(fn.__dict__)
    new.__qualname__, new.__module__, new.__doc__ = fn.__qualname__, fn.__module__, fn.__doc__
    new.__annotations__ = dict(getattr(fn, "__annotations__", {}) or {})
    new.__wrapped__ = fn
    new.__sporeling_converted__ = True
    return new


def _doc_example(x, flag=True):
    """For the module doc: a tensor ``if`` and a Python one."""
    from sporeling.compiler import ops
    if flag:
        if ops.greater(ops.sum(x), 0.0):
            x = ops.mul(x, 2.0)
        return x
    return ops.neg(x)
