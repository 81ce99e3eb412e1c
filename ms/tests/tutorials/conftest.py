"""The tutorial programs set the execution mode (``set_context(mode=...)``) as the tutorials
do: each test gives back the mode it found, so that other suites run in their own."""
import pytest

import sporeling.ms as ms


@pytest.fixture(autouse=True)
def _restore_mode():
    mode = ms.get_context("mode")
    yield
    ms.set_context(mode=mode)
