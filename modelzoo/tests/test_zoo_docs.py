from sporeling.core.testing import run_doctests


def test_docstring_examples_run():
    failed, attempted = run_doctests("sporeling.zoo")
    assert failed == 0 and attempted >= 5
