"""Backends side by side: Sporeling's NumPy and numba backends, with PyTorch eager.

(a) ``a * b + c`` on 10M float32 compiled in Graph mode (one ``fused_elementwise``),
    against the same expression in plain NumPy and in PyTorch;
(b) LeNet-5 on 1x28x28, batch 64, and (c) MLP 784-512-512-10, batch 128: one whole
    training step (forward, backward, SGD with momentum) in Graph mode per backend, against
    PyTorch eager. All contenders of a model start from the same weights and take the same
    steps; the last loss is printed as a check.

Blocks of steps, 0.3 s idle before each, contender order alternating (``bench/timing.py``);
per-step median over blocks with the lowest and highest block. The numba backend compiles
its kernels on first use (cached on disk): warm-up steps before timing absorb that; the
first-call times are printed separately.

    python bench/backends.py [--blocks 5 --steps 5]

Targets (issue 13): (a) numba >= 3x NumPy; (b) LeNet numba <= 1.5x torch; (c) MLP numba
<= 1.0x torch.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from reference.lenet import NumpyLeNet  # noqa: E402
from reference.mlp import NumpyMLP  # noqa: E402
from timing import compare, first_call as timed_first_call, print_table, ratio  # noqa: E402
from train_step import (LR, MOMENTUM, sporeling_lenet, sporeling_mlp, sporeling_step,  # noqa: E402
                        torch, torch_lenet, torch_mlp, torch_step)

import sporeling.expression as sx  # noqa: E402
from sporeling.compiler import ops  # noqa: E402
from sporeling.compiler.ir import make_graph  # noqa: E402
from sporeling.compiler.lowering import lower  # noqa: E402
from sporeling.compiler.passes import optimize  # noqa: E402
from sporeling.runtime import get_backend, get_backends  # noqa: E402

BACKENDS = tuple(b for b in ("numpy", "numba", "onednn") if b in get_backends())
PYNATIVE = tuple(b for b in ("numpy", "onednn") if b in get_backends())  # eager rows too


def fma_rows(blocks: int, steps: int, n: int = 10_000_000) -> list[list[str]]:
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(n, dtype=np.float32) for _ in range(3))
    graph = optimize(make_graph(lambda a, b, c: ops.add(ops.mul(a, b), c), a, b, c))
    contenders, first_call = {}, {}
    for name in BACKENDS:
        program = lower(graph, backend=get_backend(name))
        first_call[name] = timed_first_call(lambda p=program: p(a, b, c))
        contenders[f"sporeling graph, {name}"] = (lambda p=program: p(a, b, c)[0])
    out = np.empty_like(a)
    contenders["numpy a*b+c (out=)"] = lambda: np.add(np.multiply(a, b, out=out), c, out=out)
    if torch is not None:
        ta, tb, tc = (torch.from_numpy(v) for v in (a, b, c))
        contenders["pytorch eager"] = lambda: torch.addcmul(tc, ta, tb)
    results = compare(contenders, steps=steps, blocks=blocks)
    expected = a * b + c
    for name, t in results.items():
        got = t.last.numpy() if hasattr(t.last, "numpy") else t.last
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)
    base = results["sporeling graph, numpy"]
    torch_t = results.get("pytorch eager")
    gbs = 4 * n * 4 / 1e9  # three reads, one write
    return [["a*b+c, 10M f32", name, t.ms(), ratio(t, base), ratio(t, torch_t),
             f"{gbs / t.median:.1f} GB/s"] for name, t in results.items()], first_call


def model_rows(blocks: int, steps: int) -> tuple[list[list[str]], dict]:
    rng = np.random.default_rng(0)
    rows, first_steps = [], {}
    for label, ref_cls, build, torch_build, x_shape, batch in [
            ("LeNet-5 1x28x28, b64", NumpyLeNet, sporeling_lenet, torch_lenet, (1, 28, 28), 64),
            ("MLP 784-512-512-10, b128", NumpyMLP, sporeling_mlp, torch_mlp, (784,), 128)]:
        x = rng.standard_normal((batch,) + x_shape).astype(np.float32)
        y = rng.integers(0, 10, batch).astype(np.int32)
        ref = ref_cls(lr=LR, momentum=MOMENTUM)
        contenders, scopes = {}, {}
        for backend in BACKENDS:
            step = sporeling_step(build(ref))
            name = f"sporeling graph, {backend}"
            scope = (lambda b=backend: sx.context(mode=sx.GRAPH_MODE, backend=b))
            with scope():  # compiles (and, for numba, compiles or loads its kernels)
                first_steps[(label, backend)] = timed_first_call(lambda s=step: s(x, y))
            contenders[name] = (lambda s=step: s(x, y))
            scopes[name] = scope
        for backend in PYNATIVE:
            step = sporeling_step(build(ref))
            name = f"sporeling pynative, {backend}"
            contenders[name] = (lambda s=step: s(x, y))
            scopes[name] = (lambda b=backend: sx.context(mode=sx.PYNATIVE_MODE, backend=b))
        if torch is not None:
            torch_fn = torch_step(torch_build(ref))
            torch_fn(x, y)  # the same number of steps as the others before timing
            contenders["pytorch eager"] = lambda: torch_fn(x, y)
        results = compare(contenders, steps=steps, blocks=blocks, scopes=scopes)
        torch_t, base = results.get("pytorch eager"), results["sporeling graph, numpy"]
        for name, t in results.items():
            rows.append([label, name, t.ms(), ratio(t, base), ratio(t, torch_t),
                         f"loss {t.last:.5f}"])
    return rows, first_steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=5, help="timed blocks per contender")
    parser.add_argument("--steps", type=int, default=5, help="steps per block")
    args = parser.parse_args()
    fma, first_call = fma_rows(args.blocks, args.steps)
    models, first_steps = model_rows(args.blocks, args.steps)
    print_table(["workload", "contender", "per step: median (low-high)", "x numpy backend",
                 "x torch", "check"], fma + models)
    print("\nfirst call (compile, or load from the disk cache): " + ", ".join(
        [f"a*b+c {k} {v:.2f} s" for k, v in first_call.items()]
        + [f"{label.split(' ')[0]} {b} {v:.2f} s" for (label, b), v in first_steps.items()]))


if __name__ == "__main__":
    main()
