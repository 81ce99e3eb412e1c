"""Batching rules (for ``vmap``) of the built-in primitives, one module per op family.

Importing this package registers them with :func:`~sporeling.compiler.core.batching.
def_batching`; ``sporeling.compiler.transforms`` imports it.
"""
from . import control, elementwise, indexing, linalg, nn, random, reduction, shape  # noqa: F401
