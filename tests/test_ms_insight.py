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


def test_ms_train_has_the_summary_writers_as_2_10(tmp_path):
    for name in ("SummaryRecord", "SummaryCollector"):
        assert name in ms.train.__all__ and getattr(ms.train, name) is getattr(insight, name)
    with ms.train.SummaryRecord(tmp_path) as rec:  # the writer works from its ms.train name
        rec.add_value("scalar", "loss", ms.Tensor(np.float32(0.5)))
        assert rec.record(0)
    assert list(tmp_path.iterdir())
