"""sporeling.insight: training insight -- TensorBoard summaries, a profiler, an HTML report.

* :class:`SummaryRecord`, :class:`SummaryCollector` (MindSpore's names): scalars,
  histograms, images and the compiled IR graph as TensorBoard event files (tensorboardX);
* :class:`Profiler`: per-op kernel times (PyNative and Graph mode) and the memory pool's
  timeline as a Chrome trace (Perfetto), plus an op table;
* ``sporeling insight report DIR``: a static HTML page of plots (:func:`write_report`).
"""
import importlib

# Loaded on first use: the plugin host imports ``sporeling.insight.plugin`` in every process,
# and tensorboardX (which imports torch when present) and matplotlib take seconds.
_WHERE = {"SummaryCollector": "collector", "graph_def": "graph_def", "Profiler": "profiler",
          "ProfilerError": "profiler", "write_report": "report", "ReportError": "report",
          "SummaryError": "summary", "SummaryRecord": "summary", "network_graph": "summary"}

__all__ = ["SummaryRecord", "SummaryCollector", "SummaryError", "Profiler", "ProfilerError",
           "graph_def", "network_graph", "write_report", "ReportError"]


def __getattr__(name):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'sporeling.insight' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
