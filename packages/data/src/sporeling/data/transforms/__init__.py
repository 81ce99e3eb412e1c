"""Transforms for ``map``: ``vision``, ``text`` and ``Compose``."""
from . import text, vision
from .compose import Compose, RandomApply, RandomChoice

__all__ = ["vision", "text", "Compose", "RandomApply", "RandomChoice"]
