"""The shipped weight files: one per model trainable offline, whole, hashed, registered, small
enough, and part of the package."""
import fnmatch
from pathlib import Path

import numpy as np
import pytest

from sporeling.expression.serialization.safetensors_io import CheckpointError
from sporeling.zoo import get_models, pretrained, recipes
from sporeling.zoo.hub import sha256_of
from sporeling.zoo.pretrained import SHIPPED, load_pretrained, weights_path

PYPROJECT = Path(__file__).parents[1] / "pyproject.toml"


def test_every_model_with_a_recipe_ships_weights():
    assert set(SHIPPED) == set(recipes.names())
    assert len(SHIPPED) == 10


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_file_is_the_one_recorded(name):
    path, entry = weights_path(name), SHIPPED[name]
    assert path.stat().st_size == entry.size
    assert sha256_of(path) == entry.sha256
    assert entry.metrics and entry.data in pretrained.DATA


def test_all_files_together_stay_under_20_mb():
    total = sum(weights_path(name).stat().st_size for name in SHIPPED)
    assert total <= 20 * 1024 * 1024, f"{total / 2**20:.1f} MiB"


def test_pyproject_ships_the_weights_as_package_data():
    try:
        import tomllib
    except ImportError:  # Python 3.10
        tomllib = pytest.importorskip("tomli")
    config = tomllib.loads(PYPROJECT.read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["sporeling.zoo"]
    for name in SHIPPED:
        relative = weights_path(name).relative_to(Path(pretrained.__file__).parent)
        assert any(fnmatch.fnmatch(str(relative), p) for p in patterns), relative


@pytest.mark.parametrize("name", ["lenet5", "lenet5_digits", "mlp_digits", "char_gpt"])
def test_the_registry_carries_the_shipped_weights_under_old_and_new_names(name):
    w = get_models()[name].weights
    canonical = {"lenet5_digits": "lenet5", "mlp_digits": "mlp"}.get(name, name)
    assert w.sha256 == SHIPPED[canonical].sha256 and w.metrics == SHIPPED[canonical].metrics
    assert w.urls == (f"package://sporeling.zoo/weights/{canonical}.safetensors",)
    assert w.license == "Apache-2.0"


def test_load_pretrained_equals_the_hub_load_and_refuses_a_file_with_another_hash(monkeypatch):
    from sporeling.zoo import load
    a, b = load_pretrained("mlp"), load("mlp")
    for (_, p), (_, q) in zip(a.parameters_and_names(), b.parameters_and_names()):
        assert np.array_equal(p.asnumpy(), q.asnumpy())
    entry = SHIPPED["mlp"]
    monkeypatch.setitem(SHIPPED, "mlp", type(entry)(**{**entry.__dict__, "sha256": "0" * 64}))
    with pytest.raises(CheckpointError, match=f"expected sha256 0{{64}}, got sha256 "
                                              f"{entry.sha256}"):
        load_pretrained("mlp")
