"""``add_at`` at a basic index (ints and slices: the backward of a ``getitem`` such as an
RNN's last step, ``x[:, -1]``) as a generated loop: ``out = x`` with ``updates`` added where
the key selects, one pass over ``out`` -- NumPy's kernel copies ``x`` then adds into a view,
which a native step cannot make. Keys with index arrays, ``None`` or ``Ellipsis``, and other
dtypes, run the provider below.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .kernels import below_call, compact, invoke, made_call, spec_function
from .tir_text import Generated, Writer, header

__all__ = ["AddAtSpec", "add_at_spec", "add_at"]

_DTYPES = ("float32", "float64")


@dataclass(frozen=True)
class AddAtSpec(Generated):
    """``out = x``, plus ``updates`` where ``key`` selects: per axis of ``x`` an int (the
    axis is not in ``updates``) or ``(start, step, count)`` (``count`` elements)."""
    shape: tuple
    updates: tuple
    dtype: str
    key: tuple
    kind: str = "add_at"

    def source(self) -> str:
        dt, shape = self.dtype, self.shape
        flat = lambda s: f"({', '.join(map(str, s))},)" if s else "(1,)"  # noqa: E731
        lines = header([("x", flat(shape), dt), ("u", flat(self.updates), dt),
                        ("out", flat(shape), dt)])
        w = Writer()
        names = [f"i{k}" for k in range(len(shape))]
        inside, at = [], []
        for name, part in zip(names, self.key):
            if isinstance(part, int):
                inside.append(f"{name} == T.int64({part})")
                continue
            start, step, count = part
            offset = f"({name} - T.int64({start}))"
            inside += [f"{offset} >= T.int64(0)", f"{offset} < T.int64({step * count})"] \
                if step > 0 else [f"{offset} <= T.int64(0)",
                                  f"{offset} > T.int64({step * count})"]
            if abs(step) != 1:
                inside.append(f"T.floormod({offset}, T.int64({abs(step)})) == T.int64(0)")
            at.append(f"T.floordiv({offset}, T.int64({step}))")
        index = ", ".join(names)
        grid = ", ".join(f"T.int64({n})" for n in shape)
        with w.block(f"for {index} in T.grid({grid}):"):
            selected = " and ".join(inside) or "True"
            at_u = ", ".join(at) or "0"
            w(f"out[{index}] = T.if_then_else({selected}, x[{index}] + u[{at_u}], "
              f"x[{index}])")
        return "\n".join(lines + w.lines) + "\n"


def _axis_key(part, n):
    """One axis of a key for an axis of ``n``: an int, ``(start, step, count)``, or None
    (another kind of index)."""
    if isinstance(part, bool) or not isinstance(part, (int, tuple)):
        return None
    if isinstance(part, int):
        return part % n if -n <= part < n else None
    start, step, count = slice(*part).indices(n)[0], slice(*part).indices(n)[2], \
        len(range(*slice(*part).indices(n)))
    return (start, step, count) if count else None


def add_at_spec(name: str, params: dict, specs) -> AddAtSpec | None:
    """The function of such an ``add_at``, None where it is none of this module's."""
    if len(specs) != 2:  # index arrays follow as operands: not a basic key
        return None
    (shape, dtype), (u_shape, u_dtype) = specs
    key, shape = tuple(params["key"]), tuple(shape)
    if np.dtype(dtype).name not in _DTYPES or np.dtype(u_dtype) != np.dtype(dtype) or \
            not shape or len(key) > len(shape) or 0 in shape:
        return None
    parts = [_axis_key(p, n) for p, n in zip(key, shape)]
    parts += [(0, 1, n) for n in shape[len(key):]]
    if any(p is None for p in parts):
        return None
    selected = tuple(p[2] for p in parts if isinstance(p, tuple))
    if selected != tuple(u_shape):  # (broadcast updates: the provider below)
        return None
    return AddAtSpec(shape, selected, np.dtype(dtype).name, tuple(parts))


def add_at(backend, x, updates, *arrays, out=None, key):
    """A copy of ``x`` with ``updates`` added at ``x[key]``: generated for a basic key,
    NumPy's kernel (through the provider below) otherwise."""
    if not arrays and isinstance(x, np.ndarray) and isinstance(updates, np.ndarray):
        specs = ((x.shape, x.dtype), (updates.shape, updates.dtype))
        call = made_call(("add_at", specs, key), lambda: _make(specs, key))
        return call(backend, (x, updates), out)
    return backend.below_kernel("add_at")(backend, x, updates, *arrays, out=out, key=key)


def _make(specs, key):
    params = {"key": key}
    below = below_call("add_at", params)
    spec = add_at_spec("add_at", params, specs)
    fn = spec_function("add_at", spec)
    if fn is None:
        return below
    shape, dtype = spec.shape, np.dtype(spec.dtype)

    def run(backend, inputs, out):
        x, u = inputs
        if out is not None and not (out.flags.c_contiguous and out.flags.writeable):
            return below(backend, inputs, out)
        result = backend.allocate(shape, dtype) if out is None else out
        invoke(fn, compact(x, shape), compact(u, spec.updates or (1,)), result)
        return result
    return run
