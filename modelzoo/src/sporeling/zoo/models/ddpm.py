"""A small denoising diffusion probabilistic model (Ho, Jain and Abbeel, "Denoising
Diffusion Probabilistic Models", NeurIPS 2020) for 8x8 images: a U-Net (Ronneberger,
Fischer and Brox, MICCAI 2015) that predicts the noise, the cosine noise schedule (Nichol
and Dhariwal, "Improved Denoising Diffusion Probabilistic Models", ICML 2021) and the
ancestral sampler."""
from __future__ import annotations

import math

import numpy as np

import sporeling.expression as sx
from sporeling.core import ShapeError
from sporeling.expression import nn, ops

__all__ = ["DDPM", "UNet", "cosine_schedule"]


def cosine_schedule(steps: int, s: float = 0.008) -> np.ndarray:
    """The betas (float64, ``steps``) of Nichol and Dhariwal's cosine schedule, capped at
    0.999."""
    f = np.cos((np.arange(steps + 1) / steps + s) / (1 + s) * math.pi / 2) ** 2
    return np.clip(1 - f[1:] / f[:-1], 0, 0.999)


def _timestep_features(t: np.ndarray, dim: int) -> np.ndarray:
    """Sinusoidal features (N, dim) of integer timesteps (the transformer's encoding)."""
    half = dim // 2
    freqs = np.exp(-math.log(10000.0) * np.arange(half) / half)
    angles = np.asarray(t, np.float64)[:, None] * freqs[None]
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1).astype(np.float32)


class ResBlock(nn.Cell):
    """GroupNorm-SiLU-conv twice, the time embedding added in between, and a shortcut."""

    def __init__(self, cin: int, cout: int, temb_dim: int, groups: int = 8):
        super().__init__()
        self.norm1, self.conv1 = nn.GroupNorm(groups, cin), nn.Conv2d(cin, cout, 3,
                                                                      has_bias=True)
        self.temb = nn.Dense(temb_dim, cout)
        self.norm2, self.conv2 = nn.GroupNorm(groups, cout), nn.Conv2d(cout, cout, 3,
                                                                       has_bias=True)
        self.skip = nn.Conv2d(cin, cout, 1, has_bias=True) if cin != cout else None
        self.act = nn.SiLU()

    def construct(self, x, temb):
        h = self.conv1(self.act(self.norm1(x)))
        t = self.temb(self.act(temb))
        h = ops.add(h, ops.reshape(t, (t.shape[0], t.shape[1], 1, 1)))
        h = self.conv2(self.act(self.norm2(h)))
        return ops.add(h, x if self.skip is None else self.skip(x))


class UNet(nn.Cell):
    """Two resolutions down (8 -> 4 -> 2), a middle block, two up with skip connections.
    ``construct(x, t_features)`` with ``t_features`` the (N, base) sinusoidal features."""

    def __init__(self, in_channels: int = 1, base: int = 32, temb_dim: int = 128):
        super().__init__()
        c1, c2 = base, 2 * base
        self.base = base
        self.time = nn.SequentialCell(nn.Dense(base, temb_dim), nn.SiLU(),
                                      nn.Dense(temb_dim, temb_dim))
        self.conv_in = nn.Conv2d(in_channels, c1, 3, has_bias=True)
        self.down1 = ResBlock(c1, c1, temb_dim)
        self.pool1 = nn.Conv2d(c1, c2, 3, stride=2, has_bias=True)
        self.down2 = ResBlock(c2, c2, temb_dim)
        self.pool2 = nn.Conv2d(c2, c2, 3, stride=2, has_bias=True)
        self.mid = ResBlock(c2, c2, temb_dim)
        self.unpool2 = nn.Conv2dTranspose(c2, c2, 2, stride=2, has_bias=True)
        self.up2 = ResBlock(2 * c2, c2, temb_dim)
        self.unpool1 = nn.Conv2dTranspose(c2, c1, 2, stride=2, has_bias=True)
        self.up1 = ResBlock(2 * c1, c1, temb_dim)
        self.out = nn.SequentialCell(nn.GroupNorm(8, c1), nn.SiLU(),
                                     nn.Conv2d(c1, in_channels, 3, has_bias=True))

    def construct(self, x, t_features):
        temb = self.time(t_features)
        h1 = self.down1(self.conv_in(x), temb)
        h2 = self.down2(self.pool1(h1), temb)
        h = self.mid(self.pool2(h2), temb)
        h = self.up2(ops.concat([self.unpool2(h), h2], axis=1), temb)
        h = self.up1(ops.concat([self.unpool1(h), h1], axis=1), temb)
        return self.out(h)


