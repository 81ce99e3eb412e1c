import pytest

from sporeling.core import reset_context


@pytest.fixture(autouse=True)
def _fresh_context():
    reset_context()
    yield
    reset_context()
