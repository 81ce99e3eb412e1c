"""What the hub raises: each says what was expected, what came, and from where."""
from __future__ import annotations

from sporeling.core import SporelingError

__all__ = ["HubError", "WeightsHashError", "OfflineError", "DownloadError", "NoWeightsError"]


class HubError(SporelingError, RuntimeError):
    """Pretrained weights could not be had (base of the hub's errors)."""


class WeightsHashError(HubError, ValueError):
    """A file's SHA-256 is not the registered one: it was refused and never loaded.
    ``expected`` and ``actual`` are the hex digests; ``source`` the URL or path."""

    def __init__(self, model: str, source: str, expected: str, actual: str, *,
                 expected_size: int, actual_size: int | None, hint: str | None = None):
        self.model, self.source, self.actual = model, source, actual
        self.expected_sha256, self.actual_size = expected, actual_size
        got = f"sha256 {actual}"
        if actual_size is not None:
            got += f" ({actual_size} bytes)"
        super().__init__(f"the weights of {model!r} from {source} were refused (tampered or "
                         "damaged): their SHA-256 is not the registered one", op="zoo.load",
                         expected=f"sha256 {expected} ({expected_size} bytes)", got=got,
                         hint=hint or "nothing was loaded or kept")


class OfflineError(HubError):
    """``SPORELING_OFFLINE=1`` and the file is not in the cache."""


class DownloadError(HubError):
    """Every source of a weights file failed (each one's reason is in the message)."""


class NoWeightsError(HubError, LookupError):
    """The model has no pretrained weights registered."""
