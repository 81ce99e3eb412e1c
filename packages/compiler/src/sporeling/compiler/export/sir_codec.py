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

import numpy as np

from ..core import Aval
from ..core.primitive import primitives
from ..ir import Const, Equation, Graph, Var
from .errors import SIRError

__all__ = ["encode_graph", "decode_graph"]


def _dtype_name(dtype) -> str:
    return np.dtype(dtype).name


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
                                     "source": eq.source})
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
    def __init__(self, consts: dict, path: str):
        self.consts, self.path = consts, path
        self.vars: dict[int, Var] = {}
        self.prims = primitives()

    def fail(self, message: str, **kw):
        return SIRError(message, where=self.path, **kw)

    def define(self, spec) -> Var:
        try:
            aval = Aval(tuple(int(n) for n in spec["shape"]), np.dtype(spec["dtype"]))
            n = int(spec["id"])
        except (KeyError, TypeError, ValueError) as exc:
            raise self.fail("a malformed value definition", expected="{id, shape, dtype}",
                            got=repr(spec)[:200]) from exc
        if n in self.vars:
            raise self.fail("a value is defined twice", expected="unique ids", got=n)
        v = self.vars[n] = Var(aval)
        return v

    def array(self, name):
        if name not in self.consts:
            raise self.fail("a constant is missing from constants.safetensors",
                            expected="a stored array", got=repr(name))
        return self.consts[name]

    def scalar(self, x):
        if isinstance(x, dict) and set(x) == {"$float"}:
            if x["$float"] not in ("inf", "-inf", "nan"):
                raise self.fail("a malformed non-finite float", got=repr(x))
            return float(x["$float"])
        return x

    def operand(self, spec):
        if not isinstance(spec, dict):
            raise self.fail("a malformed operand", expected="{v}, {c} or {s, dtype}",
                            got=repr(spec)[:200])
        if "v" in spec:
            if spec["v"] not in self.vars:
                raise self.fail("an operand refers to an undefined value", got=spec["v"])
            return self.vars[spec["v"]]
        if "c" in spec:
            return Const(self.array(spec["c"]))
        if "s" in spec and "dtype" in spec:
            return Const(np.asarray(self.scalar(spec["s"]), dtype=np.dtype(spec["dtype"])))
        raise self.fail("a malformed operand", expected="{v}, {c} or {s, dtype}",
                        got=repr(spec)[:200])

    def param(self, p):
        if p is None or isinstance(p, (bool, int, float, str)):
            return p
        if isinstance(p, list):
            return [self.param(x) for x in p]
        if not isinstance(p, dict) or len(p) == 0:
            raise self.fail("a malformed parameter", got=repr(p)[:200])
        tag = next(iter(p))
        if tag == "$tuple":
            return tuple(self.param(x) for x in p["$tuple"])
        if tag == "$dict":
            return {k: self.param(v) for k, v in p["$dict"].items()}
        if tag == "$dtype":
            return np.dtype(p["$dtype"])
        if tag == "$scalar":
            return np.dtype(p["dtype"]).type(self.scalar(p["$scalar"]))
        if tag == "$float":
            return self.scalar(p)
        if tag == "$array":
            return self.array(p["$array"])
        if tag == "$graph":
            return self.graph(p["$graph"])
        if tag == "$slice":
            return slice(*(self.param(x) for x in p["$slice"]))
        if tag == "$ellipsis":
            return Ellipsis
        if tag == "$exception":
            cls = getattr(builtins, p["$exception"], None)
            if not (isinstance(cls, type) and issubclass(cls, BaseException)):
                raise self.fail("an exception that is not a builtin one",
                                expected="a builtin exception name", got=repr(p["$exception"]))
            return cls(*(self.param(a) for a in p["args"]))
        raise self.fail("an unknown parameter tag", expected="$tuple, $dict, $dtype, $scalar, "
                        "$float, $array, $graph, $slice, $ellipsis or $exception", got=repr(tag))

    def graph(self, spec) -> Graph:
        try:
            inputs = [self.define(s) for s in spec["inputs"]]
            equations = []
            for e in spec["equations"]:
                prim = self.prims.get(e["prim"])
                if prim is None:
                    raise self.fail(f"unknown primitive {e['prim']!r}",
                                    expected="a primitive defined by Sporeling or an installed "
                                             "plugin", got=repr(e["prim"]),
                                    hint="install the plugin that defines it")
                ins = [self.operand(s) for s in e["inputs"]]
                params = {k: self.param(v) for k, v in e["params"].items()}
                outs = [self.define(s) for s in e["outputs"]]
                equations.append(Equation(prim, ins, outs, params, e.get("source")))
            outputs = [self.operand(s) for s in spec["outputs"]]
            return Graph(inputs, equations, outputs, str(spec.get("name", "graph")))
        except (KeyError, TypeError, AttributeError) as exc:
            raise self.fail("a malformed graph section", expected="inputs, equations, outputs",
                            got=f"{type(exc).__name__}: {exc}") from exc


def decode_graph(data: dict, consts: dict[str, np.ndarray], path: str = "<memory>") -> Graph:
    """The graph ``data`` describes (see :func:`encode_graph`), checked by ``verify``."""
    from ..ir import IRError, verify
    # the file is untrusted: whatever a malformed entry makes a constructor or a rule
    # raise (TypeError from slice(), ShapeError from an abstract rule...) is its damage
    try:
        graph = _Decoder(consts, path).graph(data)
    except SIRError:
        raise
    except Exception as exc:
        raise SIRError("a malformed graph section", where=path,
                       got=f"{type(exc).__name__}: {exc}") from exc
    try:
        verify(graph)
    except IRError as exc:
        raise SIRError(f"the stored graph is malformed: {exc.detail}", where=path) from exc
    except Exception as exc:
        raise SIRError("the stored graph is malformed", where=path,
                       got=f"{type(exc).__name__}: {exc}") from exc
    return graph
