"""``ms.rewrite``: MindSpore 2.10's network rewriting -- ``SymbolTree``, ``Node``,
``NodeType``, ``ScopedValue`` -- on the Python source of a Cell's ``construct``.

``SymbolTree.create(net)`` parses ``construct`` (Python's ``ast``) into nodes: one ``Input``
per argument, one node per statement -- ``CallCell`` for ``x = self.layer(...)`` when
``self.layer`` is a Cell, ``CallPrimitive`` for a Primitive attribute, ``CallFunction`` /
``CallMethod`` for other calls, ``Python`` for any other statement (control flow included,
kept whole) -- and an ``Output`` for the ``return``. Nodes can be inserted (``Node.
create_call_cell``), erased and replaced; ``get_network()`` gives a new network: a deep copy
of ``net`` whose class is a subclass with the rewritten ``construct`` and whose new cells
are attributes. ``get_code()`` is that ``construct``'s source. The rewritten ``construct``
runs with the globals of the original's module (names captured from an enclosing function
are not available); statements inside ``if``/``for`` blocks are not split into nodes.
"""
from __future__ import annotations

import ast
import copy
import enum
import inspect
import itertools
import textwrap

from sporeling.core.errors import SporelingError

__all__ = ["SymbolTree", "Node", "NodeType", "ScopedValue", "ValueType"]


class NodeType(enum.Enum):
    """What a node is (MindSpore's names)."""
    Unknown = 0
    CallCell = 1
    CallPrimitive = 2
    CallFunction = 3
    CallMethod = 4
    Python = 5
    Input = 6
    Output = 7
    Tree = 8
    CellContainer = 9
    MathOps = 10
    ControlFlow = 11


class ValueType(enum.Enum):
    """The kind of a :class:`ScopedValue`."""
    StringValue = 0
    IntValue = 1
    FloatValue = 2
    NamingValue = 3
    CustomObjValue = 4
    BoolValue = 5
    NoneValue = 6
    TupleValue = 7
    ListValue = 8
    DictValue = 9
    UnsupportedValue = 10


_CONSTANT_TYPES = {str: ValueType.StringValue, int: ValueType.IntValue,
                   float: ValueType.FloatValue, bool: ValueType.BoolValue,
                   type(None): ValueType.NoneValue, tuple: ValueType.TupleValue,
                   list: ValueType.ListValue, dict: ValueType.DictValue}


class ScopedValue:
    """A value in the rewritten code: a name (``x``, or ``self.dense``: scope ``self``) or
    a constant."""

    def __init__(self, arg_type: ValueType, scope: str = "", value=None):
        self.type, self.scope, self.value = arg_type, scope, value

    @classmethod
    def create_naming_value(cls, value: str, scope: str = "") -> "ScopedValue":
        """A name: ``create_naming_value("dense", "self")`` is ``self.dense``."""
        if not isinstance(value, str) or not isinstance(scope, str):
            raise TypeError("ScopedValue.create_naming_value takes str value and scope")
        return cls(ValueType.NamingValue, scope, value)

    @classmethod
    def create_variable_value(cls, value) -> "ScopedValue":
        """A constant (str, int, float, bool, None, tuple, list, dict)."""
        if isinstance(value, ScopedValue):
            return value
        kind = _CONSTANT_TYPES.get(type(value), ValueType.CustomObjValue)
        return cls(kind, "", value)

    @staticmethod
    def create_name_values(names, scopes=None) -> list:
        """Names, each with its scope (``""`` by default)."""
        scopes = [""] * len(names) if scopes is None else list(scopes)
        if len(scopes) != len(names):
            raise ValueError("create_name_values: names and scopes differ in length")
        return [ScopedValue.create_naming_value(n, s) for n, s in zip(names, scopes)]

    def code(self) -> str:
        if self.type is ValueType.NamingValue:
            return f"{self.scope}.{self.value}" if self.scope else self.value
        return repr(self.value)

    __str__ = code

    def __repr__(self) -> str:
        return f"ScopedValue({self.type.name}, {self.code()})"

    def __eq__(self, other) -> bool:
        return isinstance(other, ScopedValue) and (self.type, self.scope, self.value) == \
            (other.type, other.scope, other.value)

    def __hash__(self) -> int:
        return hash((self.type, self.scope, repr(self.value)))


