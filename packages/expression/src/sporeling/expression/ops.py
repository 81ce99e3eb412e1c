"""The functional ops, ``sporeling.compiler.ops`` re-exported: they take Tensors (and return
Tensors), NumPy arrays and Python scalars alike.

    >>> import sporeling.expression as sx
    >>> sx.ops.relu(sx.Tensor([-1.0, 2.0]))
    Tensor(shape=[2], dtype=Float32, value= [0., 2.])
"""
import types as _types

from sporeling.compiler import ops as _ops

__all__ = sorted(name for name, value in vars(_ops).items()
                 if not name.startswith("_") and not isinstance(value, _types.ModuleType))
globals().update({name: getattr(_ops, name) for name in __all__})


def __getattr__(name):
    """Ops a plugin added to ``sporeling.compiler.ops`` after this module was imported."""
    if not name.startswith("_") and hasattr(_ops, name):
        return getattr(_ops, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
