"""Loading every installed plugin (what any Sporeling process does on its first op) imports
no heavy optional library: a plugin imports those when its features are used, not when the
host collects its hooks (tensorboardX alone pulls in torch: seconds per process)."""
import json
import subprocess
import sys

HEAVY = ("torch", "tensorboardX", "tensorboard", "matplotlib", "gymnasium", "numba",
         "networkx", "onnxruntime")

SCRIPT = f"""
import json, sys
from sporeling.core import get_plugin_host
host = get_plugin_host()
host.collect_declared()
import numpy as np, sporeling.expression as sx
sx.ops.add(sx.Tensor(np.ones(2)), 1.0)
print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))
print(json.dumps(sorted(p.name for p in host.loaded)))
"""


def test_collecting_every_plugin_imports_no_heavy_library():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    heavy, loaded = (json.loads(line) for line in done.stdout.splitlines()[-2:])
    assert {"insight", "rl", "gnn", "numba_backend"} <= set(loaded)
    assert heavy == []
