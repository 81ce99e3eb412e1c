import sys
import textwrap
import pytest

from sporeling.core import PluginHost, reset_context, set_plugin_host


@pytest.fixture(autouse=True)
def _fresh_context():
    reset_context()
    yield
    reset_context()


@pytest.fixture
def fresh_host():
    """Reload plugins into a new process-wide host for this test, restore after."""
    def install():
        host = PluginHost()
        set_plugin_host(host)
        return host
    old = set_plugin_host(None)
    yield install
    set_plugin_host(old)


@pytest.fixture
def fake_distribution(tmp_path, monkeypatch):
    """Install a throwaway distribution with plugin modules, found through entry points."""
    def make(dist: str, modules: dict[str, str], entry_points: dict[str, str]):
        root = tmp_path / dist
        root.mkdir()
        for name, source in modules.items():
            (root / f"{name}.py").write_text(textwrap.dedent(source))
        info = root / f"{dist.replace('-', '_')}-1.2.3.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.2.3\n")
        lines = "\n".join(f"{k} = {v}" for k, v in entry_points.items())
        (info / "entry_points.txt").write_text(f"[sporeling]\n{lines}\n")
        monkeypatch.syspath_prepend(str(root))
        for name in modules:
            sys.modules.pop(name, None)
        return root
    return make
