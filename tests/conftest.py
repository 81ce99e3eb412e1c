"""Fixtures the cross-package tests share."""
import pytest

from sporeling.core import reset_context


@pytest.fixture
def fresh_home_and_context(tmp_path, monkeypatch):
    """The default context and a SPORELING_HOME of its own (its disk caches empty)."""
    monkeypatch.setenv("SPORELING_HOME", str(tmp_path / "home"))
    reset_context()
    yield
    reset_context()
