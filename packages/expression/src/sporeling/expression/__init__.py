"""sporeling.expression: the user's front door: Tensor, ops, nn, optimizers, grad/jit API, Model, checkpoints.

Skeleton: this package installs with its declared dependencies and exports nothing yet;
see its README for what it will hold.
"""
