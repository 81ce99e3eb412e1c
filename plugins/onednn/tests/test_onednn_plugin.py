"""The plugin as a user meets it: the CPU default, one line back to NumPy, the thread
policy, a library that cannot load (training: tests/test_onednn_training.py)."""
import os
import subprocess
import sys

import pytest

from sporeling.core import set_context
from sporeling.runtime import get_backend


def test_the_cpu_target_defaults_to_onednn_and_one_line_picks_numpy():
    backend = get_backend()
    assert backend.name == "onednn"
    assert backend.provider("conv2d") == "onednn" and backend.provider("add") == "numpy"
    set_context(backend="numpy")
    assert get_backend().name == "numpy"


def test_blas_runs_on_one_thread_while_onednn_is_in_use():
    from threadpoolctl import threadpool_info
    get_backend("onednn")
    numpy_blas = [p for p in threadpool_info()
                  if p["user_api"] == "blas" and "numpy" in p["filepath"]]
    assert numpy_blas and all(p["num_threads"] == 1 for p in numpy_blas)
    with pytest.raises(Exception, match="positive"):
        set_context(onednn_blas_threads=0)


def _run(code, **env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)


def test_a_library_that_cannot_load_fails_the_plugin_by_name_and_numpy_serves():
    code = ("import warnings; warnings.simplefilter('ignore')\n"
            "from sporeling.runtime import get_backend\n"
            "from sporeling.core import get_plugin_host\n"
            "import numpy as np\n"
            "b = get_backend()\n"
            "x = np.ones((1, 1, 3, 3), np.float32)\n"
            "y = b.run('conv2d', x, x, stride=(1, 1), padding=((0, 0), (0, 0)), "
            "dilation=(1, 1), groups=1)\n"
            "print(b.name, float(y.sum()))\n"
            "print({f.name: f.error for f in get_plugin_host().failed}['onednn'])\n")
    result = _run(code, SPORELING_ONEDNN_LIBRARY="/nonexistent/libdnnl.so.3")
    assert result.returncode == 0, result.stderr
    first, reason = result.stdout.splitlines()[:2]
    assert first == "numpy 9.0"
    assert "libdnnl.so.3 could not be loaded" in reason and "/nonexistent" in reason
