"""How to evaluate a fused elementwise chain: NumPy kernels writing into reused ``out=``
buffers (the ``fused_elementwise`` kernel) vs numexpr (blocked, multithreaded) vs the
unfused graph (one kernel and one fresh pool buffer per op).

    python bench/fusion.py [--sizes 1000 100000 4000000] [--repeat 30]

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
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.passes import optimize


def chain(x, y):
    return ops.add(ops.sub(ops.mul(ops.tanh(ops.add(ops.mul(x, 0.5), y)), x),
                           ops.mul(y, y)), 1.0)


def median_us(fn, repeat: int) -> float:
    fn()  # warm: caches, pool blocks
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times) * 1e6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 100_000, 4_000_000])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    try:
        import numexpr
    except ImportError:
        numexpr = None
    print(f"{'elements':>10} {'unfused':>10} {'fused':>10} {'numexpr':>10} "
          f"{'fused/unf':>10} {'ne/fused':>10}")
    for n in args.sizes:
        rng = np.random.default_rng(0)
        x, y = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
        graph = make_graph(chain, x, y)
        fused = optimize(graph, "O1")
        assert fused.primitive_counts() == {"fused_elementwise": 1}
        expected = evaluate(graph, x, y)[0]
        np.testing.assert_allclose(evaluate(fused, x, y)[0], expected, rtol=1e-6, atol=1e-6)
        t_unfused = median_us(lambda: evaluate(graph, x, y), args.repeat)
        t_fused = median_us(lambda: evaluate(fused, x, y), args.repeat)
        t_ne = float("nan")
        if numexpr is not None:
            out = np.empty_like(x)
            half, one = np.float32(0.5), np.float32(1.0)
            text = "tanh(x * half + y) * x - y * y + one"
            env = {"x": x, "y": y, "half": half, "one": one}
            numexpr.evaluate(text, local_dict=env, out=out)
            np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
            t_ne = median_us(lambda: numexpr.evaluate(text, local_dict=env, out=out),
                             args.repeat)
        print(f"{n:>10} {t_unfused:>10.0f} {t_fused:>10.0f} {t_ne:>10.0f} "
              f"{t_fused / t_unfused:>10.2f} {t_ne / t_fused:>10.2f}")


if __name__ == "__main__":
    main()
