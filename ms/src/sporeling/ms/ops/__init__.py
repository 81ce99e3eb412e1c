"""``ms.ops``: MindSpore 2.x functional ops and primitive classes over ``sx.ops``."""
