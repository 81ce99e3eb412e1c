"""The docstring examples run, and the public names are exported."""
import sporeling.data as sd
from sporeling.core.testing import run_doctests


def test_docstring_examples_run():
    failed, attempted = run_doctests("sporeling.data")
    assert failed == 0 and attempted > 20


def test_public_names_exist():
    missing = [n for n in sd.__all__ if not hasattr(sd, n)]
    assert missing == []
