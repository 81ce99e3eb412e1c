"""``sporeling zoo train NAME``: the recipe trains from scratch (seeded), and what it prints
is the registry entry of the file it saved (about 20-30 s: the MLP on the digits)."""
import re

import sporeling.expression as sx
from sporeling.core.cli import main
from sporeling.zoo import recipes
from sporeling.zoo.hub import sha256_of
from sporeling.zoo.models import DigitsMLP


def test_train_saves_the_weights_and_prints_their_registry_entry(tmp_path, capsys):
    assert main(["zoo", "train", "mlp", "--seed", "0", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    path = tmp_path / "mlp.safetensors"
    assert f"mlp: trained with seed 0 -> {path}" in out
    assert f"sha256 {sha256_of(path)}, {path.stat().st_size} bytes" in out
    printed = float(re.search(r"test_accuracy=([0-9.]+)", out).group(1))
    net = DigitsMLP()
    sx.load_checkpoint(str(path), net, strict_load=True)
    measured = recipes.evaluate("mlp", net)["test_accuracy"]
    assert abs(measured - printed) < 1e-5 and measured > 0.9
    assert f"Weights(file='mlp.safetensors', sha256='{sha256_of(path)}'" in out