class DDPM(nn.Cell):
    """The noise-predicting U-Net with its schedule. Images are (N, 1, 8, 8) in [0, 1],
    mapped to [-1, 1] inside.

    ``construct(x_t, t)`` predicts the noise in ``x_t`` at integer timesteps ``t`` (N,);
    :meth:`loss` is the simple objective ``|eps - eps_theta(x_t, t)|^2``; :meth:`sample`
    runs the ancestral sampler from pure noise.

        >>> model = DDPM(timesteps=4, base=8, temb_dim=16)
        >>> model.sample(2, seed=0).shape
        (2, 1, 8, 8)
    """

    def __init__(self, timesteps: int = 50, in_channels: int = 1, image_size: int = 8,
                 base: int = 16, temb_dim: int = 64):
        super().__init__()
        self.timesteps, self.in_channels, self.image_size = timesteps, in_channels, image_size
        self.unet = UNet(in_channels, base, temb_dim)
        self.betas = cosine_schedule(timesteps)
        self.alphas_bar = np.cumprod(1 - self.betas)

    def construct(self, x_t, t):
        t = np.asarray(t.asnumpy() if isinstance(t, sx.Tensor) else t)
        if t.ndim != 1 or t.size and not (0 <= t.min() and t.max() < self.timesteps):
            raise ShapeError("timesteps outside the schedule", op="DDPM",
                             expected=f"t of shape (N,) in [0, {self.timesteps})",
                             got=f"shape {t.shape} with values "
                                 f"{t.min() if t.size else '-'}..{t.max() if t.size else '-'}")
        feats = sx.Tensor(_timestep_features(t, self.unet.base))
        return self.unet(x_t, feats)

    def noisy(self, x0: np.ndarray, t: np.ndarray, noise: np.ndarray) -> np.ndarray:
        """``x_t`` from clean images in [0, 1], timesteps and standard noise."""
        ab = self.alphas_bar[t].reshape(-1, 1, 1, 1)
        return (np.sqrt(ab) * (2 * x0 - 1) + np.sqrt(1 - ab) * noise).astype(np.float32)

    def loss(self, x0, t, noise):
        """The simple DDPM loss for a batch: clean images, timesteps, the noise."""
        x_t = self.noisy(np.asarray(x0), np.asarray(t), np.asarray(noise))
        return ops.mse_loss(self.construct(sx.Tensor(x_t), t), sx.Tensor(noise))

    def sample(self, n: int, seed: int = 0) -> np.ndarray:
        """``n`` images (n, C, H, W) in [0, 1] from the ancestral sampler, the predicted
        clean image clipped to the data range at each step; the same for the same seed."""
        rng = np.random.default_rng(seed)
        shape = (n, self.in_channels, self.image_size, self.image_size)
        x = rng.standard_normal(shape)
        ab, betas = self.alphas_bar, self.betas
        with sx.no_grad():
            for t in range(self.timesteps - 1, -1, -1):
                eps = self.construct(sx.Tensor(x.astype(np.float32)),
                                     np.full(n, t)).asnumpy().astype(np.float64)
                x0 = np.clip((x - np.sqrt(1 - ab[t]) * eps) / np.sqrt(ab[t]), -1, 1)
                if t == 0:
                    x = x0
                    break
                prev = ab[t - 1]
                mean = (betas[t] * np.sqrt(prev) * x0
                        + (1 - prev) * np.sqrt(1 - betas[t]) * x) / (1 - ab[t])
                var = betas[t] * (1 - prev) / (1 - ab[t])
                x = mean + np.sqrt(var) * rng.standard_normal(shape)
        return ((x + 1) / 2).astype(np.float32)
