"""``python -m sporeling.zoo.recipes NAME [--seed S] [--out DIR]``: train one zoo model with
its recipe and print its metrics as one JSON line (``sporeling zoo train NAME`` does the
same with a longer report)."""
import argparse
import json


def main(argv=None) -> None:
    from . import names, train
    parser = argparse.ArgumentParser(prog="python -m sporeling.zoo.recipes")
    parser.add_argument("name", choices=names())
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="checkpoints")
    args = parser.parse_args(argv)
    path, metrics = train(args.name, seed=args.seed, out_dir=args.out)
    print(json.dumps({"name": args.name, "path": str(path), **metrics}))


if __name__ == "__main__":
    main()
