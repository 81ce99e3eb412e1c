"""Which channel block oneDNN's convolutions choose on this CPU (16 with AVX-512, 8 with
AVX2), asked once by describing a convolution with layout "any"."""
from __future__ import annotations

import functools

import numpy as np

from .. import constants as C
from ..lib import OneDnnError, dims
from ..memory import Desc
from ..plan import PrimitiveDesc

__all__ = ["block_size"]


@functools.lru_cache(maxsize=None)
def block_size() -> int | None:
    """The block of the destination layout oneDNN picks for a 64-channel 3x3 convolution,
    or None when it picks no channel block (the layout pass then does nothing)."""
    f32 = np.float32
    try:
        pd = PrimitiveDesc("convolution_forward", C.dnnl_forward_training,
                           C.dnnl_convolution_direct, Desc.any((8, 64, 16, 16), f32),
                           Desc.any((64, 64, 3, 3), f32), None, Desc.any((8, 64, 16, 16), f32),
                           dims((1, 1)), dims((0, 0)), dims((1, 1)), dims((1, 1)))
    except OneDnnError:
        return None
    blocks = pd.md(C.dnnl_query_dst_md).inner_blocks()
    return blocks[0][1] if len(blocks) == 1 and blocks[0][0] == 1 and blocks[0][1] in (8, 16) \
        else None
