"""A graph <-> plain JSON data plus named arrays: the SIR's graph section.

Vars are numbered in order of definition (one numbering for the graph and its
sub-graphs). An operand is ``{"v": n}`` (a Var), ``{"c": "c3"}`` (an array in the
constants file) or ``{"s": value, "dtype": "float32"}`` (a 0-d constant inline).
Parameters are JSON with tagged objects for what JSON lacks (tuples, dtypes, sub-graphs,
slices, non-finite floats, arrays, builtin exceptions); anything else is refused when
writing, and an unknown tag or primitive is refused when reading -- nothing is ever
imported or called by name except the registered primitives.
"""
from __future__ import annotations

import builtins
import math
import re

import numpy as np

from ..core import Aval
from ..core.primitive import primitives
from ..ir import Const, Equation, Graph, Var
from .errors import SIRError
from .sir_schema import Fields, accepted_params, show

__all__ = ["encode_graph", "decode_graph", "portable_source"]


def _dtype_name(dtype) -> str:
    return np.dtype(dtype).name


def portable_source(source: str | None) -> str | None:
    """``file:line`` without the file's folders (POSIX or Windows): the exporter's paths
    stay on its machine, the base name and line still point into the model's code."""
    return None if source is None else re.split(r"[\\/]", source)[-1]


class _Encoder:
    def __init__(self):
        self.ids: dict[Var, int] = {}
        self.consts: dict[str, np.ndarray] = {}

    def define(self, v: Var) -> dict:
        self.ids[v] = len(self.ids)
        return {"id": self.ids[v], "shape": list(v.aval.shape),
                "dtype": _dtype_name(v.aval.dtype)}

    def operand(self, v, where: str) -> dict:
        if isinstance(v, Const):
            if v.value.ndim == 0:
                return {"s": self.scalar(v.value.item(), where), "dtype": _dtype_name(v.value.dtype)}
            return {"c": self.array(v.value)}
        if v not in self.ids:
            raise SIRError("an operand is used before it is defined", op=where,
                           expected="Vars defined by inputs or earlier equations", got=repr(v))
        return {"v": self.ids[v]}

    def array(self, value) -> str:
        name = f"c{len(self.consts)}"
        self.consts[name] = np.ascontiguousarray(value)
        return name

    def scalar(self, x, where: str):
        if isinstance(x, float) and not math.isfinite(x):
            return {"$float": repr(x)}
        if isinstance(x, complex):
            raise SIRError("complex constants are not supported", op=where, got=repr(x))
        return x

    def graph(self, g: Graph) -> dict:
        out = {"name": g.name, "inputs": [self.define(v) for v in g.inputs], "equations": []}
        for eq in g.equations:
            where = f"{eq.prim.name} ({eq.source})" if eq.source else eq.prim.name
            ins = [self.operand(v, where) for v in eq.inputs]
            params = {k: self.param(p, f"{where}, parameter {k!r}") for k, p in eq.params.items()}
            out["equations"].append({"prim": eq.prim.name, "inputs": ins, "params": params,
                                     "outputs": [self.define(v) for v in eq.outputs],
                                     "source": portable_source(eq.source)})
        out["outputs"] = [self.operand(v, f"{g.name} outputs") for v in g.outputs]
        return out

    def param(self, p, where: str):
        if p is None or isinstance(p, (bool, str)):
            return p
        if isinstance(p, int):
            return int(p)
        if isinstance(p, float):
            return self.scalar(p, where)
        if isinstance(p, tuple):
            return {"$tuple": [self.param(x, where) for x in p]}
        if isinstance(p, list):
            return [self.param(x, where) for x in p]
        if isinstance(p, dict) and all(isinstance(k, str) for k in p):
            return {"$dict": {k: self.param(v, where) for k, v in p.items()}}
        if isinstance(p, np.dtype) or (isinstance(p, type) and issubclass(p, np.generic)):
            return {"$dtype": _dtype_name(p)}
        if isinstance(p, np.generic):
            return {"$scalar": self.scalar(p.item(), where), "dtype": _dtype_name(p.dtype)}
        if isinstance(p, np.ndarray):
            return {"$array": self.array(p)}
        if isinstance(p, Graph):
            return {"$graph": self.graph(p)}
        if isinstance(p, slice):
            return {"$slice": [self.param(x, where) for x in (p.start, p.stop, p.step)]}
        if p is Ellipsis:
            return {"$ellipsis": True}
        if isinstance(p, BaseException) and getattr(builtins, type(p).__name__, None) is type(p):
            return {"$exception": type(p).__name__, "args": [self.param(a, where) for a in p.args]}
        raise SIRError("a parameter has no SIR encoding", op=where,
                       expected="None, bool, int, float, str, tuple, list, dict, dtype, array, "
                                "sub-graph, slice, Ellipsis or a builtin exception",
                       got=f"{type(p).__module__}.{type(p).__qualname__}")


