"""``sporeling zoo list | info | pull | eval`` on a third party's models, weights served by a
real HTTP server."""
import re

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import set_plugin_host
from sporeling.core.cli import main
from sporeling.zoo import recipes
from sporeling.zoo.hub import Weights
from sporeling.zoo.models import DigitsMLP

import hub_test_server


@pytest.fixture
def mlp_file(tmp_path):
    """A DigitsMLP's weights (seeded, untrained) and the recipe's metrics of them."""
    from sporeling.core import set_seed
    set_seed(3)
    net = DigitsMLP()
    path = tmp_path / "my_mlp.safetensors"
    sx.save_checkpoint(net, str(path))
    return path, recipes.evaluate("mlp", net)


@pytest.fixture
def third_party(tmp_path, monkeypatch, server, mlp_file):
    """``my_mlp`` (weights over HTTP) and ``bare`` (no weights) from a fake plugin."""
    monkeypatch.setenv("SPORELING_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SPORELING_OFFLINE", raising=False)
    path, metrics = mlp_file
    url = server.add("my_mlp.safetensors", path.read_bytes())
    weights = Weights.from_file(path, urls=(url,), license="CC0-1.0", metrics=metrics,
                                recipe="seeded, untrained")
    previous = hub_test_server.install_third_party({"my_mlp": weights, "bare": None},
                                                   DigitsMLP)
    yield weights
    set_plugin_host(previous)


def test_list_shows_every_model_with_its_weights(third_party, capsys):
    assert main(["zoo", "list"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["NAME", "WEIGHTS", "LICENSE", "METRICS",
                                           "DESCRIPTION"]
    row = next(line for line in out.splitlines() if line.startswith("my_mlp "))
    accuracy = third_party.metrics["test_accuracy"]
    assert "CC0-1.0" in row and f"test_accuracy={accuracy:g}" in row and "KB" in row
    assert re.search(r"^bare +- +- +- +a third party's net", out, re.M)
    assert re.search(r"^lenet5 ", out, re.M)  # the zoo's own models are listed too


def test_info_then_pull_then_info_again(third_party, server, capsys, tmp_path):
    assert main(["zoo", "info", "my_mlp"]) == 0
    out = capsys.readouterr().out
    assert f"sha256:      {third_party.sha256}" in out and third_party.urls[0] in out
    assert "plugin:      thirdparty" in out and "not pulled yet" in out
    assert main(["zoo", "pull", "my_mlp", "--no-progress"]) == 0
    cached = tmp_path / "home" / "weights" / "my_mlp" / "my_mlp.safetensors"
    assert f"my_mlp: {cached} (sha256 {third_party.sha256[:12]}" in capsys.readouterr().out
    assert main(["zoo", "info", "my_mlp"]) == 0
    assert f"in the cache: {cached}" in capsys.readouterr().out
    assert main(["zoo", "pull", "--all", "--no-progress"]) == 0  # cached: nothing fetched
    assert server.hits["my_mlp.safetensors"] == 1


def test_pull_errors_exit_1_with_the_reason(third_party, server, capsys, monkeypatch):
    assert main(["zoo", "pull", "bare"]) == 1
    assert "'bare' has no pretrained weights" in capsys.readouterr().err
    monkeypatch.setenv("SPORELING_OFFLINE", "1")
    assert main(["zoo", "pull", "my_mlp"]) == 1
    err = capsys.readouterr().err
    assert "OfflineError" in err and "not in the cache" in err
    monkeypatch.setenv("SPORELING_OFFLINE", "0")
    server.routes["my_mlp.safetensors"].body = b"tampered"
    monkeypatch.setattr("pooch.core.time.sleep", lambda s: None)
    assert main(["zoo", "pull", "my_mlp", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "WeightsHashError" in err and third_party.sha256 in err and "(8 bytes)" in err


def test_eval_measures_the_pulled_weights_with_the_recipe(third_party, capsys):
    assert main(["zoo", "eval", "my_mlp", "--recipe", "mlp", "--no-progress"]) == 0
    out = capsys.readouterr().out
    value = f"{third_party.metrics['test_accuracy']:.6g}"
    assert re.search(rf"^test_accuracy +{value} +{value}$", out, re.M), out
    assert main(["zoo", "eval", "my_mlp"]) == 1  # no recipe named my_mlp
    assert "no training recipe for model 'my_mlp'" in capsys.readouterr().err


def test_bad_arguments_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["zoo", "train", "mlp", "--seed", "-1"])
    assert info.value.code == 2 and "expected an integer >= 0" in capsys.readouterr().err
    assert main(["zoo", "pull"]) == 2


def test_the_shipped_lenet5_evaluates_offline_to_its_recorded_metric(tmp_path, monkeypatch,
                                                                    capsys):
    monkeypatch.setenv("SPORELING_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SPORELING_OFFLINE", "1")  # a package:// file needs no network
    assert main(["zoo", "eval", "lenet5"]) == 0
    row = re.search(r"^test_accuracy +(\S+) +(\S+)$", capsys.readouterr().out, re.M)
    assert row and row.group(1) == row.group(2) and float(row.group(2)) >= 0.98
    assert not (tmp_path / "home").exists()  # read in place: nothing copied to the cache
