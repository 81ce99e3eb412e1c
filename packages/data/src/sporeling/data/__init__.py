"""sporeling.data: the input pipeline: datasets, operations, samplers, transforms, parallel workers, readers.

Skeleton: this package installs with its declared dependencies and exports nothing yet;
see its README for what it will hold.
"""
