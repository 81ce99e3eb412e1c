"""primitives of ms.ops (being built)."""
__all__: list[str] = []
