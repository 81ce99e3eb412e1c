"""Variational autoencoder (Kingma and Welling, "Auto-Encoding Variational Bayes", ICLR
2014) for 8x8 images with pixels in [0, 1]."""
from __future__ import annotations

import numpy as np  # noqa: F401 (the doctest)

import sporeling.expression as sx
from sporeling.expression import nn, ops

__all__ = ["VAE"]


class VAE(nn.Cell):
    """Dense encoder to a diagonal Gaussian posterior over ``latent_dim`` latents, dense
    decoder to Bernoulli logits per pixel.

    ``construct(x, eps=None)`` returns ``(logits, mu, logvar)`` for images (N, 1, 8, 8) (or
    any shape with ``input_dim`` values per sample); ``eps`` (N, latent_dim) is the
    reparameterisation noise, drawn from ``ops.normal`` when omitted. :meth:`elbo` is the
    per-image evidence lower bound in nats; :meth:`decode` maps latents to pixel
    probabilities.

        >>> vae = VAE()
        >>> logits, mu, logvar = vae(sx.Tensor(np.zeros((2, 1, 8, 8), np.float32)))
        >>> logits.shape, mu.shape
        ((2, 64), (2, 8))
    """

    def __init__(self, input_dim: int = 64, hidden: int = 256, latent_dim: int = 8):
        super().__init__()
        self.input_dim, self.latent_dim = input_dim, latent_dim
        self.encoder = nn.SequentialCell(nn.Flatten(), nn.Dense(input_dim, hidden), nn.ReLU(),
                                         nn.Dense(hidden, hidden), nn.ReLU(),
                                         nn.Dense(hidden, 2 * latent_dim))
        self.decoder = nn.SequentialCell(nn.Dense(latent_dim, hidden), nn.ReLU(),
                                         nn.Dense(hidden, hidden), nn.ReLU(),
                                         nn.Dense(hidden, input_dim))

    def construct(self, x, eps=None):
        stats = self.encoder(x)
        mu, logvar = stats[:, :self.latent_dim], stats[:, self.latent_dim:]
        if eps is None:
            eps = ops.normal(mu.shape)
        z = ops.add(mu, ops.mul(ops.exp(ops.mul(logvar, 0.5)), eps))
        return self.decoder(z), mu, logvar

    def elbo(self, x, eps=None):
        """Per-image ELBO (N,): ``E_q[log p(x|z)] - KL(q(z|x) || N(0, I))`` with one sample
        of ``z``, the pixel intensities taken as Bernoulli targets."""
        logits, mu, logvar = self.construct(x, eps)
        target = ops.reshape(x, logits.shape)
        bce = ops.binary_cross_entropy_with_logits(logits, target, reduction="none")
        kl = ops.mul(ops.sum(ops.sub(ops.add(ops.exp(logvar), ops.square(mu)),
                                     ops.add(logvar, 1.0)), axis=1), 0.5)
        return ops.neg(ops.add(ops.sum(bce, axis=1), kl))

    def decode(self, z):
        """Pixel probabilities (N, input_dim) for latents (N, latent_dim)."""
        return ops.sigmoid(self.decoder(z if isinstance(z, sx.Tensor) else sx.Tensor(z)))
