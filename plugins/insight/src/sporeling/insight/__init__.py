"""sporeling.insight: training insight -- TensorBoard summaries, a profiler, an HTML report.

* :class:`SummaryRecord`, :class:`SummaryCollector` (MindSpore's names): scalars,
  histograms, images and the compiled IR graph as TensorBoard event files (tensorboardX);
* :class:`Profiler`: per-op kernel times (PyNative and Graph mode) and the memory pool's
  timeline as a Chrome trace (Perfetto), plus an op table;
* ``sporeling insight report DIR``: a static HTML page of plots (:func:`write_report`).
"""
from .collector import SummaryCollector
from .graph_def import graph_def
from .profiler import Profiler, ProfilerError
from .report import ReportError, write_report
from .summary import SummaryError, SummaryRecord, network_graph

__all__ = ["SummaryRecord", "SummaryCollector", "SummaryError", "Profiler", "ProfilerError",
           "graph_def", "network_graph", "write_report", "ReportError"]
