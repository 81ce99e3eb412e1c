"""Deployment: post-training int8 quantisation (:func:`quantize`) and magnitude pruning
(:func:`prune`, :class:`PruningCallback`), built on the compiler's passes
(``sporeling.compiler.quant``, ``sporeling.compiler.prune``)."""
from .prune import Pruner, PruningCallback, prune
from .quantize import FORMAT, FORMAT_VERSION, QuantizedCell, load_quantized, quantize

__all__ = ["quantize", "QuantizedCell", "load_quantized", "FORMAT", "FORMAT_VERSION",
           "prune", "Pruner", "PruningCallback"]
