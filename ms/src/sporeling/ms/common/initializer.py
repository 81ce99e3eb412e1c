"""``ms.common.initializer``: MindSpore's weight initializers (``Normal(0.02)``,
``XavierUniform()``, ``initializer("ones", shape, ms.float32)``), sporeling.expression's."""
from sporeling.expression.nn.init import (Constant, HeNormal, HeUniform, Initializer, Normal,
                                          One, TruncatedNormal, Uniform, XavierNormal,
                                          XavierUniform, Zero, initializer)

__all__ = ["initializer", "Initializer", "Constant", "Zero", "One", "Normal", "Uniform",
           "TruncatedNormal", "XavierUniform", "XavierNormal", "HeUniform", "HeNormal"]
