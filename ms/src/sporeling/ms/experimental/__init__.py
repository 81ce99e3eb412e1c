"""``ms.experimental``: MindSpore 2.10's experimental modules -- ``optim``, PyTorch-style
optimizers with ``param_groups`` and their learning-rate schedulers."""
from . import optim

__all__ = ["optim"]
