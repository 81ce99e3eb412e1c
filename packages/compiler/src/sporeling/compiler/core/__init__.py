"""The compiler's spine: avals, primitives, interpreters, rule tables."""
from .aval import Aval, aval_of
from .interpreter import EagerInterpreter, Interpreter, eager, next_level
from .location import locate, user_location
from .primitive import (MissingRuleError, Primitive, PrimitiveRegistry, bind, defined_primitives,
                        primitives)
from .rules import (ALL_OPERANDS, BackwardRule, backward_rule, def_backward,
                    def_nondifferentiable)

__all__ = ["Aval", "aval_of", "EagerInterpreter", "Interpreter", "eager", "next_level", "MissingRuleError",
           "Primitive", "PrimitiveRegistry", "bind", "defined_primitives", "primitives", "ALL_OPERANDS", "BackwardRule", "backward_rule",
           "def_backward", "def_nondifferentiable", "locate", "user_location"]
