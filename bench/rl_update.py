"""RL update steps, side by side: Sporeling PyNative vs one jit graph vs PyTorch.

(a) DQN: Q-network 4-64-64-2 (ReLU), batch 64, Huber TD loss, Adam;
(b) PPO: actor and critic 4-64-64-{2,1} (tanh), minibatch 256, clipped surrogate + value
    loss, global-norm clipping, Adam.
The same steps the agents of ``sporeling.rl`` take (their own update functions), on
CartPole-sized data; one BLAS thread and one torch thread (what training uses). Timed in
blocks with 0.3 s idle before each and alternating order (``bench/timing.py``).

    python bench/rl_update.py [--blocks 7 --steps 30]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).parent))
from timing import compare, print_table, ratio  # noqa: E402

import sporeling.expression as sx  # noqa: E402
from sporeling.rl import DQN, DQNConfig, PPO, PPOConfig  # noqa: E402

try:
    import torch
    torch.set_num_threads(1)
except ImportError:  # PyTorch is optional: only a comparison
    torch = None


def _data(n, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(n, 4)).astype(np.float32), rng.integers(0, 2, n),
            rng.normal(-0.7, 0.1, n).astype(np.float32), rng.normal(size=n).astype(np.float32),
            rng.normal(size=n).astype(np.float32))


def _torch_mlp(out, act):
    return torch.nn.Sequential(torch.nn.Linear(4, 64), act(), torch.nn.Linear(64, 64), act(),
                               torch.nn.Linear(64, out))


def dqn_contenders():
    obs, actions, _, _, targets = _data(64)
    args = [sx.Tensor(x) for x in (obs, actions, targets)]
    fns = {}
    for label, jit in (("PyNative", False), ("jit", True)):
        agent = DQN(config=DQNConfig(num_envs=1, jit=jit))
        fns[f"sporeling {label}"] = lambda agent=agent: agent._update(*args)
    if torch is not None:
        net = _torch_mlp(2, torch.nn.ReLU)
        opt = torch.optim.Adam(net.parameters(), lr=2.3e-3)
        o, a, y = torch.tensor(obs), torch.tensor(actions), torch.tensor(targets)

        def step():
            loss = torch.nn.functional.smooth_l1_loss(net(o).gather(1, a[:, None])[:, 0], y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            return loss
        fns["torch"] = step
    return fns


def ppo_contenders():
    data = _data(256, 1)
    args = [sx.Tensor(x) for x in data]
    fns = {}
    for label, jit in (("PyNative", False), ("jit", True)):
        agent = PPO(config=PPOConfig(num_envs=1, jit=jit))
        fns[f"sporeling {label}"] = lambda agent=agent: agent._update(*args)
    if torch is not None:
        actor, critic = _torch_mlp(2, torch.nn.Tanh), _torch_mlp(1, torch.nn.Tanh)
        params = [*actor.parameters(), *critic.parameters()]
        opt = torch.optim.Adam(params, lr=1e-3, eps=1e-5)
        o, a, old, adv, ret = (torch.tensor(x) for x in data)

        def step():
            logp = torch.log_softmax(actor(o), -1).gather(1, a[:, None])[:, 0]
            ratio_ = torch.exp(logp - old)
            policy = -torch.min(ratio_ * adv, torch.clamp(ratio_, 0.8, 1.2) * adv).mean()
            loss = policy + 0.5 * ((critic(o)[:, 0] - ret) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 0.5)
            opt.step()
            return loss
        fns["torch"] = step
    return fns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=7)
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()
    rows = []
    with threadpool_limits(limits=1, user_api="blas"):
        for name, contenders in (("DQN update (batch 64)", dqn_contenders()),
                                 ("PPO update (batch 256)", ppo_contenders())):
            t = compare(contenders, steps=args.steps, blocks=args.blocks)
            base = t["sporeling jit"]
            for who, timing in t.items():
                rows.append([name, who, timing.ms(), ratio(timing, base)])
    print_table(["step", "contender", "per step: median (spread)", "vs jit"], rows)


if __name__ == "__main__":
    main()
