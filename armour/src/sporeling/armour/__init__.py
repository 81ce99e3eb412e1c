"""sporeling.armour: adversarial attacks and defences, differential privacy, membership inference, fuzzing, drift detection.

Skeleton: this package installs with its declared dependencies and exports nothing yet;
see its README for what it will hold.
"""
from . import drift, fuzz  # noqa: E402,F401  (engineer 3: fuzzing and drift)
from . import adv  # noqa: E402,F401  (engineer 1: adversarial robustness)
from . import mia, privacy  # noqa: E402,F401  (engineer 2: private training, membership inference)
