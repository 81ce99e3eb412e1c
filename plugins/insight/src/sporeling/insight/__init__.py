"""sporeling.insight: training insight -- TensorBoard summaries, a profiler, an HTML report.

* :class:`SummaryRecord`, :class:`SummaryCollector` (MindSpore's names): scalars,
  histograms, images and the compiled IR graph as TensorBoard event files (tensorboardX);
  :class:`SummaryLandscape`: loss landscapes around the checkpoints the collector keeps;
* :class:`Profiler`: per-op kernel times (PyNative and Graph mode) and the memory pool's
  timeline as a Chrome trace (Perfetto), plus an op table;
* ``sporeling insight report DIR``: a static HTML page of plots (:func:`write_report`).

Names load on first use, so the report command does not import the training stack.
"""
from __future__ import annotations

import importlib

_WHERE = {"SummaryRecord": "summary", "SummaryError": "summary", "network_graph": "summary",
          "SummaryCollector": "collector", "graph_def": "graph_def",
          "SummaryLandscape": "landscape", "read_landscapes": "landscape",
          "Profiler": "profiler", "ProfilerError": "profiler",
          "write_report": "report", "ReportError": "report"}

__all__ = list(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'sporeling.insight' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
