"""sporeling.parallel: communicators, data/operator/pipeline parallelism, automatic strategy search.

Skeleton: this package installs with its declared dependencies and exports nothing yet;
see its README for what it will hold.
"""
