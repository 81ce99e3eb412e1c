"""The plugin installs into the sporeling namespace with its declared dependencies."""
from sporeling.core.testing import install_problems


def test_installs_with_its_declared_dependencies():
    assert install_problems("sporeling-onednn") == []
