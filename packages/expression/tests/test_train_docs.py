"""The docstring examples of the optimisers, training and checkpoint modules run."""
import pytest

from sporeling.core.testing import run_doctests


@pytest.mark.parametrize("package", ["sporeling.expression.optim", "sporeling.expression.train",
                                     "sporeling.expression.serialization"])
def test_docstring_examples_run(package):
    failed, attempted = run_doctests(package)
    assert failed == 0 and attempted > 0
