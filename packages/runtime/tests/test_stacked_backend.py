"""A stacked backend: its own kernels first, NumPy's for the rest; `sporeling kernels`."""
import logging

import numpy as np

from sporeling.core import set_context
from sporeling.core.cli import main
from sporeling.runtime import StackedBackend, get_backend

from runtime_helpers import fake_plugin


class FastBackend(StackedBackend):
    name = "fast"
    priority = 1  # above NumPy: the CPU target's default once installed


def _install(host_with):
    def sporeling_add_backends(backends):
        backends.add("fast", FastBackend)

    def sporeling_add_kernels(kernels):
        kernels.add_kernel("fast", "exp", lambda backend, x, out=None: np.full_like(x, 7.0))

    host_with(("fastplug", fake_plugin("fastplug", sporeling_add_backends=sporeling_add_backends,
                                       sporeling_add_kernels=sporeling_add_kernels)))


def test_own_kernels_serve_first_numpy_the_rest_said_once(host_with, caplog):
    _install(host_with)
    fast = get_backend("CPU")
    assert fast.name == "fast"                      # the higher priority serves the target
    with caplog.at_level(logging.INFO, logger="sporeling.fast"):
        assert fast.provider("exp") == "fast" and fast.provider("add") == "numpy"
        assert fast.run("exp", np.zeros(2, np.float32)).tolist() == [7.0, 7.0]
        for _ in range(2):
            assert fast.run("add", np.ones(2), np.ones(2)).tolist() == [2.0, 2.0]
    assert [r.getMessage() for r in caplog.records] == [
        "fast backend: no kernel for 'add', running NumPy's"]
    assert fast.kernel_memory("add") == get_backend("numpy").kernel_memory("add")
    set_context(backend="numpy")                    # one line picks NumPy explicitly
    assert get_backend().name == "numpy"


def test_the_kernels_command_names_each_primitives_provider(host_with, capsys):
    _install(host_with)
    assert main(["kernels"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("backend 'fast' (device target CPU):")
    assert "served by numpy" in lines[0] and "fast 1" in lines[0]
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    assert rows["exp"][0] == "fast" and rows["add"] == ["numpy", "out"]
    assert main(["kernels", "--backend", "numpy", "--provider", "fast"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == []
