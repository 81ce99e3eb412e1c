"""Core's built-in plugin: the context keys every install has, and ``sporeling plugins``."""
from __future__ import annotations

import sys
import warnings

from . import hookspecs
from .context import GRAPH_MODE, PYNATIVE_MODE
from .hooks import DISABLE_ENV, PluginWarning, get_plugin_host, impl

HOOKSPECS = hookspecs

JIT_LEVELS = ("O0", "O1", "O2")
"""``jit_level``'s values, from least to most optimised (what each does: the compiler's
``sporeling.compiler.jit_levels``)."""


def _positive_int(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError("must be a positive int")
    return value


def _non_negative_int(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("must be an int >= 0")
    return value


def _target(value) -> str:
    if not isinstance(value, str) or not value.strip():
        raise TypeError("must be a non-empty string")
    return value.strip().upper()


@impl
def sporeling_add_context_options(options) -> None:
    options.add_option("mode", PYNATIVE_MODE, doc="PyNative (eager) or Graph (compiled).",
                       valid="GRAPH_MODE (0) or PYNATIVE_MODE (1)",
                       choices={"GRAPH_MODE": GRAPH_MODE, "PYNATIVE_MODE": PYNATIVE_MODE})
    options.add_option("device_target", "CPU", convert=_target,
                       doc="Which backend runs ops; the runtime lists the installed ones.",
                       valid="a backend target name such as 'CPU'")
    options.add_option("device_id", 0, convert=_non_negative_int,
                       doc="Which device of the target.", valid="an int >= 0")
    options.add_option("max_call_depth", 1000, convert=_positive_int,
                       doc="Deepest nesting of calls a compiled graph may have.",
                       valid="a positive int")
    options.add_option("jit_level", "O2", choices={level: level for level in JIT_LEVELS},
                       doc="How Graph mode compiles (MindSpore's names): O0 kernel by kernel "
                           "with only the passes correctness needs, O1 also the optimising "
                           "passes (fusion...), O2 (the default) O1's passes and native "
                           "code for the fused kernels where a code generator is installed "
                           "(tvm), else O1.",
                       valid='"O0", "O1" or "O2"')


def _print_plugins(args) -> int:
    host = get_plugin_host()
    out = sys.stdout
    with warnings.catch_warnings():  # the failures are listed below, once
        warnings.simplefilter("ignore", PluginWarning)
        host.collect_declared()  # a clash shows when a registry is collected
    print(f"loaded ({len(host.loaded)}):", file=out)
    for p in host.loaded:
        print(f"  {p.name:<14} {p.distribution} {p.version}  [{p.module}]", file=out)
        print(f"  {'':<14} hooks: {', '.join(p.hooks) or '-'}", file=out)
    if host.failed:
        print(f"failed ({len(host.failed)}):", file=out)
        for f in host.failed:
            print(f"  {f.name:<14} {f.distribution} {f.version}  {f.error}", file=out)
            if args.verbose:
                print(f.traceback, file=out)
        example = ",".join(f.name for f in host.failed)
        print(f"to disable a plugin (and this message): {DISABLE_ENV}={example} "
              f"(comma-separated entry-point names)", file=out)
    if host.disabled:
        print(f"disabled by {DISABLE_ENV}: {', '.join(host.disabled)}", file=out)
    return 1 if host.failed else 0


@impl
def sporeling_add_commands(commands) -> None:
    commands.add_command(
        "plugins", help="list loaded plugins, their distribution and hooks, and failures",
        run=_print_plugins,
        configure=lambda p: p.add_argument("-v", "--verbose", action="store_true",
                                           help="show tracebacks of failed plugins"))
