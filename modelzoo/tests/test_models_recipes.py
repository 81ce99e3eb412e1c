"""``recipes.train(name, seed, out_dir) -> (path, metrics)``: seeded and deterministic (the
same seed gives the same file bit for bit), evaluated with the recipe's metric."""
from functools import partial

import numpy as np
import pytest

from sporeling.core import PluginError
from sporeling.zoo import recipes
from sporeling.zoo.hub import sha256_of
from sporeling.zoo.recipes import lstm_text
from sporeling.zoo.recipes.loop import Recipe


@pytest.fixture
def short_lstm(monkeypatch):
    full = lstm_text.RECIPES["lstm_text"]
    monkeypatch.setitem(lstm_text.RECIPES, "lstm_text",
                        Recipe(partial(lstm_text._train, steps=5), full.evaluate, full.data,
                               full.metric))


def test_train_saves_its_checkpoint_the_same_seed_the_same_file_another_seed_another(
        tmp_path, short_lstm):
    a, ma = recipes.train("lstm_text", seed=0, out_dir=tmp_path / "a")
    assert a == tmp_path / "a" / "lstm_text.safetensors" and a.stat().st_size > 0
    assert set(ma) == {"test_accuracy", "train_seconds"} and 0 <= ma["test_accuracy"] <= 1
    b, mb = recipes.train("lstm_text", seed=0, out_dir=tmp_path / "b")
    c, _ = recipes.train("lstm_text", seed=1, out_dir=tmp_path / "c")
    assert sha256_of(a) == sha256_of(b) and ma["test_accuracy"] == mb["test_accuracy"]
    assert sha256_of(a) != sha256_of(c)


def test_every_registered_model_has_a_recipe_and_old_names_reach_theirs():
    assert recipes.names() == sorted(["lenet5", "mlp", "resnet20", "resnet18", "mobilenet_v2",
                                      "vit_tiny", "char_gpt", "vae", "ddpm", "lstm_text"])
    assert recipes.get_recipe("lenet5_digits") is recipes.get_recipe("lenet5")


def test_an_unknown_model_has_no_recipe():
    with pytest.raises(PluginError, match="no training recipe for model 'lenet6'; expected one "
                                          "of char_gpt, ddpm"):
        recipes.train("lenet6")


def test_batches_cover_every_sample_at_most_once_per_epoch():
    from sporeling.zoo.recipes.loop import batches
    feed = batches(10, 3, np.random.default_rng(0))
    epoch = np.concatenate([next(feed) for _ in range(3)])
    assert len(set(epoch.tolist())) == 9  # 3 full batches; the remainder waits