def _scoped(expr: ast.expr) -> ScopedValue:
    if isinstance(expr, ast.Name):
        return ScopedValue.create_naming_value(expr.id)
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return ScopedValue.create_naming_value(expr.attr, expr.value.id)
    if isinstance(expr, ast.Constant):
        return ScopedValue.create_variable_value(expr.value)
    return ScopedValue(ValueType.UnsupportedValue, "", ast.unparse(expr))


def _expr(value: ScopedValue) -> str:
    return value.value if value.type is ValueType.UnsupportedValue else value.code()


class Node:
    """One statement (or argument, or the return) of a ``construct``."""

    def __init__(self, node_type: NodeType, name: str, *, targets=(), func=None, args=(),
                 kwargs=None, instance=None, source: str | None = None):
        self._type, self._name = node_type, name
        self._targets, self._func = list(targets), func
        self._args, self._kwargs = list(args), dict(kwargs or {})
        self._instance, self._source = instance, source
        self._tree: SymbolTree | None = None

    @staticmethod
    def create_call_cell(cell, targets, args=None, kwargs=None, name: str = "",
                         is_sub_net: bool = False) -> "Node":
        """A node ``targets = self.<name>(*args, **kwargs)`` calling ``cell``; targets and
        args are ScopedValues or str names."""
        from .nn import Cell
        if not isinstance(cell, Cell):
            raise TypeError(f"Node.create_call_cell: 'cell' must be a Cell, but got "
                            f"{type(cell).__name__}.")
        as_value = lambda v: v if isinstance(v, ScopedValue) else (  # noqa: E731
            ScopedValue.create_naming_value(v) if isinstance(v, str)
            else ScopedValue.create_variable_value(v))
        name = name or type(cell).__name__.lower()
        return Node(NodeType.CallCell, name, targets=[as_value(t) for t in targets],
                    func=ScopedValue.create_naming_value(name, "self"),
                    args=[as_value(a) for a in args or ()],
                    kwargs={k: as_value(v) for k, v in (kwargs or {}).items()}, instance=cell)

    def get_name(self) -> str:
        return self._name

    def get_node_type(self) -> NodeType:
        return self._type

    def get_instance(self):
        """The Cell (or Primitive) a call node calls; None for others."""
        return self._instance

    def get_instance_type(self) -> type:
        return type(self._instance)

    def get_targets(self) -> list:
        return list(self._targets)

    def get_args(self) -> list:
        return list(self._args)

    def get_kwargs(self) -> dict:
        return dict(self._kwargs)

    def set_arg(self, index: int, arg) -> None:
        """Replace argument ``index`` (a ScopedValue or a name)."""
        self._args[index] = arg if isinstance(arg, ScopedValue) else \
            ScopedValue.create_naming_value(arg)
        self._source = None

    def set_arg_by_node(self, arg_idx: int, src_node: "Node", out_idx: int = 0) -> None:
        """Make argument ``arg_idx`` the ``out_idx``-th target of ``src_node``."""
        self.set_arg(arg_idx, src_node.get_targets()[out_idx])

    def get_inputs(self) -> list:
        """The nodes whose targets this node's arguments read (latest definition first)."""
        if self._tree is None:
            return []
        return self._tree._producers(self)

    def get_users(self) -> list:
        """The later nodes that read this node's targets."""
        if self._tree is None:
            return []
        return self._tree._users(self)

    def _reads(self) -> set:
        if self._source is not None and self._type is NodeType.Python:
            tree = ast.parse(self._source)
            return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                    and isinstance(n.ctx, ast.Load)}
        return {v.value for v in (*self._args, *self._kwargs.values())
                if v.type is ValueType.NamingValue and not v.scope}

    def _writes(self) -> set:
        return {t.value for t in self._targets if t.type is ValueType.NamingValue}

    def code(self) -> str:
        """This node's statement."""
        if self._source is not None:
            return self._source
        if self._type is NodeType.Output:
            return "return " + ", ".join(_expr(a) for a in self._args)
        call = ", ".join([*(_expr(a) for a in self._args),
                          *(f"{k}={_expr(v)}" for k, v in self._kwargs.items())])
        targets = ", ".join(t.code() for t in self._targets)
        return f"{targets} = {_expr(self._func)}({call})" if targets else \
            f"{_expr(self._func)}({call})"

    def __repr__(self) -> str:
        shown = self._name if self._type is NodeType.Input else self.code()
        return f"Node({self._type.name}, {self._name!r}: {shown})"


