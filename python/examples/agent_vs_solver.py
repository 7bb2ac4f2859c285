"""Evaluates agents against the exact solver: how often is an agent's move a best move?

Nothing is trained. Positions are taken from random games of a small Kalah (Kalah(6,3) by
default, solved in about a second from the start); the solver values every legal move of
each position exactly (``mancala.analyse``), and each agent chooses a move there. For each
agent the script prints how often its move is one of the best moves and how many seeds its
moves lose on average against perfect play.

    python python/examples/agent_vs_solver.py --positions 100

The agents are a uniformly random mover and the engine (``mancala.Engine``) at a few
levels; any function ``game -> move`` can be added to ``AGENTS``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Callable, Dict, List, Tuple, Union

import mancala
from mancala import Kalah

Move = Union[int, str]


def sample_positions(rules: str, count: int, rng: random.Random) -> List[Kalah]:
    """``count`` distinct unfinished positions, each after 2..30 random moves from the
    start."""
    seen = set()
    positions: List[Kalah] = []
    while len(positions) < count:
        g = Kalah(rules)
        for _ in range(rng.randint(2, 30)):
            if g.is_over():
                break
            g.play(rng.choice(g.legal_moves()))
        if not g.is_over() and g.notation() not in seen:
            seen.add(g.notation())
            positions.append(Kalah(rules, position=g.notation()))
    return positions


def engine_agent(level: int, time_ms: int) -> Callable[[Kalah], Move]:
    engine = mancala.Engine(level=level, tt_mb=16, seed=level)
    return lambda g: engine.best_move(g, time_ms=time_ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="kalah(6,3)")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-ms", type=int, default=20, help="the engine's time a move")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    agents: Dict[str, Callable[[Kalah], Move]] = {"random": lambda g: rng.choice(g.legal_moves())}
    for level in (1, 3, 6, 10):
        agents[f"engine level {level}"] = engine_agent(level, args.time_ms)

    positions = sample_positions(args.rules, args.positions, rng)
    solver = mancala.Solver(tt_mb=128)
    t0 = time.perf_counter()
    analyses = [solver.analyse(g) for g in positions]
    print(f"{len(positions)} positions of {args.rules} valued exactly in {time.perf_counter() - t0:.1f} s")

    print(f"{'agent':<16} {'best move':>10} {'seeds lost a move':>18}")
    for name, agent in agents.items():
        best = 0
        lost = 0
        for g, a in zip(positions, analyses):
            values: Dict[Move, int] = {m.move: m.value for m in a.moves}
            top = max(values.values())
            mv = agent(g.copy())
            best += values[mv] == top
            lost += top - values[mv]
        n = len(positions)
        print(f"{name:<16} {100 * best / n:>9.1f}% {lost / n:>18.2f}")


if __name__ == "__main__":
    main()
