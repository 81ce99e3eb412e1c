"""``ms.common.tensor``: where MindSpore's sources import ``Tensor`` from."""
from sporeling.expression import Tensor

__all__ = ["Tensor"]
