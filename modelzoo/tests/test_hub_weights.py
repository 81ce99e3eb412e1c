"""The registry's weights entries: what a plugin gives ``add_model(..., weights=...)``."""
import pytest

from sporeling.core import PluginError
from sporeling.zoo import ModelRegistry
from sporeling.zoo.hub import Weights, sha256_of

SHA = "0123456789abcdef" * 4


def entry(**changes):
    fields = dict(file="net.safetensors", sha256=SHA, size=10,
                  urls=("https://example.org/net.safetensors",), license="MIT",
                  metrics={"accuracy": 0.5})
    fields.update(changes)
    return Weights(**fields)


def test_weights_are_normalised():
    w = entry(sha256="sha256:" + SHA.upper(), urls="file:///tmp/net.safetensors")
    assert w.sha256 == SHA and w.urls == ("file:///tmp/net.safetensors",)
    assert w.sources() == ("file",)


@pytest.mark.parametrize("changes, field", [
    (dict(file="../net.safetensors"), "file"), (dict(file="net.pkl"), "file"),
    (dict(sha256="abc"), "sha256"), (dict(size=0), "size"), (dict(size=True), "size"),
    (dict(urls=()), "urls"), (dict(urls=("ftp://x/net.safetensors",)), "url"),
    (dict(license=""), "license"), (dict(metrics={"acc": "high"}), "metric"),
])
def test_bad_weights_entries_say_which_field(changes, field):
    with pytest.raises(PluginError, match=f"bad pretrained-weights entry: {field}"):
        entry(**changes)


def test_from_file_measures_hash_and_size(tmp_path):
    path = tmp_path / "net.safetensors"
    path.write_bytes(b"0123456789")
    w = Weights.from_file(path, urls=(path.as_uri(),), license="MIT")
    assert (w.size, w.sha256, w.file) == (10, sha256_of(path), "net.safetensors")
    assert w.sha256 == "84d89877f0d4041efb6bf91a16f0248f2fd573e6af05c19f96bedb9f882f7882"


def test_add_model_keeps_old_calls_and_takes_weights():
    models = ModelRegistry()
    models.add_model("plain", dict, description="no weights", input_shape=(3,))
    models.add_model("trained", dict, description="weights", input_shape=(3,), weights=entry())
    assert models["plain"].weights is None
    assert models["trained"].weights.metrics == {"accuracy": 0.5}
    with pytest.raises(PluginError, match="bad weights"):
        models.add_model("odd", dict, description="x", input_shape=(3,), weights={"sha": 1})
