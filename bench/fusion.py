"""How to evaluate a fused elementwise chain: NumPy kernels writing into reused ``out=``
buffers (the ``fused_elementwise`` kernel) vs numexpr (blocked, multithreaded) vs the
unfused graph (one kernel and one fresh pool buffer per op).

    python bench/fusion.py [--sizes 1000 100000 4000000] [--blocks 5]

Timed with ``bench/timing.compare``: blocks of calls, 0.3 s idle before each, the order
alternating; PyTorch eager (optional) computes the same chain as the "x torch" yardstick.

The chain is ``tanh(x * 0.5 + y) * x - y * y + 1`` (6 ops; roughly GELU-shaped) in
float32. numexpr is optional (``pip install numexpr``); the NumPy kernel is what Sporeling
ships. On the machine that chose (2 cores, NumPy 2.4, numexpr 2.14 without VML), median
microseconds per call:

    elements    unfused   fused NumPy   numexpr
    1e3            37          26          25
    1e5           150         135        1840
    4e6          9100        8300       72000   (NUMEXPR_NUM_THREADS=1: 140000)

numexpr matches the NumPy kernel on small arrays (both are dispatch-bound) and is 9-13x
slower on large ones here: without VML its float32 transcendental functions are slow (tanh
alone dominates), and even plain arithmetic (``x*h + y*y - o``, 4e6) took 5.7 ms against
3.3 ms for NumPy ufuncs with ``out=``. It would also need a string translation of every
primitive and a new dependency. Kept: NumPy with ``out=``. A faster evaluator can replace
the ``fused_elementwise`` kernel from a plugin (``sporeling_add_kernels``, replace=True).

Where installed, the generated loops of ``plugins/tvm_backend`` (TVM) and
``plugins/numba_backend`` run too, lowered as Graph mode lowers them (their first call,
the compile, is not timed).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from timing import compare, print_table, ratio  # noqa: E402

from sporeling.compiler import ops  # noqa: E402
from sporeling.compiler.ir import evaluate, make_graph  # noqa: E402
from sporeling.compiler.passes import optimize  # noqa: E402

try:
    import torch
    torch.set_num_threads(2)
except ImportError:  # PyTorch is optional: only a yardstick
    torch = None


def chain(x, y):
    return ops.add(ops.sub(ops.mul(ops.tanh(ops.add(ops.mul(x, 0.5), y)), x),
                           ops.mul(y, y)), 1.0)


def contenders(n: int) -> dict:
    """The same chain on ``n`` float32 elements, each contender checked against the graph."""
    rng = np.random.default_rng(0)
    x, y = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    graph = make_graph(chain, x, y)
    fused = optimize(graph, "O1")
    assert fused.primitive_counts() == {"fused_elementwise": 1}
    expected = evaluate(graph, x, y)[0]
    np.testing.assert_allclose(evaluate(fused, x, y)[0], expected, rtol=1e-6, atol=1e-6)
    runs = {"unfused graph": lambda: evaluate(graph, x, y),
            "fused NumPy": lambda: evaluate(fused, x, y)}
    for backend, title in (("tvm", "fused TVM"), ("numba", "fused numba")):
        program = _compiled(fused, backend)  # the generated loop, as Graph mode runs it
        if program is not None:
            np.testing.assert_allclose(program(x, y)[0], expected, rtol=1e-5, atol=1e-5)
            runs[title] = lambda program=program: program(x, y)
    try:
        import numexpr
    except ImportError:
        numexpr = None
    if numexpr is not None:
        out = np.empty_like(x)
        env = {"x": x, "y": y, "half": np.float32(0.5), "one": np.float32(1.0)}
        text = "tanh(x * half + y) * x - y * y + one"
        numexpr.evaluate(text, local_dict=env, out=out)
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
        runs["numexpr"] = lambda: numexpr.evaluate(text, local_dict=env, out=out)
    if torch is not None:
        tx, ty = torch.from_numpy(x), torch.from_numpy(y)

        def torch_chain():
            return torch.tanh(tx * 0.5 + ty) * tx - ty * ty + 1.0
        np.testing.assert_allclose(torch_chain().numpy(), expected, rtol=1e-5, atol=1e-5)
        runs["pytorch eager"] = torch_chain
    return runs


def _compiled(graph, backend: str):
    """``graph`` lowered on ``backend`` (a plugin), or None where it is not installed."""
    from sporeling.compiler.lowering import lower
    from sporeling.runtime import get_backends
    if backend not in get_backends():
        return None
    from sporeling.runtime import get_backend
    return lower(graph, backend=get_backend(backend))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 100_000, 4_000_000])
    parser.add_argument("--blocks", type=int, default=5, help="timed blocks per contender")
    args = parser.parse_args()
    rows = []
    for n in args.sizes:
        steps = max(3, min(200, 2_000_000 // n))  # blocks of about the same length
        results = compare(contenders(n), steps=steps, blocks=args.blocks)
        fused, torch_t = results["fused NumPy"], results.get("pytorch eager")
        for name, t in results.items():
            rows.append([f"{n:,}", name, t.us(), ratio(t, fused), ratio(t, torch_t)])
    print_table(["elements", "contender", "per call: median (low-high)", "x fused",
                 "x torch"], rows)


if __name__ == "__main__":
    main()
