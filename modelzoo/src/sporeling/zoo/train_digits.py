"""``sporeling train``: the main job -- train a digits classifier, report test accuracy,
save a checkpoint.

    sporeling train                       # LeNet-5 style CNN, PyNative mode
    sporeling train --model mlp --epochs 20
    sporeling train --mode graph          # the same, each step one compiled graph

In Graph mode the loss and its gradients (forward and backward) are one compiled graph,
compiled once; the optimizer's update stays eager NumPy; evaluation compiles the network.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

MODELS = {"lenet": "lenet5_digits", "mlp": "mlp_digits"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", choices=sorted(MODELS), default="lenet",
                        help="network to train (default: lenet)")
    parser.add_argument("--epochs", type=int, default=40, help="passes over the data")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-3,
                        help="Adam's peak learning rate (cosine decay to 2%% of it)")
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative",
                        help="execution mode: op by op (pynative) or compiled (graph)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=Path("checkpoints"),
                        help="folder for the checkpoint")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    import sporeling.expression as sx

    mode = sx.GRAPH_MODE if args.mode == "graph" else sx.PYNATIVE_MODE
    with sx.context(mode=mode):
        return _train(args, sx)


def _train(args: argparse.Namespace, sx) -> int:
    from sporeling.core import set_seed

    import sporeling.data as sd

    from .datasets import load_digits_split
    from .registry import create_model

    set_seed(args.seed)
    split = load_digits_split(seed=args.seed)
    net = create_model(MODELS[args.model])
    loss_fn = sx.nn.CrossEntropyLoss()
    steps_per_epoch = -(-len(split.train_y) // args.batch_size)
    schedule = sx.nn.cosine_decay_lr(0.02 * args.lr, args.lr, steps_per_epoch * args.epochs,
                                     steps_per_epoch, args.epochs)
    optimizer = sx.nn.Adam(net.trainable_params(), learning_rate=schedule)
    model = sx.Model(net, loss_fn=loss_fn, optimizer=optimizer, metrics={"acc"})
    callbacks = [] if args.no_progress else [sx.train.ProgressBar()]
    # the input pipeline: shuffled anew every epoch (seeded by set_seed), batched
    train_data = sd.NumpySlicesDataset((split.train_x, split.train_y), ["image", "label"]) \
        .shuffle(len(split.train_y)).batch(args.batch_size)
    start = time.perf_counter()
    model.train(args.epochs, train_data, callbacks=callbacks)
    seconds = time.perf_counter() - start
    result = model.eval(sd.NumpySlicesDataset((split.test_x, split.test_y),
                                              ["image", "label"]).batch(256))
    args.output.mkdir(parents=True, exist_ok=True)
    path = args.output / f"{MODELS[args.model]}.safetensors"
    sx.save_checkpoint(net, str(path))
    print(f"model {args.model}: {args.epochs} epochs in {seconds:.1f} s "
          f"({len(split.train_y)} training images, {args.mode} mode)")
    print(f"test accuracy: {100 * result['acc']:.2f}% on {len(split.test_y)} images")
    print(f"checkpoint: {path}")
    return 0
