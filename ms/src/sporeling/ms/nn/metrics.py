"""``ms.nn``'s metric names (MindSpore 2.10 keeps them under ``mindspore.nn`` too): the
metrics of :mod:`sporeling.ms.train.metrics`."""
from ..train.metrics import *  # noqa: F401,F403
from ..train.metrics import __all__  # noqa: F401
