"""What a zoo model's pretrained weights are and where they come from: one :class:`Weights`
per model, given to ``models.add_model(..., weights=Weights(...))`` in
``sporeling_add_models``.

    >>> w = Weights(file="lenet5.safetensors", sha256="ab" * 32, size=26_040,
    ...             urls=("package://sporeling.zoo/weights/lenet5.safetensors",
    ...                   "https://example.org/sporeling/lenet5.safetensors"),
    ...             license="Apache-2.0", metrics={"digits_test_accuracy": 0.9889},
    ...             recipe="sporeling zoo train lenet5 --seed 0")
    >>> w.sources()
    ('package', 'https')

Importing this module imports nothing heavy (no pooch, no network code): plugins build
their entries at registration time.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from sporeling.core import PluginError

__all__ = ["Weights", "SCHEMES", "sha256_of"]

#: where weights may come from, in the order a user would expect them to be tried
SCHEMES = ("package", "file", "http", "https")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_CHUNK = 1 << 20


def sha256_of(path: str | os.PathLike) -> str:
    """The SHA-256 of a file as 64 lowercase hex digits (read in 1 MiB chunks)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def _bad(what: str, expected: str, got) -> PluginError:
    return PluginError(f"bad pretrained-weights entry: {what}", op="Weights",
                       expected=expected, got=repr(got))


@dataclass(frozen=True)
class Weights:
    """Pretrained weights of one model (a safetensors file) and what they are.

    * ``file`` -- the file's name in the cache (``<cache>/weights/<model>/<file>``), a plain
      name ending in ``.safetensors``.
    * ``sha256`` -- 64 hex digits; every file is checked against it before it is loaded.
    * ``size`` -- bytes (shown by ``sporeling zoo info`` and checked with the hash).
    * ``urls`` -- sources tried in order until one gives a file with that hash:
      ``package://<python.package>/<path inside it>`` (a file shipped in an installed
      package: read in place, never copied), ``file:///absolute/path``, ``https://...`` or
      ``http://...`` (downloaded into the cache).
    * ``license`` -- of the weights (SPDX id such as ``"Apache-2.0"`` or ``"CC0-1.0"``).
    * ``metrics`` -- ``{name: value}`` measured on this very file, e.g.
      ``{"digits_test_accuracy": 0.9889}``; ``sporeling zoo eval NAME`` measures them again.
    * ``recipe`` -- how they were made, e.g. ``"sporeling zoo train lenet5 --seed 0"``.
    * ``model_kwargs`` -- arguments the factory needs to build the network these weights
      fit (e.g. ``{"width": 0.5}``); ``load(name, pretrained=True)`` passes them.
    """
    file: str
    sha256: str
    size: int
    urls: tuple[str, ...]
    license: str
    metrics: dict = field(default_factory=dict)
    recipe: str = ""
    model_kwargs: dict = field(default_factory=dict)

    def __post_init__(self):
        if (not isinstance(self.file, str) or not self.file.endswith(".safetensors")
                or os.path.basename(self.file) != self.file or self.file.startswith(".")):
            raise _bad("file", "a plain file name ending in .safetensors", self.file)
        sha = self.sha256.lower().removeprefix("sha256:") if isinstance(self.sha256, str) \
            else self.sha256
        if not isinstance(sha, str) or not _HEX64.fullmatch(sha):
            raise _bad("sha256", "64 hex digits", self.sha256)
        object.__setattr__(self, "sha256", sha)
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size <= 0:
            raise _bad("size", "the file's size in bytes, an int > 0", self.size)
        urls = (self.urls,) if isinstance(self.urls, str) else tuple(self.urls)
        if not urls:
            raise _bad("urls", "at least one source", self.urls)
        for url in urls:
            scheme = urlsplit(url).scheme if isinstance(url, str) else None
            if scheme not in SCHEMES:
                raise _bad("url", f"a URL whose scheme is one of {', '.join(SCHEMES)}", url)
        object.__setattr__(self, "urls", urls)
        if not isinstance(self.license, str) or not self.license:
            raise _bad("license", "the weights' license, e.g. 'Apache-2.0'", self.license)
        metrics = dict(self.metrics)
        for key, value in metrics.items():
            if not isinstance(key, str) or isinstance(value, bool) or \
                    not isinstance(value, (int, float)):
                raise _bad(f"metric {key!r}", "{name: number}", value)
        object.__setattr__(self, "metrics", metrics)
        object.__setattr__(self, "model_kwargs", dict(self.model_kwargs))

    def sources(self) -> tuple[str, ...]:
        """The scheme of each URL, in order."""
        return tuple(urlsplit(url).scheme for url in self.urls)

    @classmethod
    def from_file(cls, path: str | os.PathLike, *, urls, license: str, file: str | None = None,
                  metrics: dict | None = None, recipe: str = "",
                  model_kwargs: dict | None = None) -> "Weights":
        """An entry for the file at ``path`` (its hash and size measured now): handy when
        writing a registry table or a test; a shipped table should list the digits."""
        return cls(file=file or os.path.basename(path), sha256=sha256_of(path),
                   size=os.path.getsize(path), urls=urls, license=license,
                   metrics=metrics or {}, recipe=recipe, model_kwargs=model_kwargs or {})
