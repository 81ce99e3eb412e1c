"""``sporeling insight report DIR``: a static HTML page with embedded PNG plots built from
the run's event files and profiler traces; the event-file reader behind it."""
import base64
import re

import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.core.cli import main

from sporeling.insight import Profiler, ReportError, SummaryRecord, write_report
from sporeling.insight.events_reader import EventFileError, event_files, read_run


def _run_folder(folder):
    with SummaryRecord(folder / "summary") as rec:
        for step in range(5):
            rec.add_value("scalar", "loss", 1.0 / (step + 1))
            rec.add_value("histogram", "w", np.arange(10.0) * step)
            rec.record(step)
    x = np.ones((16, 16), np.float32)
    with Profiler(output_path=folder) as prof:
        for _ in range(3):
            ops.relu(ops.matmul(x, x))
    prof.analyse()


def _pngs(page: str) -> list[bytes]:
    return [base64.b64decode(b) for b in re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)",
                                                   page)]


def test_the_reader_gets_scalars_back_in_step_order(tmp_path):
    _run_folder(tmp_path)
    run = read_run(tmp_path)
    assert [(s, round(v, 4)) for s, v in run.scalars["loss"]] == [
        (0, 1.0), (1, 0.5), (2, 0.3333), (3, 0.25), (4, 0.2)]
    assert run.histograms == {"w": 5}


def test_the_report_embeds_loss_op_and_memory_plots_and_the_op_table(tmp_path):
    _run_folder(tmp_path)
    page = write_report(tmp_path).read_text()
    assert (tmp_path / "report.html").exists()
    pngs = _pngs(page)
    assert len(pngs) == 3 and all(p.startswith(b"\x89PNG\r\n\x1a\n") for p in pngs)
    for alt in ("scalar curves", "op time breakdown", "memory over time"):
        assert f'alt="{alt}"' in page
    assert re.search(r"<td>matmul</td><td>PyNative</td><td>3</td>", page)
    assert not re.search(r'(src|href)="https?:', page)  # nothing fetched from a server


def test_the_command_writes_the_page_where_asked(tmp_path, capsys):
    _run_folder(tmp_path)
    out = tmp_path / "page.html"
    assert main(["insight", "report", str(tmp_path), "--out", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert len(_pngs(out.read_text())) == 3


def test_an_empty_folder_is_an_error_saying_what_was_expected(tmp_path, capsys):
    assert main(["insight", "report", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "nothing to report" in err and "trace.json" in err and str(tmp_path) in err
    with pytest.raises(ReportError, match="no such folder"):
        write_report(tmp_path / "missing")


def test_a_corrupted_event_file_names_the_file_and_offset(tmp_path):
    _run_folder(tmp_path)
    path = event_files(tmp_path)[0]
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF  # the last record's data checksum
    path.write_bytes(bytes(data))
    with pytest.raises(EventFileError, match=f"bad data checksum.*{path.name}, byte \\d+"):
        read_run(tmp_path)
