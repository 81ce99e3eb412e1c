"""sporeling.compiler: primitives and their rules, IR, tracing and AST control-flow conversion, transforms, passes, lowering, export.

Skeleton: this package installs with its declared dependencies and exports nothing yet;
see its README for what it will hold.
"""
