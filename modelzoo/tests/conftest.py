"""Fixtures shared by the hub's tests."""
import pytest

import hub_test_server


@pytest.fixture
def server():
    """A real HTTP server in a thread; yields what it serves (``served.base`` is its URL)."""
    httpd, served = hub_test_server.start()
    yield served
    httpd.shutdown()
    httpd.server_close()
