import pytest

from sporeling.core import reset_context


@pytest.fixture(autouse=True)
def _fresh_context(tmp_path, monkeypatch):
    """Each test starts with the default context and a disk cache of its own."""
    monkeypatch.setenv("SPORELING_HOME", str(tmp_path / "home"))
    reset_context()
    yield
    reset_context()
