"""``sporeling kernels``: which provider serves each primitive on a backend.

    $ sporeling kernels                  # the backend the context chooses for its target
    $ sporeling kernels --backend numpy
    $ sporeling kernels --provider onednn   # only what oneDNN serves
"""
from __future__ import annotations

from collections import Counter

from .backend import get_backend
from .kernel_registry import get_kernels

__all__ = ["add_kernels_command", "providers"]


def providers(backend) -> dict[str, str]:
    """Primitive -> the name of the backend whose kernel serves it on ``backend``."""
    kernels = get_kernels()
    names = set(kernels.primitives(backend.name))
    below = getattr(backend, "below", None)
    if below:
        names |= set(kernels.primitives(below))
    return {p: backend.provider(p) for p in sorted(names)}


def _configure(parser) -> None:
    parser.add_argument("--backend", help="a backend name or device target (default: the "
                        "one set_context chooses)")
    parser.add_argument("--provider", help="list only the primitives this provider serves")


def _run(args) -> int:
    backend = get_backend(args.backend) if args.backend else get_backend()
    table = providers(backend)
    counts = Counter(table.values())
    summary = ", ".join(f"{name} {n}" for name, n in counts.most_common())
    print(f"backend {backend.name!r} (device target {backend.device_target}): "
          f"{len(table)} primitives; served by {summary or 'none'}")
    shown = {p: v for p, v in table.items() if args.provider in (None, v)}
    width = max((len(p) for p in shown), default=9)
    for primitive, provider in shown.items():
        memory = get_kernels().memory(provider, primitive).kind
        print(f"  {primitive:<{width}}  {provider:<8}  {memory}")
    return 0


def add_kernels_command(commands) -> None:
    commands.add_command("kernels", help="which provider (oneDNN, NumPy, ...) serves each "
                         "primitive on a backend", run=_run, configure=_configure)
