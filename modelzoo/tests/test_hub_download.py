"""Fetching weights files: the cache, package/file/http sources, hashes, offline mode,
retries, progress; served by a real HTTP server (hub_test_server)."""
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from sporeling.core import ContextError
from sporeling.zoo.hub import (DownloadError, HubWarning, OfflineError, Weights,
                               WeightsHashError, cache, fetch, sha256_of)


BODY = np.random.default_rng(0).bytes(300_000)


@pytest.fixture
def home(tmp_path, monkeypatch):
    root = tmp_path / "home"
    monkeypatch.setenv("SPORELING_HOME", str(root))
    monkeypatch.delenv("SPORELING_OFFLINE", raising=False)
    return root


@pytest.fixture
def no_sleep(monkeypatch):
    import pooch.core
    monkeypatch.setattr(pooch.core.time, "sleep", lambda s: None)


def weights_for(*urls, body=BODY):
    import hashlib
    return Weights(file="net.safetensors", sha256=hashlib.sha256(body).hexdigest(),
                   size=len(body), urls=urls, license="MIT")


def files_under(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def test_an_http_download_is_verified_cached_and_reused(home, server):
    url = server.add("net.safetensors", BODY)
    path = fetch("net", weights_for(url), progress=False)
    assert path == home / "weights" / "net" / "net.safetensors"
    assert path == cache.cached_path("net", "net.safetensors")
    assert path.read_bytes() == BODY and files_under(home) == [path]
    assert fetch("net", weights_for(url), progress=False) == path
    assert server.hits["net.safetensors"] == 1  # the second call used the cache


def test_a_tampered_file_is_refused_with_both_hashes_and_nothing_is_kept(home, server):
    tampered = bytearray(BODY)
    tampered[1000] ^= 0xFF
    url = server.add("net.safetensors", bytes(tampered))
    w = weights_for(url)
    with pytest.raises(WeightsHashError) as info:
        fetch("net", w, progress=False, retries=0)
    message = str(info.value)
    actual = sha256_of_bytes(bytes(tampered))
    assert f"expected sha256 {w.sha256} (300000 bytes)" in message
    assert f"got sha256 {actual} (300000 bytes)" in message and url in message
    assert info.value.actual == actual and files_under(home) == []


def sha256_of_bytes(data: bytes) -> str:
    import hashlib
    return hashlib.sha256(data).hexdigest()


def test_a_file_larger_than_registered_is_stopped_at_the_registered_size(home, server):
    url = server.add("net.safetensors", BODY + bytes(5_000_000))
    with pytest.raises(WeightsHashError, match="sent more than the registered 300000 bytes"):
        fetch("net", weights_for(url), progress=False, retries=0)
    assert files_under(home) == []


def test_a_truncated_file_is_refused_and_nothing_is_kept(home, server, no_sleep):
    half = BODY[:len(BODY) // 2]
    url = server.add("net.safetensors", half)  # an honest server holding half the file
    with pytest.raises(WeightsHashError, match=r"got sha256 [0-9a-f]{64} \(150000 bytes\)"):
        fetch("net", weights_for(url), progress=False, retries=1)
    assert server.hits["net.safetensors"] == 2 and files_under(home) == []


def test_a_connection_broken_mid_file_is_retried_then_reported_and_nothing_is_kept(
        home, server, no_sleep):
    url = server.add("net.safetensors", BODY, send=100_000)  # Content-Length says 300000
    with pytest.raises(DownloadError, match="no source gave the weights of 'net'") as info:
        fetch("net", weights_for(url), progress=False, retries=2)
    assert url in str(info.value) and server.hits["net.safetensors"] == 3
    assert files_under(home) == []


def test_a_flaky_server_is_retried(home, server, no_sleep):
    url = server.add("net.safetensors", BODY, fail_first=2)
    assert fetch("net", weights_for(url), progress=False, retries=2).read_bytes() == BODY
    assert server.hits["net.safetensors"] == 3


def test_sources_are_tried_in_order_and_every_failure_is_listed(home, server, tmp_path):
    missing, good = f"{server.base}/gone.safetensors", server.add("net.safetensors", BODY)
    path = fetch("net", weights_for(missing, good), progress=False, retries=0)
    assert path.read_bytes() == BODY
    nowhere = (tmp_path / "nowhere.safetensors").as_uri()
    with pytest.raises(DownloadError) as info:
        fetch("other", weights_for(missing, nowhere), progress=False, retries=0)
    assert "404" in str(info.value) and "nowhere.safetensors" in str(info.value)
    assert not (home / "weights" / "other").exists()


def test_a_file_url_is_copied_into_the_cache(home, tmp_path):
    source = tmp_path / "mirror" / "net.safetensors"
    source.parent.mkdir()
    source.write_bytes(BODY)
    path = fetch("net", weights_for(source.as_uri()), progress=False)
    assert path.parent == home / "weights" / "net" and path.read_bytes() == BODY


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """A third-party package with weights inside it (as package data)."""
    package = tmp_path / "site" / "thirdparty_nets"
    (package / "weights").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "weights" / "net.safetensors").write_bytes(BODY)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "thirdparty_nets", raising=False)  # an earlier test's
    return package / "weights" / "net.safetensors"


