"""Getting one weights file: the cache first, then each registered source in order.

``package://`` files are verified and used in place; ``file://`` and ``http(s)://`` files
are fetched through pooch (retries, a temporary beside the target, the hash checked before
the file is moved into place), so an interrupted or refused download leaves nothing in the
cache. Every path this module returns has the registered SHA-256.
"""
from __future__ import annotations

import importlib.resources
import os
import shutil
import sys
import warnings
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from .cache import cached_path, offline
from .errors import DownloadError, OfflineError, WeightsHashError
from .weights import Weights, sha256_of

__all__ = ["fetch", "HubWarning"]

_NETWORK = ("http", "https")
_CHUNK = 1 << 16


class HubWarning(UserWarning):
    """A cached file was damaged and is fetched again."""


def _package_file(url: str) -> Path:
    """The file a ``package://pkg.name/path/in/it`` URL names (it may not exist)."""
    parts = urlsplit(url)
    try:
        root = importlib.resources.files(parts.netloc)
    except ModuleNotFoundError:
        raise FileNotFoundError(f"package {parts.netloc!r} is not installed") from None
    resource = root.joinpath(*[unquote(p) for p in parts.path.split("/") if p])
    if not isinstance(resource, Path):
        raise FileNotFoundError(f"{url} is inside a zipped package, not a file on disk")
    if not resource.is_file():
        raise FileNotFoundError(f"no file {resource}")
    return resource


def _bar(progress: bool, label: str, total: int):
    if not progress:
        return None
    from tqdm import tqdm
    return tqdm(desc=label, total=total, unit="B", unit_scale=True, unit_divisor=1024,
                leave=True, file=sys.stderr, dynamic_ncols=True)


def _copy_file(url: str, output_file: str, bar) -> None:
    """pooch's downloader protocol for ``file://`` URLs: a chunked copy."""
    source = url2pathname(unquote(urlsplit(url).path))
    with open(source, "rb") as src, open(output_file, "wb") as dst:
        for block in iter(lambda: src.read(_CHUNK), b""):
            dst.write(block)
            if bar is not None:
                bar.update(len(block))


class OversizeError(ValueError):
    """More bytes came than the registered size: the download is stopped there."""


class _CappedFile:
    """The temporary a download is written to, refusing to grow past ``limit`` bytes (a
    wrong or hostile server cannot fill the disk)."""

    def __init__(self, path: str, limit: int, url: str):
        self._f, self.limit, self.url, self.written = open(path, "wb"), limit, url, 0

    def write(self, data: bytes) -> int:
        self.written += len(data)
        if self.written > self.limit:
            raise OversizeError(f"{self.url} sent more than the registered {self.limit} "
                                "bytes; stopped there")
        return self._f.write(data)

    def flush(self) -> None:
        self._f.flush()

    def close(self) -> None:
        self._f.close()


class _MeasuringDownloader:
    """Runs the real downloader (a fresh progress bar per attempt), then records the hash and
    size of what came: pooch deletes a refused file, and the error must name its hash."""

    def __init__(self, label: str, size: int, progress: bool, timeout: float):
        self.label, self.size, self.progress, self.timeout = label, size, progress, timeout
        self.seen: tuple[str, int] | None = None

    def __call__(self, url, output_file, pooch_obj, check_only=False):
        self.seen = None
        bar = _bar(self.progress, self.label, self.size)
        try:
            if urlsplit(url).scheme == "file":
                _copy_file(url, output_file, bar)
            else:
                import pooch
                out = _CappedFile(output_file, self.size, url)
                try:
                    pooch.HTTPDownloader(progressbar=bar if bar is not None else False,
                                         chunk_size=_CHUNK, timeout=self.timeout)(
                        url, out, pooch_obj)
                finally:
                    out.close()
        finally:
            if bar is not None:
                bar.close()
        self.seen = (sha256_of(output_file), os.path.getsize(output_file))


