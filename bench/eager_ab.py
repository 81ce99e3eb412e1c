"""Eager dispatch of another git revision's hot-path pieces against this checkout's, in one
process (issue 12 §5, round 2).

"before" swaps in, for each block, what ``--rev`` had: the PyNative interpreter's
``apply`` (it scanned every recorded op's operands for traced values), the Tensor operators without their
same-dtype fast path (``+ - * /`` through the op functions' promotion), ``NumpyBackend.
allocate`` passing ``persistent=`` as a keyword, and the ufunc kernels of ``--rev``'s
``kernels/table.py`` (no fast path for a 0-d operand, i.e. a promoted Python scalar).
"after" is this checkout. Rows: the 10-op chain of ``bench/train_step.py`` (ops with
Python scalars, forward + backward), the same chain written with operators on Tensors,
and one no-grad add on 8 elements, as ``ops.add`` and as ``+``. ``bench/timing.compare``:
blocks of steps, 0.3 s idle before each, the order alternating.

    python bench/eager_ab.py [--rev a451257^] [--blocks 9] [--clock cpu] [--rounds 20]

``--rounds N`` (steadier on a loaded machine) instead alternates before and after in N short
rounds per case (100 chains or 2000 adds each) and reports the fastest and the median round
per op: the fastest round is the least disturbed by other jobs.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from timing import clock_named, compare, print_table, ratio  # noqa: E402
from train_step import chain_contenders  # noqa: E402

import sporeling.expression as sx  # noqa: E402
from sporeling.compiler.core import eager  # noqa: E402
from sporeling.compiler import ops  # noqa: E402
from sporeling.expression.autograd.interpreter import PyNativeInterpreter  # noqa: E402
from sporeling.expression.tensor import operators  # noqa: E402
from sporeling.runtime import NumpyBackend  # noqa: E402
from sporeling.runtime.kernels.elementwise import UFUNCS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TABLE = "packages/runtime/src/sporeling/runtime/kernels/table.py"
PYNATIVE = "packages/expression/src/sporeling/expression/autograd/interpreter.py"


def _load_at(rev: str, file: str, name: str, package: str | None = None):
    """``file`` as it was at ``rev``, imported as module ``name`` (in ``package``, so its
    relative imports work)."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{file}"],
                            check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp(prefix="eager_ab_")) / Path(file).name
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = package
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def old_pynative_apply(rev: str):
    """``PyNativeInterpreter.apply`` of ``rev`` (loading the module re-points
    ``Tensor._interpreter`` at its own instance: put back)."""
    from sporeling.expression import Tensor
    current = Tensor._interpreter
    module = _load_at(rev, PYNATIVE, "sporeling.expression.autograd._eager_ab_interpreter",
                      "sporeling.expression.autograd")
    Tensor._interpreter = current
    return module.PyNativeInterpreter.apply


def _old_allocate(self, shape, dtype=np.float32, persistent: bool = False):
    return self.pool.allocate(shape, dtype, persistent=persistent)


def before_scope(rev: str):
    table = _load_at(rev, TABLE, "_eager_ab_table")
    old_apply = old_pynative_apply(rev)
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
        saved_alloc, saved_apply = NumpyBackend.allocate, PyNativeInterpreter.apply
        PyNativeInterpreter.apply = old_apply
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
            PyNativeInterpreter.apply = saved_apply
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


def interleaved(cases, before, rounds: int, clock) -> list[list[str]]:
    """Fastest and median round per op, before and after, alternating every round."""
    rows = []
    for label, fn, n_ops, _ in cases:
        calls = 2000 if n_ops == 1 else 100
        per_op: dict[str, list[float]] = {"before": [], "after": []}
        for r in range(rounds):
            for who in (("before", "after") if r % 2 == 0 else ("after", "before")):
                with before() if who == "before" else contextlib.nullcontext():
                    fn()
                    start = clock()
                    for _ in range(calls):
                        fn()
                    per_op[who].append((clock() - start) / calls / n_ops * 1e6)
        old, new = per_op["before"], per_op["after"]
        rows.append([label, f"{min(old):.2f} us ({statistics.median(old):.2f})",
                     f"{min(new):.2f} us ({statistics.median(new):.2f})",
                     f"{min(new) / min(old):.2f}x"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="a451257^", help="the revision to compare with")
    parser.add_argument("--blocks", type=int, default=9)
    parser.add_argument("--clock", choices=["wall", "cpu"], default="cpu")
    parser.add_argument("--rounds", type=int, default=0,
                        help="alternate in this many short rounds instead of timed blocks")
    args = parser.parse_args()
    clock, before = clock_named(args.clock), before_scope(args.rev)
    xt = sx.Tensor(np.linspace(0.1, 0.8, 8).astype(np.float32))
    chain = chain_contenders()
    cases = [("10-op chain (ops, scalars), fwd + bwd, per op", chain["sporeling"], 10,
              chain.get("pytorch")),
             ("10-op chain (operators), fwd + bwd, per op", operator_chain(), 10, None),
             ("no-grad ops.add(t, t), 8 elements", lambda: ops.add(xt, xt), 1, None),
             ("no-grad t + t, 8 elements", lambda: xt + xt, 1, None)]
    if args.rounds:
        print(f"eager hot path A/B, {args.clock} clock, {args.rounds} alternating rounds; "
              f"per op: fastest round (median round)")
        print_table(["case", f"before ({args.rev})", "after", "x before (fastest)"],
                    interleaved(cases, before, args.rounds, clock))
        return
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
