"""The VAE and the DDPM's pieces: ELBO, noise schedule, forward noising, sampler."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import ShapeError, set_seed
from sporeling.zoo.models.ddpm import DDPM, cosine_schedule
from sporeling.zoo.models.vae import VAE


def test_vae_elbo_is_the_bernoulli_likelihood_minus_the_kl():
    set_seed(0)
    vae = VAE(input_dim=4, hidden=8, latent_dim=2)
    x = np.array([[0.0, 1.0, 0.5, 0.25]], np.float32)
    eps = np.array([[0.3, -1.2]], np.float32)
    logits, mu, logvar = (t.asnumpy() for t in vae(sx.Tensor(x), sx.Tensor(eps)))
    p = 1 / (1 + np.exp(-logits))
    log_lik = (x * np.log(p) + (1 - x) * np.log(1 - p)).sum()
    kl = 0.5 * (np.exp(logvar) + mu ** 2 - 1 - logvar).sum()
    elbo = vae.elbo(sx.Tensor(x), sx.Tensor(eps)).asnumpy()
    np.testing.assert_allclose(elbo, [log_lik - kl], rtol=1e-5)


def test_cosine_schedule_goes_from_clean_to_noise():
    betas = cosine_schedule(50)
    alphas_bar = np.cumprod(1 - betas)
    assert betas.shape == (50,) and np.all((betas > 0) & (betas <= 0.999))
    assert np.all(np.diff(alphas_bar) < 0) and alphas_bar[0] > 0.99 and alphas_bar[-1] < 1e-3


def test_noising_mixes_the_scaled_image_and_the_noise():
    model = DDPM(timesteps=10, base=8, temb_dim=16)
    x0 = np.full((1, 1, 8, 8), 0.75, np.float32)
    noise = np.ones_like(x0)
    ab = model.alphas_bar[3]
    np.testing.assert_allclose(model.noisy(x0, np.array([3]), noise),
                               np.sqrt(ab) * 0.5 + np.sqrt(1 - ab), rtol=1e-6)


def test_sampler_is_reproducible_by_seed_and_stays_in_the_data_range():
    set_seed(0)
    model = DDPM(timesteps=5, base=8, temb_dim=16)
    a, b, c = model.sample(3, seed=1), model.sample(3, seed=1), model.sample(3, seed=2)
    assert a.shape == (3, 1, 8, 8) and np.array_equal(a, b) and not np.array_equal(a, c)
    assert a.min() >= 0.0 and a.max() <= 1.0


def test_ddpm_refuses_timesteps_outside_its_schedule():
    model = DDPM(timesteps=10, base=8, temb_dim=16)
    x = sx.Tensor(np.zeros((2, 1, 8, 8), np.float32))
    with pytest.raises(ShapeError, match=r"t of shape \(N,\) in \[0, 10\), got shape \(2,\) "
                                         r"with values 3..10"):
        model(x, np.array([3, 10]))
