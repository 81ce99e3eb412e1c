"""``ms.experimental.optim``: optimizers as PyTorch writes them (``param_groups`` of dicts,
each group's ``lr`` a Parameter that ``lr_scheduler`` changes between steps), with
``optimizer(grads)`` updating the parameters as MindSpore's do. 2.10's optimizers:
``Adam`` (MindSpore's kernel numerics), ``AdamW``, ``SGD``, ``Adadelta``, ``Adagrad``,
``Adamax``, ``ASGD``, ``NAdam``, ``RAdam``, ``RMSprop`` and ``Rprop`` (PyTorch's
numerics, which 2.10's follow)."""
from . import lr_scheduler
from .optimizer import SGD, Adam, AdamW, Optimizer
from .optimizers_extra import ASGD, Adadelta, Adagrad, Adamax, NAdam, RAdam, RMSprop, Rprop

__all__ = ["Optimizer", "Adam", "AdamW", "SGD", "Adadelta", "Adagrad", "Adamax", "ASGD",
           "NAdam", "RAdam", "RMSprop", "Rprop", "lr_scheduler"]
