"""The plugin as a user meets it: the CPU default, one line back to NumPy, the thread
policy, a library that cannot load (training: tests/test_onednn_training.py)."""
import os
import subprocess
import sys

import numpy as np
import pytest

from sporeling.core import set_context
from sporeling.runtime import get_backend


def test_the_cpu_target_defaults_to_onednn_and_one_line_picks_numpy():
    backend = get_backend()
    assert backend.name == "onednn"
    assert backend.provider("conv2d") == "onednn" and backend.provider("add") == "numpy"
    set_context(backend="numpy")
    assert get_backend().name == "numpy"


def test_the_thread_policy_follows_the_context():
    from threadpoolctl import threadpool_info

    from sporeling.onednn import threads

    def counts(api):
        return {p["num_threads"] for p in threadpool_info() if p["user_api"] == api
                and (api != "blas" or "numpy" in p["filepath"])}

    backend = get_backend("onednn")
    assert counts("blas") == {1}                    # BLAS on one thread beside oneDNN
    omp_default = counts("openmp")
    x = np.ones((1, 1, 4, 4), np.float32)
    geometry = dict(stride=(1, 1), padding=((0, 0), (0, 0)), dilation=(1, 1), groups=1)
    before = threads.generation()
    set_context(onednn_threads=1, onednn_blas_threads=None)
    backend.run("conv2d", x, x[..., :2, :2], **geometry)   # the next call applies it
    assert counts("openmp") == {1} and threads.generation() == before + 1
    assert counts("blas") != {1} or os.cpu_count() == 1
    with pytest.raises(Exception, match="positive"):
        set_context(onednn_threads=0)
    set_context(onednn_threads=None, onednn_blas_threads=1)
    backend.run("conv2d", x, x[..., :2, :2], **geometry)
    assert counts("blas") == {1} and counts("openmp") == omp_default


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
