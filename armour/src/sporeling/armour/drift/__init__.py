"""``sporeling.armour.drift``: data and concept drift.

Two-sample tests with p-values (``KSDrift``, ``MMDDrift`` with a permutation test),
out-of-distribution scores (``max_softmax``, ``energy``, ``OODDetector``) and stream
detectors (``ADWIN`` with a whole-stream false-alarm bound, ``DDM``). See armour/README.md,
"Drift".
"""
from .errors import DriftError
from .ood import OODDetector, auroc, energy, logits_of, max_softmax, ood_score
from .stream import ADWIN, DDM
from .two_sample import DriftResult, KSDrift, MMDDrift

__all__ = ["DriftError", "DriftResult", "KSDrift", "MMDDrift", "max_softmax", "energy",
           "ood_score", "OODDetector", "logits_of", "auroc", "ADWIN", "DDM"]
