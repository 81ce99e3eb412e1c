"""Fold inference batch normalisation into the preceding convolution (a Sporeling pass
plugin); see :mod:`sporeling.bn_fold.fold`."""
from .fold import BN_FOLD, fold_batch_norm

__all__ = ["BN_FOLD", "fold_batch_norm"]
