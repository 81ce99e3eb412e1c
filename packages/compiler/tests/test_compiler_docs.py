from sporeling.core.testing import run_doctests


def test_docstring_examples_run():
    failed, attempted = run_doctests("sporeling.compiler")
    assert failed == 0 and attempted > 50
