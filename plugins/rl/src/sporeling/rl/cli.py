"""``sporeling rl train {dqn,ppo}``: train an agent, print progress, write the curve and the
result.

    sporeling rl train ppo                           # CartPole-v1, seed 0, up to 100k steps
    sporeling rl train dqn --steps 60000 --seed 1 --out runs/dqn

Writes ``OUT/<algo>_curve.png`` and ``OUT/<algo>_result.json`` and prints the mean return
of the final policy over the evaluation episodes (100 by default). Exits 0 when that mean
reaches the target (475), 3 when training ended below it, 1 on a bad environment.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

__all__ = ["HELP", "configure", "run"]

HELP = "reinforcement learning: train DQN or PPO on a gymnasium environment"
BELOW_TARGET = 3


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an int >= 1, got {text}")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="rl_command", metavar="SUBCOMMAND")
    train = sub.add_parser("train", help="train an agent until its greedy policy's mean "
                                         "return reaches the target or the steps run out")
    train.add_argument("algo", choices=("dqn", "ppo"))
    train.add_argument("--env", default="CartPole-v1", help="gymnasium id (default CartPole-v1)")
    train.add_argument("--steps", type=_positive, default=100_000,
                       help="most environment steps (default 100000)")
    train.add_argument("--seed", type=int, default=0)
    train.add_argument("--out", default="rl_runs", help="folder for the curve and the result")
    train.add_argument("--num-envs", type=_positive, help="vectorised environments "
                                                          "(default: 4 for DQN, 8 for PPO)")
    train.add_argument("--target", type=float, default=475.0,
                       help="mean evaluation return that ends training (default 475)")
    train.add_argument("--eval-every", type=_positive, default=4096,
                       help="env steps between screening evaluations (default 4096)")
    train.add_argument("--eval-episodes", type=_positive, default=100,
                       help="episodes of the final evaluation (default 100)")
    train.add_argument("--no-jit", action="store_true",
                       help="run the update step in PyNative mode instead of one graph")


def run(args: argparse.Namespace) -> int:
    if getattr(args, "rl_command", None) != "train":
        print("usage: sporeling rl train {dqn,ppo} [--env ID] [--steps N] [--seed S] "
              "[--out DIR]", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"sporeling rl: error: argument --out: {out} exists and is not a folder",
              file=sys.stderr)
        return 2
    from .curve import plot_curves
    from .envs import env_spec
    from .train import train

    env_spec(args.env, op=args.algo)  # a bad id or space fails before anything is printed

    config = {"jit": not args.no_jit}
    if args.num_envs:
        config["num_envs"] = args.num_envs
    print(f"training {args.algo.upper()} on {args.env} for at most {args.steps} env steps, "
          f"seed {args.seed}", flush=True)
    _, history = train(args.algo, args.env, args.steps, args.seed, target=args.target,
                       eval_every=args.eval_every, eval_episodes=args.eval_episodes,
                       log=lambda line: print(line, flush=True), **config)
    out.mkdir(parents=True, exist_ok=True)
    curve = plot_curves([history], out / f"{args.algo}_curve.png", target=args.target)
    result = out / f"{args.algo}_result.json"
    result.write_text(json.dumps(history.summary(), indent=2) + "\n")
    if history.reached_at is not None:
        print(f"reached {args.target:g} at {history.reached_at} env steps "
              f"({history.reached_seconds:.1f} s)")
    else:
        print(f"did not reach {args.target:g} in {history.env_steps} env steps "
              f"({history.seconds:.1f} s); the best weights seen are evaluated")
    print(f"final mean return over {history.final_episodes} evaluation episodes: "
          f"{history.final_mean:.1f} +- {history.final_std:.1f}")
    print(f"curve: {curve}\nresult: {result}")
    return 0 if history.final_mean >= args.target else BELOW_TARGET
