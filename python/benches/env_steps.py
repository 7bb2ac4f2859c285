"""The single-agent Gymnasium environment's steps a second, and its own cost a step apart
from the agent's draw (BENCHMARKS.md, "Python").

``MancalaEnv("standard")`` (Kalah(6,4)) against its random opponent, whole episodes from
``reset(seed=1)``, the agent's action drawn from ``info["action_mask"]`` by one of:

* ``numpy``: ``rng.choice(np.flatnonzero(mask))`` with a NumPy ``Generator`` (as
  ``steps.py`` draws);
* ``random``: ``random.choice(np.flatnonzero(mask))`` (Python's generator);
* ``first``: ``int(mask.argmax())``, the first legal action.

Each round runs the loop for ``--steps`` agent steps, then the draw alone over the masks the
loop saw (no environment), both timed by ``time.process_time`` (this process's user and
system time). The environment's own cost a step is the difference; the medians of the
rounds are printed. The script only uses what every version of the package since 0.2.0 has,
so that two installs (two virtual environments) can be run in turn, round by round, to
compare builds:

    python python/benches/env_steps.py [--draw numpy|random|first] [--steps 100000]
                                       [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from mancala.envs import MancalaEnv


def drawer(kind: str):
    if kind == "numpy":
        g = np.random.default_rng(1)
        return lambda mask: g.choice(np.flatnonzero(mask))
    if kind == "random":
        r = random.Random(1)
        return lambda mask: r.choice(np.flatnonzero(mask))
    return lambda mask: int(mask.argmax())


def one_round(kind: str, steps: int):
    env = MancalaEnv("standard", opponent="random")
    draw = drawer(kind)
    masks = []
    obs, info = env.reset(seed=1)
    t = time.process_time()
    for _ in range(steps):
        mask = info["action_mask"]
        masks.append(mask)
        obs, reward, terminated, truncated, info = env.step(draw(mask))
        if terminated or truncated:
            obs, info = env.reset()
    loop = time.process_time() - t
    draw = drawer(kind)
    t = time.process_time()
    for mask in masks:
        draw(mask)
    alone = time.process_time() - t
    return steps / loop, (loop - alone) / steps * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--draw", choices=["numpy", "random", "first"], default="random")
    ap.add_argument("--steps", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rates, costs = [], []
    for _ in range(args.repeat):
        rate, cost = one_round(args.draw, args.steps)
        rates.append(rate)
        costs.append(cost)
    print(
        f"draw {args.draw}: {statistics.median(rates):,.0f} agent steps a CPU-second; "
        f"the environment alone {statistics.median(costs):.2f} us of CPU a step"
    )


if __name__ == "__main__":
    main()
