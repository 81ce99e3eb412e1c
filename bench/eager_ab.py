"""Eager dispatch of another git revision's hot-path pieces against this checkout's, in one
process (issue 12 §5, round 2).

"before" swaps in, for each block, what ``--rev`` had: the Tensor operators without their
same-dtype fast path (``+ - * /`` through the op functions' promotion), ``NumpyBackend.
allocate`` passing ``persistent=`` as a keyword, and the ufunc kernels of ``--rev``'s
``kernels/table.py`` (no fast path for a 0-d operand, i.e. a promoted Python scalar).
"after" is this checkout. Rows: the 10-op chain of ``bench/train_step.py`` (ops with
Python scalars, forward + backward), the same chain written with operators on Tensors,
and one no-grad add on 8 elements, as ``ops.add`` and as ``+``. ``bench/timing.compare``:
blocks of steps, 0.3 s idle before each, the order alternating.

    python bench/eager_ab.py [--rev HEAD] [--blocks 9] [--clock cpu]
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from timing import clock_named, compare, print_table, ratio  # noqa: E402
from train_step import chain_contenders, torch  # noqa: E402

import sporeling.expression as sx  # noqa: E402
from sporeling.compiler.core import eager  # noqa: E402
from sporeling.compiler import ops  # noqa: E402
from sporeling.expression.tensor import operators  # noqa: E402
from sporeling.runtime import NumpyBackend  # noqa: E402
from sporeling.runtime.kernels.elementwise import UFUNCS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TABLE = "packages/runtime/src/sporeling/runtime/kernels/table.py"


def old_table(rev: str):
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{TABLE}"],
                            check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp(prefix="eager_ab_")) / "table.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("_eager_ab_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _old_allocate(self, shape, dtype=np.float32, persistent: bool = False):
    return self.pool.allocate(shape, dtype, persistent=persistent)


def before_scope(rev: str):
    table = old_table(rev)
    kernels = {name: table.from_ufunc(name, ufunc) for name, ufunc in UFUNCS.items()}
    plain = {f"__{n}__": operators._binary(op, "")[0]
             for n, op in [("add", ops.add), ("sub", ops.sub), ("mul", ops.mul),
                           ("truediv", ops.div)]}

    @contextlib.contextmanager
    def scope():
        eager.backend()
        for name in kernels:
            eager.kernel(name)  # fill the cache for this context, then overwrite it
        saved_k = {n: eager._kernels[n] for n in kernels}
        saved_ops = {n: operators.TensorOperators.__dict__[n] for n in plain}
        saved_alloc = NumpyBackend.allocate
        eager._kernels.update(kernels)
        for n, f in plain.items():
            setattr(operators.TensorOperators, n, f)
        NumpyBackend.allocate = _old_allocate
        try:
            yield
        finally:
            eager._kernels.update(saved_k)
            for n, f in saved_ops.items():
                setattr(operators.TensorOperators, n, f)
            NumpyBackend.allocate = saved_alloc
    return scope


def operator_chain():
    x = sx.Tensor(np.linspace(0.1, 0.8, 8).astype(np.float32))
    c1, c2 = sx.Tensor(np.full(8, 1.5, np.float32)), sx.Tensor(np.full(8, 0.5, np.float32))

    def f(x):
        y = x * c1
        y = y + c2
        y = sx.ops.tanh(y)
        y = y * x
        y = sx.ops.exp(y)
        y = y - x
        y = sx.ops.sigmoid(y)
        y = y * y
        y = y + x
        return sx.ops.sum(y)  # 10 ops
    grad_f = sx.grad(f)
    return lambda: grad_f(x)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD", help="the revision to compare with")
    parser.add_argument("--blocks", type=int, default=9)
    parser.add_argument("--clock", choices=["wall", "cpu"], default="cpu")
    args = parser.parse_args()
    clock, before = clock_named(args.clock), before_scope(args.rev)
    xt = sx.Tensor(np.linspace(0.1, 0.8, 8).astype(np.float32))
    chain = chain_contenders()
    cases = [("10-op chain (ops, scalars), fwd + bwd, per op", chain["sporeling"], 10,
              chain.get("pytorch")),
             ("10-op chain (operators), fwd + bwd, per op", operator_chain(), 10, None),
             ("no-grad ops.add(t, t), 8 elements", lambda: ops.add(xt, xt), 1, None),
             ("no-grad t + t, 8 elements", lambda: xt + xt, 1, None)]
    rows = []
    for label, fn, n_ops, torch_fn in cases:
        contenders = {f"before ({args.rev})": fn, "after": fn}
        if torch_fn is not None:
            contenders["pytorch"] = torch_fn
        t = compare(contenders, steps=300, blocks=args.blocks, clock=clock,
                    scopes={f"before ({args.rev})": before})
        old = t[f"before ({args.rev})"]
        for name, timing in t.items():
            per_op = f"{timing.median / n_ops * 1e6:.2f} us ({timing.low / n_ops * 1e6:.2f}" \
                     f"-{timing.high / n_ops * 1e6:.2f})"
            rows.append([label, name, per_op, ratio(timing, old),
                         ratio(timing, t.get("pytorch"))])
    print(f"eager hot path A/B, {args.clock} clock, {args.blocks} blocks of 300 steps")
    print_table(["case", "contender", "median (low-high)", "x before", "x torch"], rows)


if __name__ == "__main__":
    main()