def _classify(call: ast.Call, network) -> tuple[NodeType, object]:
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and func.value.id == "self":
        from .nn import Cell
        from .ops.primitives.base import Primitive
        attr = getattr(network, func.attr, None)
        if isinstance(attr, Cell):
            return NodeType.CallCell, attr
        if isinstance(attr, Primitive):
            return NodeType.CallPrimitive, attr
        return NodeType.CallMethod, attr
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else None
        scope = type(network).construct.__globals__
        if owner in scope and inspect.ismodule(scope[owner]):  # ops.abs(x): a function
            return NodeType.CallFunction, getattr(scope[owner], func.attr, None)
        return NodeType.CallMethod, None
    return NodeType.CallFunction, None


class SymbolTree:
    """The nodes of a network's ``construct`` (see the module doc)."""

    def __init__(self, network, fn_def: ast.FunctionDef, nodes: list[Node]):
        self._network, self._def, self._nodes = network, fn_def, nodes
        self._new_cells: dict = {}
        self._names = itertools.count()
        for node in nodes:
            node._tree = self

    @classmethod
    def create(cls, network) -> "SymbolTree":
        """Parse ``network.construct``."""
        from .nn import Cell
        if not isinstance(network, Cell):
            raise TypeError(f"SymbolTree.create: 'network' must be a Cell, but got "
                            f"{type(network).__name__}.")
        try:
            source = textwrap.dedent(inspect.getsource(type(network).construct))
        except (OSError, TypeError) as exc:
            raise SporelingError("construct has no Python source to rewrite",
                                 op="SymbolTree.create", expected="a construct defined in a "
                                 "source file", got=type(network).__name__) from exc
        fn_def = ast.parse(source).body[0]
        nodes, seen = [], {}

        def unique(base: str) -> str:
            seen[base] = seen.get(base, -1) + 1
            return base if seen[base] == 0 else f"{base}_{seen[base]}"

        for arg in fn_def.args.args[1:]:
            nodes.append(Node(NodeType.Input, unique("input_" + arg.arg),
                              targets=[ScopedValue.create_naming_value(arg.arg)],
                              source=None))
        for stmt in fn_def.body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # a docstring
            if isinstance(stmt, ast.Return) and stmt.value is not None:
                values = stmt.value.elts if isinstance(stmt.value, ast.Tuple) else [stmt.value]
                nodes.append(Node(NodeType.Output, unique("return"),
                                  args=[_scoped(v) for v in values]))
                continue
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and \
                    len(stmt.targets) == 1:
                call, target = stmt.value, stmt.targets[0]
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                kind, instance = _classify(call, network)
                base = call.func.attr if isinstance(call.func, ast.Attribute) else \
                    getattr(call.func, "id", "call")
                if all(isinstance(n, ast.Name) for n in names) and \
                        not any(isinstance(a, ast.Starred) for a in call.args) and \
                        all(k.arg is not None for k in call.keywords):
                    nodes.append(Node(kind, unique(base), targets=[_scoped(n) for n in names],
                                      func=_scoped(call.func),
                                      args=[_scoped(a) for a in call.args],
                                      kwargs={k.arg: _scoped(k.value) for k in call.keywords},
                                      instance=instance))
                    continue
            kind = NodeType.ControlFlow if isinstance(stmt, (ast.If, ast.For, ast.While)) \
                else NodeType.Python
            written = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)
                       and isinstance(n.ctx, ast.Store)}
            nodes.append(Node(kind, unique(type(stmt).__name__.lower()),
                              targets=ScopedValue.create_name_values(sorted(written)),
                              source=ast.unparse(stmt)))
        return cls(network, fn_def, nodes)

    # ---- reading -------------------------------------------------------------------------
    def nodes(self, all_nodes: bool = False):
        """The nodes in order."""
        return iter(list(self._nodes))

    def get_node(self, node_name: str) -> Node | None:
        return next((n for n in self._nodes if n.get_name() == node_name), None)

    def _index(self, node: Node) -> int:
        for i, n in enumerate(self._nodes):
            if n is node:
                return i
        raise SporelingError("node not in this tree", op="SymbolTree", expected="a node of "
                             "this SymbolTree", got=repr(node))

    def _producers(self, node: Node) -> list:
        i, found = self._index(node), []
        for name in node._reads():
            for prev in reversed(self._nodes[:i]):
                if name in prev._writes():
                    if prev not in found:
                        found.append(prev)
                    break
        return found

    def _users(self, node: Node) -> list:
        i, written, users = self._index(node), node._writes(), []
        for later in self._nodes[i + 1:]:
            if written & later._reads():
                users.append(later)
            written -= later._writes()  # redefined: later reads see the new value
            if not written:
                break
        return users

    # ---- editing -------------------------------------------------------------------------
    def before(self, node: Node) -> tuple:
        """The position just before ``node``."""
        return ("before", node)

    def after(self, node: Node) -> tuple:
        """The position just after ``node``."""
        return ("after", node)

    def insert(self, position: tuple, node: Node) -> Node:
        """Put ``node`` at ``position`` (``before(n)`` / ``after(n)``); a new cell becomes an
        attribute of the rewritten network."""
        where, anchor = position
        i = self._index(anchor) + (where == "after")
        if node.get_node_type() is NodeType.CallCell and node.get_instance() is not None:
            name = node.get_name()
            while hasattr(self._network, name) or name in self._new_cells:
                name = f"{node.get_name()}_{next(self._names)}"
            node._name, node._func = name, ScopedValue.create_naming_value(name, "self")
            self._new_cells[name] = node.get_instance()
        node._tree = self
        self._nodes.insert(i, node)
        return node

    def erase(self, node: Node) -> Node:
        """Remove ``node`` (its users must read something else first)."""
        if node.get_node_type() in (NodeType.Input, NodeType.Output):
            raise SporelingError("inputs and the return cannot be erased",
                                 op="SymbolTree.erase", expected="a statement node",
                                 got=node.get_node_type().name)
        self._nodes.pop(self._index(node))
        self._new_cells.pop(node.get_name(), None)
        node._tree = None
        return node

    def replace(self, old_node: Node, new_nodes: list) -> Node:
        """Put ``new_nodes`` where ``old_node`` was; returns the last of them."""
        if not new_nodes:
            raise ValueError("SymbolTree.replace: new_nodes is empty")
        anchor = old_node
        for node in new_nodes:
            anchor = self.insert(self.after(anchor), node)
        self.erase(old_node)
        return anchor

    # ---- the result ----------------------------------------------------------------------
    def get_code(self) -> str:
        """The rewritten ``construct``."""
        args = ", ".join(["self", *(n.get_targets()[0].value for n in self._nodes
                                    if n.get_node_type() is NodeType.Input)])
        body = [n.code() for n in self._nodes if n.get_node_type() is not NodeType.Input]
        lines = [f"def construct({args}):"]
        for stmt in body or ["pass"]:
            lines += ["    " + line for line in stmt.splitlines()]
        return "\n".join(lines) + "\n"

    def get_network(self):
        """A new network: a deep copy of the original with the rewritten ``construct`` and
        the inserted cells."""
        cls = type(self._network)
        namespace: dict = {}
        exec(compile(self.get_code(), f"<rewritten {cls.__name__}.construct>", "exec"),  # noqa: S102
             cls.construct.__globals__, namespace)
        new_cls = type(f"{cls.__name__}Opt", (cls,), {"construct": namespace["construct"],
                                                     "__module__": cls.__module__})
        net = copy.deepcopy(self._network)
        net.__class__ = new_cls
        for name, cell in self._new_cells.items():
            setattr(net, name, cell)
        return net

    def print_node_tabulate(self, all_nodes: bool = False) -> None:
        """Print the nodes: type, name, code."""
        for node in self._nodes:
            print(f"{node.get_node_type().name:<14}{node.get_name():<20}"
                  f"{node.code() if node.get_node_type() is not NodeType.Input else ''}")
