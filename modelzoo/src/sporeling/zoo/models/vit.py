"""Vision Transformer (Dosovitskiy et al., "An Image is Worth 16x16 Words: Transformers for
Image Recognition at Scale", ICLR 2021), tiny configuration."""
from __future__ import annotations

import numpy as np  # noqa: F401 (the doctest)

import sporeling.expression as sx
from sporeling.core import ShapeError
from sporeling.expression import nn, ops
from sporeling.expression.nn.init import Normal, initializer

from .attention import TransformerBlock

__all__ = ["ViT"]


class ViT(nn.Cell):
    """Patches embedded by a strided convolution, a class token, learned position
    embeddings, pre-norm transformer blocks, a LayerNorm and a dense head on the class token.

    The paper's ViT-Ti (DeiT-tiny) is ``embed_dim=192, depth=12, num_heads=3`` on 16x16
    patches of 224x224 images. The zoo's ``vit_tiny`` keeps the shape at the digits' scale:
    2x2 patches of the 8x8 image (16 tokens), ``embed_dim=64, depth=4, num_heads=4``.

        >>> x = sx.Tensor(np.zeros((2, 1, 8, 8), np.float32))
        >>> ViT()(x).shape
        (2, 10)
    """

    def __init__(self, image_size: int = 8, patch_size: int = 2, in_channels: int = 1,
                 num_classes: int = 10, embed_dim: int = 64, depth: int = 4,
                 num_heads: int = 4, mlp_ratio: float = 2.0):
        super().__init__()
        if image_size % patch_size:
            raise ShapeError("the image does not split into patches", op="ViT",
                             expected="image_size a multiple of patch_size",
                             got=f"image_size={image_size}, patch_size={patch_size}")
        tokens = (image_size // patch_size) ** 2
        self.embed_dim = embed_dim
        self.patch = nn.Conv2d(in_channels, embed_dim, patch_size, stride=patch_size,
                               pad_mode="valid", has_bias=True)
        self.cls_token = sx.Parameter(initializer(Normal(0.02), (1, 1, embed_dim)),
                                      name="cls_token")
        self.pos_embed = sx.Parameter(initializer(Normal(0.02), (1, tokens + 1, embed_dim)),
                                      name="pos_embed")
        self.blocks = nn.SequentialCell([TransformerBlock(embed_dim, num_heads, mlp_ratio)
                                         for _ in range(depth)])
        self.norm = nn.LayerNorm((embed_dim,), epsilon=1e-5)
        self.head = nn.Dense(embed_dim, num_classes)

    def construct(self, x):
        p = self.patch(x)                                   # (N, D, H/p, W/p)
        n = p.shape[0]
        p = ops.transpose(ops.reshape(p, (n, self.embed_dim, -1)), (0, 2, 1))  # (N, T, D)
        cls = ops.broadcast_to(self.cls_token, (n, 1, self.embed_dim))
        z = ops.add(ops.concat([cls, p], axis=1), self.pos_embed)
        z = self.norm(self.blocks(z))
        return self.head(z[:, 0])
