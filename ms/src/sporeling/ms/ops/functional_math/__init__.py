"""functional_math of ms.ops (being built)."""
__all__: list[str] = []