def encode_graph(graph: Graph) -> tuple[dict, dict[str, np.ndarray]]:
    """``graph`` as JSON-ready data and the arrays it names."""
    enc = _Encoder()
    return enc.graph(graph), enc.consts


class _Decoder:
    """Builds the graph while checking every field against the schema (the file is
    untrusted); ``field`` arguments are paths into ``graph.json`` for error messages."""

    def __init__(self, consts: dict, path: str):
        self.consts, self.check = consts, Fields(path)
        self.vars: dict[int, Var] = {}
        self.used: set[str] = set()  # constant names the graph refers to
        self.prims = primitives()
        self.accepted: dict[tuple, frozenset | None] = {}

    def define(self, spec, field: str) -> Var:
        c = self.check
        c.object(spec, field, {"id", "shape", "dtype"})
        n = c.integer(spec["id"], f"{field}.id")
        aval = Aval(c.shape(spec["shape"], f"{field}.shape"),
                    c.dtype(spec["dtype"], f"{field}.dtype"))
        if n in self.vars:
            raise c.fail("a value is defined twice", f"{field}.id", expected="unique ids",
                         got=n)
        v = self.vars[n] = Var(aval)
        return v

    def array(self, name, field: str):
        if self.check.string(name, field) not in self.consts:
            raise self.check.fail("a constant is missing from constants.safetensors", field,
                                  expected="a stored array", got=show(name))
        self.used.add(name)
        return self.consts[name]

    def scalar(self, x, field: str):
        """bool, int, finite float or a ``$float`` tag."""
        if isinstance(x, dict):
            tag = self.check.object(x, field, {"$float"})["$float"]
            if tag not in ("inf", "-inf", "nan"):
                raise self.check.fail("a malformed non-finite float", field,
                                      expected="inf, -inf or nan", got=show(tag))
            return float(tag)
        if not isinstance(x, (bool, int, float)) or (isinstance(x, float)
                                                      and not math.isfinite(x)):
            raise self.check.fail("not a scalar", field, got=show(x),
                                  expected='a bool, int, finite float or {"$float": ...}')
        return x

    def typed(self, x, dtype, field: str):
        """``x`` as a NumPy scalar of ``dtype`` (300 is no int8)."""
        try:
            return np.asarray(x, dtype=dtype)
        except (OverflowError, ValueError, TypeError) as exc:
            raise self.check.fail("a scalar that its dtype cannot hold", field,
                                  expected=str(dtype), got=show(x)) from exc

    def operand(self, spec, field: str):
        c = self.check
        keys = set(spec) if isinstance(spec, dict) else None
        if keys == {"v"}:
            n = c.integer(spec["v"], f"{field}.v")
            if n not in self.vars:
                raise c.fail("an operand refers to an undefined value", f"{field}.v", got=n)
            return self.vars[n]
        if keys == {"c"}:
            return Const(self.array(spec["c"], f"{field}.c"))
        if keys == {"s", "dtype"}:
            return Const(self.typed(self.scalar(spec["s"], f"{field}.s"),
                                    c.dtype(spec["dtype"], f"{field}.dtype"), f"{field}.s"))
        raise c.fail("a malformed operand", field, expected="{v}, {c} or {s, dtype}",
                     got=show(spec))

    def param(self, p, field: str):
        c = self.check
        if p is None or isinstance(p, (bool, int, str)):
            return p
        if isinstance(p, float):
            return self.scalar(p, field)
        if isinstance(p, list):
            return [self.param(x, f"{field}[{i}]") for i, x in enumerate(p)]
        tags = [k for k in p if k in _TAGS] if isinstance(p, dict) else []
        if len(tags) != 1:
            raise c.fail("an unknown parameter tag", field, got=show(p),
                         expected="one of " + ", ".join(_TAGS))
        tag = tags[0]
        value, at = c.object(p, field, _TAGS[tag])[tag], f"{field}.{tag}"
        if tag == "$tuple":
            return tuple(self.param(x, f"{at}[{i}]") for i, x in enumerate(c.array(value, at)))
        if tag == "$dict":
            return {k: self.param(v, f"{at}[{k!r}]") for k, v in c.mapping(value, at).items()}
        if tag == "$dtype":
            return c.dtype(value, at)
        if tag == "$scalar":
            return self.typed(self.scalar(value, at), c.dtype(p["dtype"], f"{field}.dtype"),
                              at)[()]
        if tag == "$float":
            return self.scalar(p, field)
        if tag == "$array":
            return self.array(value, at)
        if tag == "$graph":
            return self.graph(value, at)
        if tag == "$slice":
            return slice(*(self.param(x, f"{at}[{i}]")
                           for i, x in enumerate(c.array(value, at, 3))))
        if tag == "$ellipsis":
            if value is not True:
                raise c.fail("a malformed Ellipsis", at, expected="true", got=show(value))
            return Ellipsis
        return self.exception(c.string(value, at), c.array(p["args"], f"{field}.args"),
                              field)

    def exception(self, name: str, args: list, field: str) -> BaseException:
        cls = getattr(builtins, name, None)
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            raise self.check.fail("an exception that is not a builtin one",
                                  f"{field}.$exception", expected="a builtin exception name",
                                  got=show(name))
        args = [self.param(a, f"{field}.args[{i}]") for i, a in enumerate(args)]
        try:
            return cls(*args)
        except Exception as exc:  # UnicodeError subclasses and others want set arguments
            raise self.check.fail("exception arguments its class refuses", f"{field}.args",
                                  got=f"{type(exc).__name__}: {exc}") from exc

    def graph(self, spec, field: str) -> Graph:
        c = self.check
        c.object(spec, field, {"name", "inputs", "equations", "outputs"})
        name = c.string(spec["name"], f"{field}.name")
        inputs = [self.define(s, f"{field}.inputs[{i}]")
                  for i, s in enumerate(c.array(spec["inputs"], f"{field}.inputs"))]
        equations = [self.equation(e, f"{field}.equations[{i}]")
                     for i, e in enumerate(c.array(spec["equations"], f"{field}.equations"))]
        outputs = [self.operand(s, f"{field}.outputs[{i}]")
                   for i, s in enumerate(c.array(spec["outputs"], f"{field}.outputs"))]
        return Graph(inputs, equations, outputs, name)

    def equation(self, e, field: str) -> Equation:
        c = self.check
        c.object(e, field, {"prim", "inputs", "params", "outputs", "source"})
        prim = self.prims.get(c.string(e["prim"], f"{field}.prim"))
        if prim is None:
            raise c.fail(f"unknown primitive {e['prim']!r}", f"{field}.prim",
                         expected="a primitive defined by Sporeling or an installed plugin",
                         got=show(e["prim"]), hint="install the plugin that defines it")
        ins = [self.operand(s, f"{field}.inputs[{i}]")
               for i, s in enumerate(c.array(e["inputs"], f"{field}.inputs"))]
        key = (prim.name, len(ins))
        if key not in self.accepted:
            self.accepted[key] = accepted_params(prim, len(ins))
        params = {c.parameter_name(k, f"{field}.params", self.accepted[key]):
                  self.param(v, f"{field}.params[{k!r}]")
                  for k, v in c.mapping(e["params"], f"{field}.params").items()}
        outs = [self.define(s, f"{field}.outputs[{i}]")
                for i, s in enumerate(c.array(e["outputs"], f"{field}.outputs"))]
        source = e["source"]
        if source is not None:
            c.string(source, f"{field}.source")
        return Equation(prim, ins, outs, params, source)


