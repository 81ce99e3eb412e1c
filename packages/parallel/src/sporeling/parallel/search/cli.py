"""``sporeling parallel plan script.py``: the strategy per op and the cluster estimates.

The script is run (not as ``__main__``, so its training code under
``if __name__ == "__main__":`` stays still) and must define ``network`` -- a Cell or a
function -- and ``inputs``: example arrays, or shapes (tuples of ints, float32 assumed) or
``(shape, dtype)`` pairs, nothing is allocated for them. A function's trained parameters
are the argument indices in ``params`` (a Cell's are its Parameters).

    sporeling parallel plan model.py --devices 64 --search-mode dynamic_programming
    sporeling parallel plan model.py --devices 1024 --flops 3e14 --bandwidth 2e10 \
        --latency 1e-5 --memory 64e9       # a cluster's rates instead of this machine's
"""
from __future__ import annotations

import argparse
import json
import runpy
import sys
from dataclasses import replace

import numpy as np

from ..operator.errors import ShardingError
from .api import MODES, format_table, strategy_table
from .cost import Machine, measure

__all__ = ["add_plan_command", "plan_script"]


def _example(spec):
    if isinstance(spec, np.ndarray) or hasattr(spec, "asnumpy"):
        return spec
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], (tuple, list)):
        shape, dtype = spec
    elif isinstance(spec, (tuple, list)) and all(isinstance(n, int) for n in spec):
        shape, dtype = spec, np.float32
    else:
        raise ShardingError("an input of the plan script is not understood", op="plan",
                            expected="an array, a shape (tuple of ints) or (shape, dtype)",
                            got=repr(spec)[:80])
    return np.broadcast_to(np.zeros((), np.dtype(dtype)), tuple(shape))  # no memory


def plan_script(path: str, devices: int, mode: str | None = None, machine=None):
    """Run the script at ``path`` and search strategies for its ``network`` on ``inputs``
    (``machine``: the rates of the target cluster; default: measured here)."""
    names = runpy.run_path(path, run_name="__sporeling_plan__")
    missing = [n for n in ("network", "inputs") if n not in names]
    if missing:
        raise ShardingError("the plan script must define `network` and `inputs`", op="plan",
                            expected="module-level names network, inputs",
                            got=f"{', '.join(missing)} missing", where=path)
    args = [_example(s) for s in names["inputs"]]
    return strategy_table(names["network"], *args, device_num=devices, mode=mode,
                          params=names.get("params"), machine=machine)


def _configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="parallel_command", metavar="SUBCOMMAND")
    plan = sub.add_parser("plan", help="search a parallel strategy for a script's network "
                                       "and show it per op with estimated step time, "
                                       "communication and memory per device")
    plan.add_argument("script", help="a Python file defining `network` and `inputs`")
    plan.add_argument("--devices", type=int, default=8,
                      help="device count to plan for, a power of two (default 8)")
    plan.add_argument("--search-mode", choices=MODES, default=None,
                      help="search algorithm (default: the context's search_mode)")
    plan.add_argument("--json", action="store_true", help="print the table as JSON")
    rates = plan.add_argument_group("target machine (default: measured on this one)")
    rates.add_argument("--flops", type=float, help="FLOP/s of one device")
    rates.add_argument("--bandwidth", type=float, help="bytes/s one device sends")
    rates.add_argument("--latency", type=float, help="seconds per collective step")
    rates.add_argument("--memory", type=float, help="bytes of memory per device")


def _run(args: argparse.Namespace) -> int:
    if getattr(args, "parallel_command", None) != "plan":
        print("usage: sporeling parallel plan script.py [--devices N] [--search-mode M]",
              file=sys.stderr)
        return 2
    machine = None
    given = {k: getattr(args, k) for k in ("flops", "bandwidth", "latency", "memory")
             if getattr(args, k) is not None}
    if given:
        machine = replace(measure() if len(given) < 3 else Machine(), **given)
    result = plan_script(args.script, args.devices, args.search_mode, machine)
    if args.json:
        rows = [{**row, "strategy": [list(s) for s in row["strategy"]],
                 "shapes": [list(s) for s in row["shapes"]]} for row in result.table()]
        print(json.dumps({"devices": result.device_num, "search_mode": result.mode,
                          "search_time_s": result.search_time_s,
                          "estimate": result.estimate, "ops": rows}, indent=1))
    else:
        print(format_table(result))
    return 0


def add_plan_command(commands) -> None:
    """Register ``sporeling parallel`` (its ``plan`` subcommand) on core's command table."""
    commands.add_command("parallel", help="operator-parallel planning (plan: the strategy "
                                          "search for a script's network)",
                         run=_run, configure=_configure)
