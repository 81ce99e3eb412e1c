"""Hooks for every suite in the repository (tox.ini makes this folder pytest's rootdir)."""
import os

import pytest


def pytest_configure(config):
    # The cross-checks against PyTorch skip where it is not installed (pytest.importorskip);
    # `tox -e torch` sets this so that there a missing torch fails the run instead.
    if os.environ.get("SPORELING_REQUIRE_TORCH") == "1":
        try:
            import torch  # noqa: F401
        except ImportError as exc:
            raise pytest.UsageError(f"SPORELING_REQUIRE_TORCH=1, but torch does not import "
                                    f"({exc}): the cross-checks against it would all skip") from exc
