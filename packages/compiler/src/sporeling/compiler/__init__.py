"""sporeling.compiler: primitives and their rules, the functional ops, transformations.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> ops.matmul(np.ones((2, 3), np.float32), np.ones(3, np.float32))
    array([3., 3.], dtype=float32)
"""
from . import ops
from .core import (Aval, Interpreter, MissingRuleError, Primitive, backward_rule, bind,
                   def_backward, def_nondifferentiable, eager, primitives)

__all__ = ["ops", "Aval", "Interpreter", "MissingRuleError", "Primitive", "backward_rule",
           "bind", "def_backward", "def_nondifferentiable", "eager", "primitives"]
