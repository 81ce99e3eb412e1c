"""The facade's Profiler/SummaryRecord/SummaryCollector are sporeling.insight's (ms and the
insight plugin together: the integration env)."""
import numpy as np

import sporeling.insight as insight
import sporeling.ms as ms


def test_insight_tools_are_the_plugin_s(tmp_path):
    for name in ("Profiler", "SummaryRecord", "SummaryCollector"):
        assert name in ms.__all__ and getattr(ms, name) is getattr(insight, name)
    with ms.Profiler(output_path=str(tmp_path)) as prof:
        (ms.Tensor(np.ones((8, 8), np.float32)) * 2).sum()
    assert prof.op_table()