def test_a_shipped_package_file_is_verified_and_used_in_place(home, shipped):
    w = weights_for("package://thirdparty_nets/weights/net.safetensors")
    assert fetch("net", w, progress=False) == shipped and files_under(home) == []
    shipped.write_bytes(BODY[:-1] + b"!")
    with pytest.raises(WeightsHashError, match="package://thirdparty_nets"):
        fetch("net", w, progress=False)
    with pytest.raises(DownloadError, match="package 'not_installed_pkg' is not installed"):
        fetch("net", weights_for("package://not_installed_pkg/net.safetensors"))


def test_offline_mode_uses_only_the_cache_and_says_what_is_missing(home, server, monkeypatch,
                                                                   shipped):
    url = server.add("net.safetensors", BODY)
    monkeypatch.setenv("SPORELING_OFFLINE", "1")
    with pytest.raises(OfflineError) as info:
        fetch("net", weights_for(url), progress=False)
    message = str(info.value)
    assert "SPORELING_OFFLINE is set" in message and "not in the cache" in message
    assert str(home / "weights" / "net" / "net.safetensors") in message
    assert "sporeling zoo pull net" in message and server.hits["net.safetensors"] == 0
    # local sources still work offline: a shipped file, and the cache once filled
    assert fetch("net", weights_for("package://thirdparty_nets/weights/net.safetensors",
                                    url)) == shipped
    monkeypatch.setenv("SPORELING_OFFLINE", "0")
    fetch("net", weights_for(url), progress=False)
    monkeypatch.setenv("SPORELING_OFFLINE", "yes")
    assert fetch("net", weights_for(url)).read_bytes() == BODY
    assert server.hits["net.safetensors"] == 1


def test_a_damaged_cached_file_is_fetched_again_online_and_refused_offline(home, server,
                                                                           monkeypatch):
    url = server.add("net.safetensors", BODY)
    path = fetch("net", weights_for(url), progress=False)
    path.write_bytes(b"x" * 10)
    with pytest.warns(HubWarning, match="removed and fetched again"):
        assert fetch("net", weights_for(url), progress=False).read_bytes() == BODY
    path.write_bytes(b"x" * 10)
    monkeypatch.setenv("SPORELING_OFFLINE", "1")
    with pytest.raises(WeightsHashError, match=r"got sha256 [0-9a-f]{64} \(10 bytes\)"):
        fetch("net", weights_for(url))
    assert server.hits["net.safetensors"] == 2


def test_the_cache_root_is_per_user_unless_sporeling_home_says(monkeypatch, tmp_path):
    import platformdirs
    monkeypatch.delenv("SPORELING_HOME", raising=False)
    assert cache.home() == Path(platformdirs.user_cache_dir("sporeling", appauthor=False))
    monkeypatch.setenv("SPORELING_HOME", str(tmp_path))
    assert cache.weights_dir() == tmp_path / "weights"
    monkeypatch.setenv("SPORELING_OFFLINE", "maybe")
    with pytest.raises(ContextError, match="SPORELING_OFFLINE.*got 'maybe'"):
        cache.offline()


def test_a_download_shows_a_progress_bar_on_stderr(home, server, capsys):
    url = server.add("net.safetensors", BODY)
    fetch("net", weights_for(url), progress=True)
    err = capsys.readouterr().err
    assert "net: net.safetensors" in err and "100%" in err


def test_an_interrupted_download_leaves_nothing_in_the_cache(home, server, tmp_path):
    import threading
    release = threading.Event()
    url = server.add("net.safetensors", BODY, send=200_000, stall=release)
    w = weights_for(url)
    code = textwrap.dedent(f"""
        from sporeling.zoo.hub import Weights, fetch
        fetch("net", Weights(file="net.safetensors", sha256={w.sha256!r}, size={w.size},
                             urls=({url!r},), license="MIT"), progress=False, retries=0)
    """)
    env = dict(os.environ, SPORELING_HOME=str(home))
    child = subprocess.Popen([sys.executable, "-c", code], env=env, stderr=subprocess.PIPE)
    try:
        folder = home / "weights" / "net"
        deadline = time.monotonic() + 60
        while not any(p.stat().st_size >= 65536 for p in files_under(folder)):
            assert child.poll() is None and time.monotonic() < deadline, "no partial file"
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)  # Ctrl-C in the middle of the file
        _, err = child.communicate(timeout=60)
    finally:
        release.set()
        if child.poll() is None:
            child.kill()
    assert child.returncode != 0 and b"KeyboardInterrupt" in err
    assert files_under(home) == []
