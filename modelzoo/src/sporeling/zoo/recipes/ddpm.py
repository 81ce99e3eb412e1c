"""The DDPM's recipe: the digits' training split, the simple noise-prediction loss at
uniformly drawn timesteps, Adam.

The metric is a "digits Inception Score": the shipped LeNet-5 (>= 98% on the test digits)
classifies ``SAMPLES`` images drawn by the sampler (seed 0), and the score is
``exp(E_x KL(p(y|x) || p(y)))`` -- high when each sample is confidently one digit *and*
all ten digits appear (at most 10). The test digits themselves score ``REAL_SCORE``
(recorded as the reference); also recorded is the LeNet's mean confidence on the samples.
"""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx

from ..datasets import load_digits_split
from .classifiers import SPLIT_SEED
from .loop import Recipe, batches, fit

__all__ = ["RECIPES", "digits_inception_score", "SAMPLES"]

SAMPLES = 64


def digits_inception_score(images: np.ndarray, classifier=None) -> tuple[float, float]:
    """``(score, mean confidence)`` of ``images`` (N, 1, 8, 8) in [0, 1] under the shipped
    LeNet-5 (or ``classifier``)."""
    if classifier is None:
        from ..pretrained import load_pretrained
        classifier = load_pretrained("lenet5")
    classifier.set_train(False)
    with sx.no_grad():
        logits = classifier(sx.Tensor(images.astype(np.float32))).asnumpy().astype(np.float64)
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    marginal = p.mean(0, keepdims=True)
    kl = (p * (np.log(p + 1e-12) - np.log(marginal + 1e-12))).sum(1)
    return float(np.exp(kl.mean())), float(p.max(1).mean())


def _evaluate(net) -> dict:
    net.set_train(False)
    score, confidence = digits_inception_score(net.sample(SAMPLES, seed=0))
    return {"digits_inception_score": score, "lenet_confidence": confidence}


def _train(net, seed: int, steps: int = 250, lr: float = 3e-3, batch: int = 32) -> None:
    x = load_digits_split(seed=SPLIT_SEED).train_x
    rng = np.random.default_rng(seed)

    def feed():
        for i in batches(len(x), batch, rng):
            yield (x[i], rng.integers(0, net.timesteps, len(i)),
                   rng.standard_normal(x[i].shape).astype(np.float32))

    fit(net, net.loss, feed(), steps=steps, lr=lr, clip=1.0)


RECIPES = {"ddpm": Recipe(_train, _evaluate, data="digits",
                          metric=f"digits_inception_score: the shipped LeNet-5's Inception "
                                 f"Score of {SAMPLES} samples (max 10)")}
