"""``fused_elementwise``: a chain of elementwise primitives run as one kernel.

The compiler's fusion pass puts the chain in the ``expr`` parameter, a tuple of nodes
evaluated in order, the last one being the result::

    (primitive_name, operands, params, shape, dtype)

``operands`` are ``("in", i)`` (the kernel's i-th input), ``("node", j)`` (an earlier node)
or ``("const", value, dtype)`` (a scalar); ``params`` are sorted ``(key, value)`` pairs.

Each node runs its primitive's NumPy kernel with ``out=`` a temporary buffer, and a buffer
goes back to a free list (by shape and dtype) after its last use, so a chain of any length
needs about two temporaries; the last node writes into the result. ``broadcast_to`` nodes
are views. ``bench/fusion.py`` compared this with numexpr (which evaluates in cache-sized
blocks, multithreaded): see its docstring for the numbers behind the choice.

    >>> import numpy as np
    >>> from sporeling.runtime import get_backend
    >>> expr = (("mul", (("in", 0), ("const", 2.0, "float32")), (), (3,), "float32"),
    ...         ("exp", (("node", 0),), (), (3,), "float32"))
    >>> x = np.zeros(3, np.float32)
    >>> fused_elementwise(get_backend("CPU"), x, expr=expr)
    array([1., 1., 1.], dtype=float32)
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .table import NUMPY_KERNELS, define, writes_out

__all__ = ["fused_elementwise"]

_IN, _NODE, _CONST = 0, 1, 2


@lru_cache(maxsize=1024)
def _plan(expr: tuple) -> tuple:
    """Per node: (kernel or None for a view, operands, params, shape, dtype, nodes that
    die after it). Operands are (kind, index or constant array)."""
    last_use: dict[int, int] = {}
    for k, (_, operands, *_rest) in enumerate(expr):
        for ref in operands:
            if ref[0] == "node":
                last_use[ref[1]] = k
    dying: dict[int, list[int]] = {}
    for j, k in last_use.items():
        dying.setdefault(k, []).append(j)
    steps = []
    for k, (name, operands, params, shape, dtype) in enumerate(expr):
        refs = tuple((_IN, r[1]) if r[0] == "in" else (_NODE, r[1]) if r[0] == "node"
                     else (_CONST, np.asarray(r[1], dtype=r[2])) for r in operands)
        kernel = None if name == "broadcast_to" and k < len(expr) - 1 else \
            NUMPY_KERNELS.get(name) or _plugin_kernel(name)
        steps.append((kernel, refs, dict(params), tuple(shape), np.dtype(dtype),
                      tuple(dying.get(k, ()))))
    return tuple(steps)


def _plugin_kernel(name: str):
    """The NumPy kernel a plugin registered for ``name`` (a plugin's primitive declared
    ``fusible=True`` joins chains like the built-ins)."""
    from ..errors import KernelNotFoundError
    from ..kernel_registry import get_kernels
    fn = get_kernels().lookup("numpy", name)
    if fn is None:
        raise KernelNotFoundError(f"no NumPy kernel for primitive {name!r} in a fused chain",
                                  op="fused_elementwise", expected="a registered kernel",
                                  got=repr(name))
    return fn


@define("fused_elementwise", memory=writes_out())
def fused_elementwise(backend, *inputs, out=None, expr):
    """Evaluate ``expr`` (see the module doc) on ``inputs`` into ``out`` or a new buffer."""
    steps = _plan(expr)
    last = len(steps) - 1
    values: list = [None] * len(steps)
    owned = [False] * len(steps)  # buffers of ours (views are not reused)
    free: dict[tuple, list] = {}
    for k, (kernel, refs, params, shape, dtype, dies) in enumerate(steps):
        args = [inputs[i] if kind == _IN else values[i] if kind == _NODE else i
                for kind, i in refs]
        if kernel is None:  # broadcast_to inside the chain: a view
            values[k] = np.broadcast_to(args[0], shape)
        else:
            if k == last:
                buf = out if out is not None else backend.allocate(shape, dtype)
            else:
                spare = free.get((shape, dtype))
                buf = spare.pop() if spare else backend.allocate(shape, dtype)
                owned[k] = True
            values[k] = kernel(backend, *args, out=buf, **params)
        for j in dies:  # after the node ran: no kernel sees its output aliased to an input
            if owned[j]:
                free.setdefault((steps[j][3], steps[j][4]), []).append(values[j])
            values[j] = None
    return values[last]
