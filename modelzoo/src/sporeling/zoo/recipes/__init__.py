"""Training recipes: one per trainable zoo model -- seeded, deterministic, on data present
without a network -- and the evaluation that produces each shipped file's recorded metric.

    path, metrics = train("lenet5", seed=0, out_dir="weights/")   # what `sporeling zoo train` runs
    metrics = evaluate("lenet5", net)                              # what the tests re-check

``train`` seeds Sporeling (initial weights, random ops) and NumPy (batches), builds the model
with its registered defaults, trains it, evaluates it and saves ``<out_dir>/<name>.safetensors``
(atomically, via ``save_checkpoint``).
"""
from __future__ import annotations

import time
from pathlib import Path

from sporeling.core import PluginError

from .loop import Recipe

__all__ = ["Recipe", "names", "get_recipe", "train", "evaluate"]


def _all() -> dict[str, Recipe]:
    from . import char_gpt, classifiers, ddpm, lstm_text, vae
    return {**classifiers.RECIPES, **vae.RECIPES, **ddpm.RECIPES, **char_gpt.RECIPES,
            **lstm_text.RECIPES}


def names() -> list[str]:
    """The models that have a recipe (every model trainable offline)."""
    return sorted(_all())


def get_recipe(name: str) -> Recipe:
    from ..models.catalog import ALIASES
    recipes = _all()
    name = ALIASES.get(name, name)
    if name not in recipes:
        raise PluginError(f"no training recipe for model {name!r}", op="recipes.train",
                          expected=f"one of {', '.join(sorted(recipes))}", got=repr(name))
    return recipes[name]


def _one_blas_thread():
    """The zoo's matrices are small: one BLAS thread is several times faster than many
    competing for the cores (measured: the MLP's step 22 ms against 180 ms)."""
    from threadpoolctl import threadpool_limits  # scikit-learn's dependency
    return threadpool_limits(limits=1, user_api="blas")


def evaluate(name: str, net) -> dict[str, float]:
    """The recorded metrics of ``net`` (a ``name`` model), deterministic for its weights."""
    with _one_blas_thread():
        return get_recipe(name).evaluate(net)


def train(name: str, seed: int = 0, out_dir: str | Path = "checkpoints",
          verbose: bool = False) -> tuple[Path, dict[str, float]]:
    """Train ``name`` from scratch with its recipe; returns the checkpoint's path and its
    metrics (plus ``train_seconds``)."""
    import sporeling.expression as sx
    from sporeling.core import set_seed

    from ..registry import create_model

    recipe = get_recipe(name)
    set_seed(seed)
    net = create_model(name)
    start = time.perf_counter()
    with _one_blas_thread():
        recipe.train(net, seed)
        seconds = time.perf_counter() - start
        metrics = recipe.evaluate(net)
    path = Path(out_dir) / f"{name}.safetensors"
    path.parent.mkdir(parents=True, exist_ok=True)
    sx.save_checkpoint(net, str(path))
    if verbose:
        print(f"{name}: {metrics} in {seconds:.0f} s -> {path}")
    return path, {**metrics, "train_seconds": round(seconds, 1)}
