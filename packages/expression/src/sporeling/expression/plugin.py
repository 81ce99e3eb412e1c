"""sporeling.expression's built-in plugin: the context keys the package reads, and the
hooks it owns (``HOOKSPECS``: ``sporeling_grad_reducer``, ``sporeling_shard``,
``sporeling_rank``, see :mod:`.hookspecs`).

* ``grad_release`` (default ``True``): PyNative ``grad`` frees each saved forward value as
  soon as its last backward user has run; ``False`` keeps them until the backward pass
  ends (to measure what release saves; see ``bench/grad_release.py``).

    >>> from sporeling.core import context, get_context
    >>> with context(grad_release=False):
    ...     get_context("grad_release")
    False
"""
from __future__ import annotations

from sporeling.core import impl

from . import hookspecs

HOOKSPECS = hookspecs  # sporeling_grad_reducer, sporeling_shard, sporeling_rank: answered by
# sporeling.parallel


def _flag(value) -> bool:
    if not isinstance(value, bool):
        raise TypeError("must be True or False")
    return value


@impl
def sporeling_add_context_options(options) -> None:
    options.add_option("grad_release", True, convert=_flag,
                       doc="PyNative grad frees saved forward values as soon as their last "
                           "backward user has run (False: at the end of backward).",
                       valid="True or False")
