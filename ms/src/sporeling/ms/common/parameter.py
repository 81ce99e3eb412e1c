"""``ms.common.parameter``: where MindSpore's sources import ``Parameter`` from."""
from sporeling.expression import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]
