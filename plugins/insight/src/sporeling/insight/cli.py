"""``sporeling insight report DIR [--out FILE]``: the HTML report of a run's folder."""
from __future__ import annotations

import argparse

__all__ = ["HELP", "configure", "run"]

HELP = "training insight: `sporeling insight report DIR` writes an HTML report"


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="insight_command", metavar="ACTION", required=True)
    report = sub.add_parser("report", help="HTML page with plots of DIR's event files and "
                                           "profiler traces")
    report.add_argument("dir", help="a folder with event files and/or profiler/trace.json")
    report.add_argument("--out", help="the page (default: DIR/report.html)")


def run(args: argparse.Namespace) -> int:
    from .report import write_report
    path = write_report(args.dir, args.out)
    print(f"wrote {path}")
    return 0
