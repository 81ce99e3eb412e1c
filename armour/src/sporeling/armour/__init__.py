"""sporeling.armour: adversarial attacks and defences (``adv``), differentially private
training (``privacy``), membership inference (``mia``), fuzzing (``fuzz``) and drift
detection (``drift``); see the package README.
"""
from . import adv, drift, fuzz, mia, privacy  # noqa: F401
