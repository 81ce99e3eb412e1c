"""``sporeling export NAME --format sir|onnx``: a zoo model to a deployable file.

The model is built with its pretrained weights when the registry has them (``--random``:
fresh initialisation), traced in inference mode on example inputs of ``--batch`` samples
(float images, or integer ids for the text models) and written with
``sporeling.expression.export``. The file is then run against the model once and the
largest difference printed (onnxruntime for ONNX, when installed).

DDPM's ``construct`` computes its timestep features with NumPy, which a graph cannot hold:
its export is the denoising U-Net, inputs ``x_t`` (N, 1, 8, 8) and the (N, base) features.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from .train_args import int_at_least

__all__ = ["HELP", "configure", "run", "export_target"]

HELP = "export a zoo model to SIR (sx.load) or ONNX (onnxruntime)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="a zoo model (sporeling zoo list)")
    parser.add_argument("--format", dest="file_format", type=str.lower,
                        choices=("sir", "onnx"), default="sir", help="default: sir")
    parser.add_argument("--out", help="the file (default: NAME.sir / NAME.onnx)")
    parser.add_argument("--batch", type=int_at_least(1), default=1,
                        help="batch size of the example inputs (default: 1; ONNX files "
                             "take any batch size)")
    parser.add_argument("--random", action="store_true",
                        help="randomly initialised weights instead of the pretrained ones")
    parser.add_argument("--seed", type=int, default=0, help="example inputs' seed")


def _token_model(name: str, entry) -> bool:
    try:
        from .models.catalog import ALIASES, TOKEN_MODELS
        return ALIASES.get(name, name) in TOKEN_MODELS
    except ImportError:  # a zoo without the catalog: sequences have a 1-d sample shape
        return len(entry.input_shape) == 1


def export_target(name: str, net, batch: int, seed: int = 0):
    """``(cell, inputs)``: what to trace for the zoo model ``name`` and its example inputs."""
    import sporeling.expression as sx
    from .registry import get_model_entry
    entry = get_model_entry(name, op="export")
    rng = np.random.default_rng(seed)
    shape = (batch, *entry.input_shape)
    if _token_model(name, entry):
        ids = rng.integers(0, _vocabulary(net), shape).astype(np.int32)
        return net, (sx.Tensor(ids),)
    x = sx.Tensor(rng.standard_normal(shape).astype(np.float32))
    unet = getattr(net, "unet", None)
    if type(net).__name__ == "DDPM" and unet is not None:
        feats = rng.standard_normal((batch, unet.base)).astype(np.float32)
        return unet, (x, sx.Tensor(feats))
    return net, (x,)


def _vocabulary(net) -> int:
    """Rows of the model's first embedding table: the ids it accepts."""
    import sporeling.expression as sx
    for _, cell in net.cells_and_names():
        if isinstance(cell, sx.nn.Embedding):
            return int(next(iter(cell.get_parameters())).shape[0])
    return 2


def _build(name: str, random: bool):
    from .registry import get_model_entry
    entry = get_model_entry(name, op="export")
    if random or entry.weights is None:
        net = entry.factory()
        net.set_train(False)
        return net, False
    from . import load
    return load(name, pretrained=True), True


def _check(cell, inputs, path: Path, fmt: str) -> float | None:
    """The largest difference between the file's outputs and the model's."""
    import sporeling.expression as sx
    want = cell(*inputs)
    want = list(want) if isinstance(want, (tuple, list)) else [want]
    if fmt == "sir":
        got = sx.load(path)(*inputs)
        got = list(got) if isinstance(got, (tuple, list)) else [got]
        got = [g.asnumpy() for g in got]
    else:
        try:
            import onnxruntime as ort
        except ImportError:
            return None
        sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        got = sess.run(None, {f"input{i}": x.asnumpy() for i, x in enumerate(inputs)})
    return max(float(np.max(np.abs(g - w.asnumpy()), initial=0.0)) for g, w in zip(got, want))


def run(args: argparse.Namespace) -> int:
    import sporeling.expression as sx
    net, pretrained = _build(args.name, args.random)
    cell, inputs = export_target(args.name, net, args.batch, args.seed)
    out = Path(args.out or f"{args.name}.{args.file_format}")
    path = sx.export(cell, *inputs, file_name=str(out), file_format=args.file_format.upper())
    diff = _check(cell, inputs, path, args.file_format)
    weights = "pretrained" if pretrained else "random"
    shapes = ", ".join(f"{x.dtype}{list(x.shape)}" for x in inputs)
    checked = "not run (onnxruntime not installed)" if diff is None else \
        f"max |file - model| = {diff:.3g}"
    print(f"{args.name} ({weights} weights) -> {path} ({path.stat().st_size / 1e6:.2f} MB, "
          f"{args.file_format.upper()}); inputs {shapes}; {checked}")
    return 0
