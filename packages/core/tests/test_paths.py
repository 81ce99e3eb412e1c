"""``cache_dir``: one place deciding where rebuildable files go."""
import os

import platformdirs

from sporeling.core.paths import HOME_ENV, cache_dir


def test_sporeling_home_holds_the_caches(monkeypatch, tmp_path):
    monkeypatch.setenv(HOME_ENV, str(tmp_path))
    assert cache_dir("frontend") == os.path.join(str(tmp_path), "cache", "frontend")


def test_without_a_home_the_user_cache_folder(monkeypatch):
    monkeypatch.delenv(HOME_ENV, raising=False)
    assert cache_dir("tvm") == os.path.join(
        platformdirs.user_cache_dir("sporeling", appauthor=False), "tvm")
