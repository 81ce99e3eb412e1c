"""oneDNN's matmul kernel against NumPy's (OpenBLAS) at the MLP 784-512-512-10 (batch 128)
shapes: the forward products and the backward ones, whose transposed operands are views
(``x.T @ g``, ``g @ W.T``) that oneDNN reads through strided descriptors.

Contenders per shape: NumPy's kernel with BLAS on 1 thread and on 2 threads
(``threadpoolctl``), and oneDNN's kernel on its OpenMP threads (``OMP_NUM_THREADS``, default
every core) with BLAS held at 1 thread (the onednn backend's policy). Blocks of steps, 0.3 s
idle before each (``timing.compare``). The last column says which the registered kernel
runs (products under ``MIN_MACS`` multiply-adds go to NumPy's).

    python bench/onednn_matmul.py [--steps 50] [--blocks 7]
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, os.path.dirname(__file__))
from timing import compare  # noqa: E402

from sporeling.runtime import get_backend  # noqa: E402


def shapes(rng):
    def r(*s):
        return rng.standard_normal(s).astype(np.float32)
    x, h, w1, w2, w3 = r(128, 784), r(128, 512), r(784, 512), r(512, 512), r(512, 10)
    g, g3 = r(128, 512), r(128, 10)
    return {"x @ W1 (128x784 @ 784x512)": (x, w1),
            "h @ W2 (128x512 @ 512x512)": (h, w2),
            "h @ W3 (128x512 @ 512x10)": (h, w3),
            "g @ W1.T (128x512 @ 512x784)": (g, w1.T),
            "x.T @ g (784x128 @ 128x512)": (x.T, g),
            "g @ W2.T (128x512 @ 512x512)": (g, w2.T),
            "h.T @ g (512x128 @ 128x512)": (h.T, g),
            "g3 @ W3.T (128x10 @ 10x512)": (g3, w3.T),
            "h.T @ g3 (512x128 @ 128x10)": (h.T, g3)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--blocks", type=int, default=7)
    args = parser.parse_args(argv)
    from sporeling.onednn.kernels.matmul import MIN_MACS, _macs, onednn_matmul
    numpy, onednn = get_backend("numpy"), get_backend("onednn")
    print(f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, "
          f"{os.cpu_count()} cores; per call: median block / best block, microseconds")
    print(f"{'product':30s} {'BLAS 1 thread':>14s} {'BLAS 2 threads':>14s} {'oneDNN':>14s}"
          f"  oneDNN/best BLAS (medians)  kernel")
    for name, (a, b) in shapes(np.random.default_rng(0)).items():
        np.testing.assert_allclose(onednn_matmul(onednn, a, b), a @ b, rtol=1e-4, atol=1e-3)
        t = compare({"blas1": lambda: numpy.run("matmul", a, b),
                     "blas2": lambda: numpy.run("matmul", a, b),
                     "onednn": lambda: onednn_matmul(onednn, a, b)},
                    steps=args.steps, blocks=args.blocks, idle=0.3,
                    scopes={"blas1": lambda: threadpool_limits(1, user_api="blas"),
                            "blas2": lambda: threadpool_limits(2, user_api="blas"),
                            "onednn": lambda: threadpool_limits(1, user_api="blas")})
        cells = "".join(f" {t[k].median * 1e6:7.0f}/{t[k].low * 1e6:<6.0f}"
                        for k in ("blas1", "blas2", "onednn"))
        best = min(t["blas1"].median, t["blas2"].median)
        served = "oneDNN" if _macs(a, b) >= MIN_MACS else "NumPy"
        print(f"{name:30s}{cells}  {t['onednn'].median / best:14.2f}  {served}", flush=True)


if __name__ == "__main__":
    main()
