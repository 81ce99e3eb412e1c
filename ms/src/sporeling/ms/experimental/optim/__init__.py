"""``ms.experimental.optim``: optimizers as PyTorch writes them (``param_groups`` of dicts,
each group's ``lr`` a Parameter that ``lr_scheduler`` changes between steps), with
``optimizer(grads)`` updating the parameters as MindSpore's do. Adam, AdamW and SGD (the
numerics of ``ms.mint.optim``, which are PyTorch's); 2.10's Adadelta, Adagrad, Adamax,
ASGD, NAdam, RAdam, RMSprop and Rprop are not here."""
from . import lr_scheduler
from .optimizer import SGD, Adam, AdamW, Optimizer

__all__ = ["Optimizer", "Adam", "AdamW", "SGD", "lr_scheduler"]
