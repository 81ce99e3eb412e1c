"""``sporeling.armour.fuzz``: coverage-guided fuzzing of a trained model.

Coverage criteria (neuron, k-multisection, top-k), bounded mutations (affine, noise, blur,
contrast) and a ``Fuzzer`` reporting coverage growth and misclassifications per 1,000
mutations. See armour/README.md, "Fuzzing".
"""
from .coverage import CoverageCriterion, KMultisectionCoverage, NeuronCoverage, TopKCoverage
from .errors import FuzzError
from .fuzzer import FuzzReport, Fuzzer
from .mutations import Affine, Blur, Contrast, Noise, default_mutations
from .taps import LayerTaps

__all__ = ["CoverageCriterion", "NeuronCoverage", "KMultisectionCoverage", "TopKCoverage",
           "Fuzzer", "FuzzReport", "LayerTaps", "Affine", "Noise", "Blur", "Contrast",
           "default_mutations", "FuzzError"]