# each tag's keys (one-key objects but for $scalar and $exception)
_TAGS = {"$tuple": {"$tuple"}, "$dict": {"$dict"}, "$dtype": {"$dtype"},
         "$scalar": {"$scalar", "dtype"}, "$float": {"$float"}, "$array": {"$array"},
         "$graph": {"$graph"}, "$slice": {"$slice"}, "$ellipsis": {"$ellipsis"},
         "$exception": {"$exception", "args"}}


def decode_graph(data: dict, consts: dict[str, np.ndarray], path: str = "<memory>") -> Graph:
    """The graph ``data`` describes (see :func:`encode_graph`), checked by ``verify``."""
    from ..ir import IRError, verify
    # the file is untrusted: whatever a malformed entry makes a constructor or a rule
    # raise (TypeError from slice(), ShapeError from an abstract rule...) is its damage
    decoder = _Decoder(consts, path)
    try:
        graph = decoder.graph(data, "graph")
    except SIRError:
        raise
    except Exception as exc:
        raise SIRError("a malformed graph section", where=path, field="graph",
                       got=f"{type(exc).__name__}: {exc}") from exc
    unused = sorted(set(consts) - decoder.used)
    if unused:
        raise SIRError("arrays the graph never refers to", where=path,
                       field="constants.safetensors", expected="exactly the graph's constants",
                       got=unused[:5])
    try:
        verify(graph)
    except IRError as exc:
        raise SIRError(f"the stored graph is malformed: {exc.detail}", where=path) from exc
    except Exception as exc:
        raise SIRError("the stored graph is malformed", where=path,
                       got=f"{type(exc).__name__}: {exc}") from exc
    return graph
