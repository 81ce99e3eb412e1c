"""``ms.nn.no_init_parameters``: MindSpore 2.10's context manager (and decorator) that
delays parameter initialisation while a network is built for a checkpoint to overwrite.

Sporeling's initialisers are cheap NumPy draws, so parameters are initialised as usual
inside it: loading a checkpoint afterwards (``load_param_into_net``) or calling
``init_parameters_data()`` gives the same network as in MindSpore."""
from __future__ import annotations

import contextlib

__all__ = ["no_init_parameters"]


class no_init_parameters(contextlib.ContextDecorator):  # noqa: N801 - MindSpore's name
    """``with no_init_parameters(): net = Net()`` (or ``@no_init_parameters()``)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