def _download(model: str, weights: Weights, url: str, target: Path, progress: bool,
              retries: int, timeout: float) -> Path:
    import pooch
    store = pooch.Pooch(path=target.parent, base_url="", retry_if_failed=retries,
                        registry={weights.file: f"sha256:{weights.sha256}"},
                        urls={weights.file: url})
    downloader = _MeasuringDownloader(f"{model}: {weights.file}", weights.size, progress,
                                      timeout)
    try:
        return Path(store.fetch(weights.file, downloader=downloader))
    except OversizeError as exc:
        raise WeightsHashError(model, url, weights.sha256, "not computed (stopped)",
                               expected_size=weights.size, actual_size=None,
                               hint=f"{exc}. Nothing was loaded or kept") from None
    except ValueError:  # pooch's hash mismatch: the temporary is already deleted
        if downloader.seen is None:
            raise
        actual, size = downloader.seen
        raise WeightsHashError(model, url, weights.sha256, actual,
                               expected_size=weights.size, actual_size=size) from None


def _check_cached(model: str, weights: Weights, target: Path, can_download: bool) -> bool:
    """True when the cached file is good; a damaged one is removed (and fetched again)
    or, when nothing could replace it, refused."""
    if not target.is_file():
        return False
    actual = sha256_of(target)
    if actual == weights.sha256:
        return True
    size = target.stat().st_size
    if not can_download:
        raise WeightsHashError(model, str(target), weights.sha256, actual,
                               expected_size=weights.size, actual_size=size,
                               hint=f"the cached file was changed after it was verified; "
                                    f"delete it and pull {model!r} again. Nothing was loaded")
    warnings.warn(f"the cached weights of {model!r} ({target}) have sha256 {actual} "
                  f"({size} bytes), expected {weights.sha256} ({weights.size} bytes): "
                  "removed and fetched again", HubWarning, stacklevel=4)
    target.unlink()
    return False


def _remove_empty_folder(folder: Path) -> None:
    try:
        folder.rmdir()  # only when empty: a failed fetch leaves no trace
    except OSError:
        pass


def fetch(model: str, weights: Weights, *, progress: bool | None = None, retries: int = 2,
          timeout: float = 60.0) -> Path:
    """The verified file of ``model``'s ``weights``: from the cache, a shipped package file,
    or downloaded into the cache (``retries`` more attempts per URL, a progress bar on
    stderr when ``progress`` -- by default when stderr is a terminal).

    Raises :class:`WeightsHashError` (a file came with another hash: refused),
    :class:`OfflineError` (``SPORELING_OFFLINE`` set and the file not in the cache) or
    :class:`DownloadError` (every source failed; each one's reason is listed).
    """
    if progress is None:
        progress = sys.stderr.isatty()
    is_offline = offline()
    schemes = weights.sources()
    target = cached_path(model, weights.file)
    can_download = any(s == "file" or (s in _NETWORK and not is_offline) for s in schemes)
    if _check_cached(model, weights, target, can_download):
        return target
    failures: list[str] = []
    refused: list[WeightsHashError] = []
    for url, scheme in zip(weights.urls, schemes):
        if scheme in _NETWORK and is_offline:
            failures.append(f"{url}: not downloaded (SPORELING_OFFLINE is set)")
            continue
        try:
            if scheme == "package":
                path = _package_file(url)
                actual = sha256_of(path)
                if actual == weights.sha256:
                    return path
                raise WeightsHashError(model, url, weights.sha256, actual,
                                       expected_size=weights.size,
                                       actual_size=path.stat().st_size)
            return _download(model, weights, url, target, progress, retries, timeout)
        except WeightsHashError as exc:
            refused.append(exc)
            failures.append(f"{url}: refused, sha256 {exc.actual}")
        except Exception as exc:  # noqa: BLE001 - OSError, requests' errors: try the next
            failures.append(f"{url}: {type(exc).__name__}: {exc}")
    _remove_empty_folder(target.parent)
    if refused:
        first = refused[0]
        if len(failures) > 1:
            first.args = (f"{first.args[0]} (every source failed: {'; '.join(failures)})",)
        raise first
    if is_offline and any(s in _NETWORK for s in schemes):
        raise OfflineError(
            f"SPORELING_OFFLINE is set and the weights of {model!r} ({weights.file}, "
            f"{weights.size} bytes) are not in the cache", op="zoo.load",
            expected=f"the file {target}", got="no such file",
            hint=f"unset SPORELING_OFFLINE and run `sporeling zoo pull {model}`, or copy the "
                 f"file from {weights.urls[-1]} to {target}")
    raise DownloadError(f"no source gave the weights of {model!r} ({weights.file})",
                        op="zoo.load", expected=f"sha256 {weights.sha256}",
                        got="; ".join(failures))
