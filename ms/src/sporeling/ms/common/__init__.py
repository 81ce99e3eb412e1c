"""``ms.common``: dtype objects and other shared MindSpore-2.x names."""
