"""``shard``: MindSpore's operator parallel entry point, answered by a plugin.

Expression only asks the plugin host (hook ``sporeling_shard``, see :mod:`.hookspecs`);
``sporeling.parallel`` answers, so expression never imports it.
"""
from __future__ import annotations

import os
import sys

from sporeling.core import get_plugin_host
from sporeling.core.errors import SporelingError

__all__ = ["shard"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def shard(fn, in_strategy=None, out_strategy=None, **kw):
    """``fn`` (a function or a Cell) split over the ranks of the current communicator.

    ``in_strategy`` / ``out_strategy``: blocks per dimension of each input / output; other
    keywords (``parameter_plan=``, ``device_num=``...) go to the implementation. Needs
    ``sporeling-parallel`` installed; raises :class:`SporelingError` otherwise. A Cell is
    returned itself, its calls now split (as ``cell.shard(...)``).
    """
    caller = getattr(get_plugin_host().hook, "sporeling_shard", None)
    answer = None if caller is None else caller(fn=fn, in_strategy=in_strategy,
                                                 out_strategy=out_strategy, options=dict(kw))
    if answer is None:
        raise SporelingError(
            "no plugin implements operator parallel", op="shard",
            expected="a plugin answering the sporeling_shard hook",
            got=f"none for {getattr(fn, '__name__', type(fn).__name__)}",
            where=_user_line(), hint="install sporeling-parallel (pip install "
                                     "sporeling-parallel) to shard functions and Cells")
    return answer


def _user_line() -> str | None:
    """``file:line`` of the first caller outside sporeling.expression (the user's line)."""
    frame = sys._getframe(1)
    while frame is not None:
        name = os.path.abspath(frame.f_code.co_filename)
        if not name.startswith(_HERE + os.sep):
            return f"{name}:{frame.f_lineno}"
        frame = frame.f_back
    return None
