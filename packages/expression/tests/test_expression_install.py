"""The skeleton installs into the sporeling namespace with its declared dependencies."""
import importlib

import pytest


def test_is_a_namespace_member():
    import sporeling
    import sporeling.expression

    assert not hasattr(sporeling, "__file__") or sporeling.__file__ is None  # PEP 420
    assert sporeling.expression.__name__ == "sporeling.expression"


@pytest.mark.parametrize("name", [
    "sporeling.core",
    "sporeling.runtime",
    "sporeling.compiler",
])
def test_declared_dependencies_import(name):
    importlib.import_module(name)
