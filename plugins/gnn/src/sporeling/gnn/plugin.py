"""The gnn plugin: what it contributes through Sporeling's hooks."""
from __future__ import annotations

from sporeling.core import impl  # noqa: F401
