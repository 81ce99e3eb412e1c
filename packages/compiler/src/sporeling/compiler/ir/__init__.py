"""The IR: graphs, tracing into them, printing, verifying and evaluating them."""
from .evaluate import evaluate
from .graph import Const, Equation, Graph, Var
from .printer import graph_to_text
from .pytree import flatten, unflatten
from .trace import TraceInterpreter, Tracer, make_graph, user_source
from .verify import IRError, verify

__all__ = ["evaluate", "Const", "Equation", "Graph", "Var", "graph_to_text", "flatten",
           "unflatten", "TraceInterpreter", "Tracer", "make_graph", "user_source", "IRError",
           "verify"]
