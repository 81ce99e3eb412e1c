"""The memory pool of another git revision against this checkout's, in one process.

Loads ``memory/pool.py`` and ``memory/buffer.py`` of ``--rev`` (by default the commit
before the small-buffer fast path) next to the current ones, and times an allocate + free
of a small buffer (each pool's own ``allocate``; the buffer dies at once, as an op's
discarded result does) against ``np.empty``, with ``bench/timing.compare``: blocks of
calls, 0.3 s idle before each, the order alternating. Both pools start warm (one block,
the extent cached), so this is the per-op cost a training loop sees.

    python bench/pool_ab.py [--rev f700713^] [--shape 8] [--clock cpu]

``--clock cpu`` counts this thread's CPU time only (a machine shared with other jobs).
"""
from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from timing import clock_named, compare, print_table, ratio  # noqa: E402

from sporeling.runtime.memory import MemoryPool  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MEMORY = "packages/runtime/src/sporeling/runtime/memory"
PACKAGE = "sporeling.runtime.memory"


def _load(name: str, path: Path):
    """``path`` as module ``sporeling.runtime.memory.<name>`` (its relative imports work)."""
    spec = importlib.util.spec_from_file_location(f"{PACKAGE}.{name}", path)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = PACKAGE
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def pool_at(rev: str):
    """``MemoryPool`` as it was at ``rev`` (its buffer module loaded under another name)."""
    def show(file):
        return subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{MEMORY}/{file}"],
                              check=True, capture_output=True, text=True).stdout
    folder = Path(tempfile.mkdtemp(prefix="pool_ab_"))
    (folder / "buffer.py").write_text(show("buffer.py"))
    (folder / "pool.py").write_text(show("pool.py").replace(
        "from .buffer import", "from ._ab_buffer import"))
    _load("_ab_buffer", folder / "buffer.py")
    return _load("_ab_pool", folder / "pool.py").MemoryPool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="f700713^", help="the revision to compare with")
    parser.add_argument("--shape", type=int, nargs="+", default=[8])
    parser.add_argument("--calls", type=int, default=2000, help="calls per block")
    parser.add_argument("--blocks", type=int, default=15)
    parser.add_argument("--clock", choices=["wall", "cpu"], default="cpu")
    args = parser.parse_args()
    shape, f32 = tuple(args.shape), np.dtype(np.float32)
    old, new = pool_at(args.rev)(block_size="1MB"), MemoryPool(block_size="1MB")
    contenders = {"np.empty": lambda: np.empty(shape, f32),
                  f"pool at {args.rev}": lambda: old.allocate(shape, f32),
                  "pool (this checkout)": lambda: new.allocate(shape, f32)}
    times = compare(contenders, steps=args.calls, blocks=args.blocks,
                    clock=clock_named(args.clock))
    base, before = times["np.empty"], times[f"pool at {args.rev}"]
    print(f"allocate + free of {shape} float32, {args.clock} clock, {args.blocks} blocks "
          f"of {args.calls}")
    print_table(["allocator", "per call: median (low-high)", "x np.empty", "x old pool"],
                [[name, t.us(), ratio(t, base), ratio(t, before)]
                 for name, t in times.items()])


if __name__ == "__main__":
    main()
