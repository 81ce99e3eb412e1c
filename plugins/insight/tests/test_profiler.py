"""Profiler: per-op kernel times in PyNative and Graph mode, the pool's timeline, a Chrome
trace Perfetto opens, the op table."""
import csv
import json

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler import ops
from sporeling.runtime import events

from sporeling.insight import Profiler, ProfilerError


def _x_events(trace):
    return [e for e in trace["traceEvents"] if e["ph"] == "X"]


@pytest.mark.parametrize("mode, cat", [(sx.PYNATIVE_MODE, "PyNative"), (sx.GRAPH_MODE, "Graph")])
def test_a_training_step_gives_a_valid_trace_with_ops_and_memory_counters(tmp_path, mlp_step,
                                                                          mode, cat):
    step, _ = mlp_step
    step(mode)  # compiled (Graph mode) outside the profile
    with Profiler(output_path=tmp_path, memory_sample_ms=0) as prof:
        step(mode)
        step(mode)
    paths = prof.analyse()
    assert paths["trace"] == tmp_path / "profiler" / "trace.json"
    trace = json.loads(paths["trace"].read_text())  # valid JSON
    kernels = _x_events(trace)
    names = {e["name"] for e in kernels}
    assert {"matmul", "transpose"} <= names
    assert {e["cat"] for e in kernels} == {cat}
    # per step: 2 forward, 2 weight gradients, 1 input gradient
    assert sum(e["name"] == "matmul" for e in kernels) == 2 * 5
    assert all(e["dur"] >= 0 and e["ts"] >= 0 for e in kernels)
    # the fields the Trace Event Format requires of each phase
    for e in trace["traceEvents"]:
        assert {"name", "ph", "pid"} <= set(e) and e["ph"] in "XCM"
        if e["ph"] == "X":
            assert {"ts", "dur", "tid"} <= set(e)
        if e["ph"] == "C":
            assert "ts" in e and all(isinstance(v, float) for v in e["args"].values())
    ts = [e["ts"] for e in kernels]
    assert ts == sorted(ts)
    memory = [e for e in trace["traceEvents"] if e["ph"] == "C" and e["name"] == "memory default"]
    assert memory, "no memory counter events"
    assert all(0 <= e["args"]["in_use_MB"] <= e["args"]["peak_MB"] for e in memory)
    frag = [e for e in trace["traceEvents"] if e["name"] == "fragmentation default"]
    assert frag and all(0.0 <= e["args"]["fragmentation"] <= 1.0 for e in frag)
    rows = list(csv.DictReader(paths["op_summary"].open()))
    assert {r["op"] for r in rows} == names and all(r["mode"] == cat for r in rows)
    assert sum(float(r["share"]) for r in rows) == pytest.approx(1.0)


def test_the_op_table_sums_calls_per_op():
    x = np.ones((8, 8), np.float32)
    with Profiler(output_path="unused") as prof:
        for _ in range(3):
            ops.relu(ops.matmul(x, x))
    rows = {r["op"]: r for r in prof.op_table()}
    assert rows["matmul"]["calls"] == 3 and rows["relu"]["calls"] == 3
    r = rows["matmul"]
    assert r["min_us"] <= r["mean_us"] <= r["max_us"]
    assert r["total_us"] == pytest.approx(3 * r["mean_us"])


def test_memory_peak_matches_the_pool_and_sampling_reads_its_fragmentation(tmp_path):
    from sporeling.runtime import get_backend
    pool = get_backend().pool
    pool.reset_peak()
    with Profiler(output_path=tmp_path) as prof:
        a = ops.exp(np.ones((256, 256), np.float32))  # 256 KiB
        del a
    stats = pool.stats()
    assert max(p for *_, p in prof.memory) == stats.peak
    assert prof.fragmentation[-1][2] == pytest.approx(stats.fragmentation)


def test_stop_detaches_and_nothing_is_recorded_after_it():
    prof = Profiler(output_path="unused")
    ops.exp(np.ones(2, np.float32))
    prof.stop()
    prof.stop()
    n = len(prof.kernels)
    ops.exp(np.ones(2, np.float32))
    assert n == 1 and len(prof.kernels) == 1
    assert events.kernel_listeners == [] and events.memory_listeners == []


def test_start_profile_false_waits_for_start():
    prof = Profiler(output_path="unused", start_profile=False, profile_memory=False)
    ops.exp(np.ones(2, np.float32))
    assert prof.kernels == []
    with prof:
        ops.exp(np.ones(2, np.float32))
    assert len(prof.kernels) == 1 and prof.memory == []


def test_two_profilers_at_once_is_an_error_naming_the_first():
    with Profiler(output_path="first"):
        with pytest.raises(ProfilerError, match="another profiler is running.*first"):
            Profiler(output_path="second")


def test_bad_sampling_interval_is_refused():
    with pytest.raises(ProfilerError, match="memory_sample_ms.*>= 0.*-1"):
        Profiler(memory_sample_ms=-1, start_profile=False)
