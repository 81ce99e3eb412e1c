"""The docstring examples of the whole package run (optimisers, training, checkpoints,
Tensor, autograd, nn)."""
import pytest

from sporeling.core.testing import run_doctests


@pytest.mark.parametrize("package", ["sporeling.expression"])
def test_docstring_examples_run(package):
    failed, attempted = run_doctests(package)
    assert failed == 0 and attempted > 0
