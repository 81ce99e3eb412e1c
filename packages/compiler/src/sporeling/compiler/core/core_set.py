"""The core set: the primitives a new backend implements itself, each declared so on its
record (the ``core`` trait).

Every other primitive either has a decomposition on its record (``prim.def_decomposition``:
softmax, the activations and their gradient kernels, normalisation, cross entropy, the fused
elementwise chains, ...), which lowering traces into the graph where the backend has no
kernel for it (:mod:`sporeling.compiler.lowering.decompose`), or is *extended*: a kernel the
backend may add (einsum, the fused RNNs, quantised kernels, ...; without one, lowering
raises a :class:`~sporeling.compiler.core.primitive.MissingRuleError` naming it). So a
backend that registers kernels for these runs Graph-mode training of the usual models, and
adds kernels beyond them only where it is faster: its own kernel always wins over a
decomposition.

    >>> is_core("matmul"), is_core("softmax")
    (True, False)
"""
from __future__ import annotations

from .primitive import Primitive, primitives

__all__ = ["core_primitives", "is_core"]


def core_primitives() -> frozenset[str]:
    """Names of the primitives every backend implements: those whose record says
    ``core=True`` where they are defined (``Primitive("add", core=True)``), among every
    installed plugin's."""
    return frozenset(name for name, prim in primitives().items() if prim.core)


def is_core(primitive) -> bool:
    """Whether ``primitive`` (a :class:`Primitive`, or the name of a registered one) is in
    the core set."""
    if not isinstance(primitive, Primitive):
        primitive = primitives().get(primitive)
    return primitive is not None and primitive.core
