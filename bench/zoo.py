"""Inference latency of every zoo model at batch 1 and 64: PyNative, a loaded SIR file in
Graph mode, and onnxruntime (when installed), in one table.

Each model is exported once per batch size (SIR keeps the traced shapes; the ONNX file has
a dynamic batch axis and is exported once). Blocks are timed in turn -- PyNative, SIR,
ONNX -- with an idle gap between blocks, so one contender's heat does not land on the next
(2 cores shared with others here). Medians of ``--repeats`` calls after ``--warmup``.

    python bench/zoo.py [--models lenet5 mlp] [--repeats 10] [--gap 0.2]
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import sporeling.expression as sx
from sporeling.zoo import create_model, list_models
from sporeling.zoo.export_cli import export_target
from sporeling.zoo.registry import get_model_entry

BATCHES = (1, 64)


def _median_ms(fn, repeats: int, warmup: int) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


def _session(path):
    try:
        import onnxruntime as ort
    except ImportError:
        return None
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1  # the shared machine's fair share; NumPy is single-threaded too
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def bench(name: str, repeats: int, warmup: int, gap: float, folder: Path) -> list[tuple]:
    sx.set_seed(0)
    net = create_model(name)
    net.set_train(False)
    cell, inputs = export_target(name, net, 2)
    onnx_path = sx.export(cell, *inputs, file_name=str(folder / name), file_format="ONNX")
    sess = _session(onnx_path)
    rows = []
    for batch in BATCHES:
        _, xs = export_target(name, net, batch)
        loaded = sx.load(sx.export(cell, *xs, file_name=str(folder / f"{name}_{batch}")))
        feed = {f"input{i}": x.asnumpy() for i, x in enumerate(xs)}
        sx.set_context(mode=sx.PYNATIVE_MODE)
        pynative = _median_ms(lambda: cell(*xs), repeats, warmup)
        time.sleep(gap)
        sx.set_context(mode=sx.GRAPH_MODE)
        try:
            sir = _median_ms(lambda: loaded(*xs), repeats, warmup)
        finally:
            sx.set_context(mode=sx.PYNATIVE_MODE)
        time.sleep(gap)
        ort_ms = None if sess is None else _median_ms(lambda: sess.run(None, feed), repeats,
                                                      warmup)
        time.sleep(gap)
        rows.append((name, batch, pynative, sir, ort_ms))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    models = [n for n in list_models() if "alias of" not in get_model_entry(n).description]
    parser.add_argument("--models", nargs="*", default=models)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--gap", type=float, default=0.2, help="idle seconds between blocks")
    args = parser.parse_args()
    print(f"{'model':<14}{'batch':>6}{'PyNative ms':>13}{'SIR graph ms':>14}"
          f"{'onnxruntime ms':>16}{'SIR/PyN':>9}{'ORT/PyN':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models:
            for model, batch, pyn, sir, ort_ms in bench(name, args.repeats, args.warmup,
                                                        args.gap, Path(tmp)):
                ort_text = "n/a" if ort_ms is None else f"{ort_ms:.3f}"
                ratio = "" if ort_ms is None else f"{ort_ms / pyn:.2f}"
                print(f"{model:<14}{batch:>6}{pyn:>13.3f}{sir:>14.3f}{ort_text:>16}"
                      f"{sir / pyn:>9.2f}{ratio:>9}", flush=True)


if __name__ == "__main__":
    main()
