"""Strategy-search time by model size, device count and search mode (operator parallel).

    python bench/parallel_search.py [--layers 2 8 24] [--devices 8 64 1024]

Each row traces a stack of Transformer blocks (batch 16, sequence 512, hidden 1024, 16
heads, MLP 4096, float32) on shapes only and searches it for a simulated device count with
fixed machine rates (1e11 FLOP/s, 1e10 B/s, 10 us per step), reporting the search time and
the cost model's estimates: step time, communication per device per step, memory per
device. ``dynamic_programming`` runs up to 64 devices (its candidate tables grow with the
device count); ``recursive_programming`` runs at every count.
"""
from __future__ import annotations

import argparse
import time

from sporeling.parallel.search import Machine, search
from sporeling.parallel.search.models import transformer_graph

MACHINE = Machine(flops=1e11, bandwidth=1e10, latency=1e-5)
IDLE_S = 0.3  # before each timed search: BLAS threads still spinning would slow it


def search_time_rows(layers=(2, 8, 24), devices=(8, 64, 1024),
                     modes=("dynamic_programming", "recursive_programming")) -> list[dict]:
    """One row per (layers, devices, mode): search seconds and the plan's estimates."""
    rows = []
    for n_layers in layers:
        graph, params = transformer_graph(n_layers, batch=16, seq=512, hidden=1024, heads=16)
        for n in devices:
            for mode in modes:
                if mode == "dynamic_programming" and n > 64:
                    continue
                time.sleep(IDLE_S)
                start = time.perf_counter()
                result = search(graph, n, mode=mode, machine=MACHINE, params=params)
                rows.append({"layers": n_layers, "ops": len(graph.equations), "devices": n,
                             "mode": mode, "search_s": time.perf_counter() - start,
                             **result.estimate})
    return rows


def print_search_table(rows) -> None:
    print(f"{'layers':>6} {'ops':>5} {'devices':>7} {'mode':<22} {'search s':>8} "
          f"{'step ms':>9} {'comm MB':>8} {'mem MB':>8}")
    for r in rows:
        print(f"{r['layers']:>6} {r['ops']:>5} {r['devices']:>7} {r['mode']:<22} "
              f"{r['search_s']:>8.2f} {r['step_time_s'] * 1e3:>9.1f} "
              f"{r['comm_bytes_per_step'] / 1e6:>8.1f} "
              f"{r['memory_per_device_bytes'] / 1e6:>8.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, nargs="+", default=[2, 8, 24])
    parser.add_argument("--devices", type=int, nargs="+", default=[8, 64, 1024])
    args = parser.parse_args()
    print_search_table(search_time_rows(tuple(args.layers), tuple(args.devices)))
