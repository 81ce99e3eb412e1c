"""The skeleton installs into the sporeling namespace with its declared dependencies."""
import importlib

import pytest


def test_is_a_namespace_member():
    import sporeling
    import sporeling.compiler

    assert not hasattr(sporeling, "__file__") or sporeling.__file__ is None  # PEP 420
    assert sporeling.compiler.__name__ == "sporeling.compiler"


@pytest.mark.parametrize("name", [
    "sporeling.core",
    "sporeling.runtime",
])
def test_declared_dependencies_import(name):
    importlib.import_module(name)
