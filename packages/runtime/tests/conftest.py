import gc

import pytest

from sporeling.core import PluginHost, reset_context, set_plugin_host
from sporeling.core import plugin as core_plugin
from sporeling.runtime import plugin as runtime_plugin
from sporeling.runtime import set_default_pool


@pytest.fixture(autouse=True)
def _fresh_context_and_pool():
    reset_context()
    old = set_default_pool(None)
    yield
    gc.collect()
    set_default_pool(old)
    reset_context()


@pytest.fixture
def host_with():
    """Install a plugin host holding core, runtime and the given fake plugins; restore after.

    ``host_with(("fast", module), ...)`` -- fake modules come after runtime, as an installed
    third-party plugin would.
    """
    old = set_plugin_host(None)

    def install(*fakes):
        host = PluginHost(load=False)
        host.add_plugins([("core", "sporeling-core", "0.1.0", core_plugin),
                          ("runtime", "sporeling-runtime", "0.1.0", runtime_plugin)]
                         + [(name, f"{name}-dist", "1.0", mod) for name, mod in fakes])
        set_plugin_host(host)
        return host
    yield install
    set_plugin_host(old)
