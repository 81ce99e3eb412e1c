"""sporeling.amp: automatic mixed precision: levels O0-O3/auto, cast passes, loss scalers.

Skeleton: this package installs with its declared dependencies and exports nothing yet;
see its README for what it will hold.
"""
