"""``sporeling insight report DIR``: one static HTML page from a run's folder.

It reads every TensorBoard event file under DIR (:mod:`.events_reader`) and every profiler
trace (``**/profiler/trace.json``, written by :meth:`Profiler.analyse`), and writes a page
with matplotlib plots embedded as base64 PNGs -- the scalar curves (loss, learning rate,
metrics), the kernel time per op (PyNative and Graph mode), and each memory pool's bytes in
use, peak and fragmentation over time -- plus the op table. The page needs no server and
no network (open it from disk).
"""
from __future__ import annotations

import base64
import html
import io
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402

from sporeling.core import SporelingError  # noqa: E402

from .events_reader import RunData, read_run  # noqa: E402
from .trace import read_trace, trace_counters, trace_ops  # noqa: E402

__all__ = ["write_report", "ReportError", "TOP_OPS"]

TOP_OPS = 15  # ops drawn in the breakdown; the rest summed as "other"


class ReportError(SporelingError, ValueError):
    """A folder with nothing to report, or one that does not exist."""


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _img(png: str, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{png}">'


def scalar_figure(run: RunData) -> str:
    tags = sorted(run.scalars)
    cols = min(3, len(tags))
    rows = -(-len(tags) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3 * rows), squeeze=False)
    for ax, tag in zip(axes.flat, tags):
        steps, values = zip(*run.scalars[tag])
        ax.plot(steps, values, marker="." if len(steps) < 50 else None)
        ax.set_title(tag)
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(tags):]:
        ax.axis("off")
    fig.tight_layout()
    return _png(fig)


def op_rows(traces: list[dict]) -> list[tuple[str, str, int, float]]:
    """``(op, mode, calls, total ms)`` over every trace, the most expensive first."""
    totals: dict[tuple[str, str], list] = {}
    for trace in traces:
        for name, mode, dur in trace_ops(trace):
            entry = totals.setdefault((name, mode), [0, 0.0])
            entry[0] += 1
            entry[1] += dur / 1000.0
    return sorted(((n, m, c, t) for (n, m), (c, t) in totals.items()), key=lambda r: -r[3])


def op_figure(rows) -> str:
    shown = rows[:TOP_OPS]
    rest = sum(r[3] for r in rows[TOP_OPS:])
    labels = [f"{n} ({m})" for n, m, _, _ in shown] + (["other"] if rest else [])
    times = [t for *_, t in shown] + ([rest] if rest else [])
    colors = ["tab:orange" if m == "Graph" else "tab:blue" for _, m, _, _ in shown] + \
        (["tab:gray"] if rest else [])
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(labels) + 1))
    ax.barh(labels[::-1], times[::-1], color=colors[::-1])
    ax.set_xlabel("kernel time (ms), all calls")
    ax.set_title("time per op (blue: PyNative, orange: Graph mode)")
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def memory_figure(traces: list[dict]) -> str | None:
    memory = {}
    frag = {}
    for trace in traces:
        memory.update(trace_counters(trace, "memory "))
        frag.update(trace_counters(trace, "fragmentation "))
    if not memory:
        return None
    fig, (ax, ax_frag) = plt.subplots(2, 1, figsize=(9, 5.5), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 1]})
    for name, points in sorted(memory.items()):
        ts = [t / 1000.0 for t, _ in points]
        ax.step(ts, [a["in_use_MB"] for _, a in points], where="post", label=f"{name}: in use")
        ax.step(ts, [a["peak_MB"] for _, a in points], where="post", linestyle="--",
                label=f"{name}: peak")
    ax.set_ylabel("MB")
    ax.set_title("memory pool over time")
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    for name, points in sorted(frag.items()):
        ax_frag.plot([t / 1000.0 for t, _ in points], [a["fragmentation"] for _, a in points],
                     marker=".", label=name)
    ax_frag.set_ylabel("fragmentation")
    ax_frag.set_xlabel("time since the profiler started (ms)")
    ax_frag.set_ylim(0, 1)
    ax_frag.grid(alpha=0.3)
    fig.tight_layout()
    return _png(fig)


def _op_table(rows) -> str:
    total = sum(r[3] for r in rows) or 1.0
    body = "".join(
        f"<tr><td>{html.escape(n)}</td><td>{m}</td><td>{c}</td><td>{t:.3f}</td>"
        f"<td>{1000 * t / c:.1f}</td><td>{t / total:.1%}</td></tr>" for n, m, c, t in rows[:40])
    return ("<table><tr><th>op</th><th>mode</th><th>calls</th><th>total ms</th>"
            f"<th>mean µs</th><th>share</th></tr>{body}</table>")


_STYLE = """body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}img{max-width:100%}"""


def write_report(folder: str | os.PathLike, out: str | os.PathLike | None = None) -> Path:
    """Write the report of ``folder`` to ``out`` (default ``folder/report.html``)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ReportError("no such folder", op="insight report", expected="a run's folder",
                          got=str(folder))
    run = read_run(folder)
    trace_paths = sorted(folder.rglob("profiler/trace.json"))
    traces = [read_trace(p) for p in trace_paths]
    if not run.scalars and not traces and not run.histograms and not run.images:
        raise ReportError("nothing to report", op="insight report", where=str(folder),
                          expected="TensorBoard event files (SummaryRecord, SummaryCollector) "
                                   "or profiler/trace.json (Profiler.analyse)",
                          got="neither")
    parts = [f"<h1>Sporeling run: {html.escape(str(folder))}</h1>",
             f"<p>{len(run.files)} event file(s), {len(trace_paths)} profiler trace(s)"
             f"{f', graph of {run.graph_nodes} nodes' if run.graph_nodes else ''}; "
             f"histograms: {', '.join(sorted(run.histograms)) or 'none'}; images: "
             f"{', '.join(sorted(run.images)) or 'none'}.</p>"]
    if run.scalars:
        parts += ["<h2>Scalars</h2>", _img(scalar_figure(run), "scalar curves")]
    rows = op_rows(traces)
    if rows:
        parts += ["<h2>Kernel time per op</h2>", _img(op_figure(rows), "op time breakdown"),
                  _op_table(rows)]
    mem = memory_figure(traces)
    if mem:
        parts += ["<h2>Memory</h2>", _img(mem, "memory over time")]
    page = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Sporeling insight"
            f"</title><style>{_STYLE}</style></head><body>{''.join(parts)}</body></html>")
    out = Path(out) if out is not None else folder / "report.html"
    out.write_text(page, encoding="utf-8")
    return out
