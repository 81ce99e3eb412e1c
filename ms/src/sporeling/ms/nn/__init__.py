"""``ms.nn``: MindSpore 2.x cells over ``sx.nn``."""
