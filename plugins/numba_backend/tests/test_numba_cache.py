"""Compiled kernels are cached on disk: a second process loads them instead of compiling."""
import json
import os
import subprocess
import sys

_SCRIPT = """
import json, numpy as np
from sporeling.runtime import get_backend
from sporeling.numba_backend import fused
expr = (("mul", (("in", 0), ("in", 1)), (), (5,), "float32"),
        ("add", (("node", 0), ("const", 1.5, "float32")), (), (5,), "float32"))
x = np.arange(5, dtype=np.float32)
y = fused.fused_elementwise(get_backend("numba"), x, x, expr=expr)
stats = fused._compiled(expr, 2, 1).stats
print(json.dumps({"y": y.tolist(), "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values())}))
"""


def _run(cache):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_second_process_loads_the_compiled_fused_kernel_from_disk(tmp_path):
    first, second = _run(tmp_path), _run(tmp_path)
    assert first["y"] == second["y"] == [1.5, 2.5, 5.5, 10.5, 17.5]
    assert first["misses"] == 1 and first["hits"] == 0
    assert second["hits"] == 1 and second["misses"] == 0
    assert list((tmp_path / "generated").glob("fused_*.py"))
