"""sporeling.zoo: models with pretrained weights, pulled by name and verified by hash.

Skeleton: this package installs with its declared dependencies and exports nothing yet;
see its README for what it will hold.
"""
