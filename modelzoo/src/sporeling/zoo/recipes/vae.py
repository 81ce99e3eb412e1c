"""The VAE's recipe: the digits' training split, the negative ELBO, Adam; the metric is the
mean ELBO of the 359 test digits (nats per image, higher is better) with one reparameterised
sample per image drawn from a fixed generator, so it is the same for given weights."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.expression import ops

from ..datasets import load_digits_split
from .classifiers import SPLIT_SEED
from .loop import Recipe, batches, fit

__all__ = ["RECIPES", "test_elbo"]


def test_elbo(net) -> float:
    split = load_digits_split(seed=SPLIT_SEED)
    eps = np.random.default_rng(0).standard_normal((len(split.test_y), net.latent_dim))
    net.set_train(False)
    with sx.no_grad():
        elbo = net.elbo(sx.Tensor(split.test_x), sx.Tensor(eps.astype(np.float32)))
    return float(elbo.asnumpy().mean())


def _train(net, seed: int, steps: int = 1500, lr: float = 2e-3) -> None:
    x = load_digits_split(seed=SPLIT_SEED).train_x
    rng = np.random.default_rng(seed)

    def loss_of(xb):
        return ops.neg(ops.mean(net.elbo(xb)))

    feed = ((sx.Tensor(x[i]),) for i in batches(len(x), 64, rng))
    fit(net, loss_of, feed, steps=steps, lr=lr)


RECIPES = {"vae": Recipe(_train, lambda net: {"test_elbo": test_elbo(net)}, data="digits",
                         metric="test_elbo: mean ELBO of the test digits, nats per image")}
