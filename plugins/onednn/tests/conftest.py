import pytest

from sporeling.core import reset_context

from sporeling.onednn.kernels import _serve


@pytest.fixture(autouse=True)
def _fresh_context():
    """Each test starts with the default context and no call remembered as sent to NumPy."""
    reset_context()
    _serve.forget()
    yield
    reset_context()
    _serve.forget()
