"""Grades the engine at levels 1-10 and OpenSpiel's MCTS bot on the Kalah(6,4) mid-game set.

Each player chooses a move on each of the first ``--positions`` positions of the committed
mid-game file of ``mancala bench`` (240 positions of Kalah(6,4) from random play, 5 to 30
seeds in the houses); ``mancala.grade`` scores every move by the seeds it gives away against
the exact values of all moves (the solver with the cached endgame database). It prints a
Markdown table (share of optimal moves, mean and worst seed loss, failures, seconds), and
draws the share of optimal moves by level when matplotlib is installed.

    python python/examples/grade_levels_and_mcts.py --positions 40 --time 0.2 --simulations 200

The engine levels search in this process with ``--time`` seconds a move (levels 1-9 also
stop at their depth limit). OpenSpiel's MCTS bot (``open_spiel.python.algorithms.mcts``,
random rollouts, UCT c = 2, win/loss returns) plays through the bridge ``mancala.openspiel``
as a Python callable, with ``--simulations`` simulations a move.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import mancala


def mcts_player(simulations: int, seed: int):
    """OpenSpiel's MCTS bot as a player: ``Kalah game -> house``."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import mancala.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("mancala_kalah(houses=6,seeds=4,returns=win)")
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        random_state=rng,
    )

    def play(position: mancala.Kalah):
        state = game.state_at(position)
        return game.move_of(bot.step(state))

    play.__name__ = f"openspiel mcts {simulations} simulations"
    return play


def row(name: str, r: mancala.GradeReport, seconds: float) -> str:
    return (f"| {name} | {r.positions} | {100 * r.optimal:.1f} % | {r.mean_loss:.2f} | "
            f"{r.worst_loss} | {len(r.failures)} | {seconds:.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--time", type=float, default=0.2, help="seconds a move of the engine")
    ap.add_argument("--simulations", type=int, default=200, help="MCTS simulations a move")
    ap.add_argument("--no-mcts", action="store_true")
    ap.add_argument("--plot", default="grade_levels.png", help="the plot's file (matplotlib)")
    args = ap.parse_args()

    solver = mancala.Solver(egdb=mancala.Egdb.cached("standard"))
    print("| player | positions | optimal | mean loss (seeds) | worst loss | failures | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    optimal = []
    for level in range(1, 11):
        t0 = time.time()
        r = mancala.grade(level, "midgame64", take=args.positions, solver=solver,
                          time=args.time, grace=1.0)
        optimal.append(r.optimal)
        print(row(f"engine level {level}", r, time.time() - t0), flush=True)
    if not args.no_mcts:
        t0 = time.time()
        player = mcts_player(args.simulations, seed=1)
        r = mancala.grade(player, "midgame64", take=args.positions, solver=solver,
                          time=60.0, grace=1.0)
        print(row(f"OpenSpiel MCTS, {args.simulations} simulations", r, time.time() - t0))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib is not installed: no plot)")
        return
    plt.bar(range(1, 11), [100 * o for o in optimal])
    plt.xlabel("engine level")
    plt.ylabel("optimal moves (%)")
    plt.title(f"Kalah(6,4) mid-game set, {args.positions} positions")
    plt.savefig(args.plot, dpi=100)
    print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
