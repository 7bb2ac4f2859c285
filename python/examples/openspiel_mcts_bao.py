"""OpenSpiel's MCTS bot playing Bao la Kete through the bridge `mancala.openspiel`.

Importing ``mancala.openspiel`` registers ``mancala_bao`` (and ``mancala_kalah``,
``mancala_oware``) with OpenSpiel; from then on OpenSpiel's algorithms load it by name. Here
its MCTS bot (random rollouts) plays South against a uniformly random player, a few games:

    python python/examples/openspiel_mcts_bao.py --games 2 --simulations 100

Bao la Kete has no seed count: the returns are +1 / -1 (no draw); a game still on after
``max_moves`` moves (300 by default, a parameter of the game) stops with returns 0.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import uniform_random

import mancala.openspiel  # noqa: F401  (registers the games)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--simulations", type=int, default=100, help="MCTS simulations a move")
    ap.add_argument("--max-moves", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = pyspiel.load_game(f"mancala_bao(max_moves={args.max_moves})")
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations,
                       evaluator=evaluator, random_state=rng)
    opponent = uniform_random.UniformRandomBot(1, rng)
    wins = 0
    for g in range(args.games):
        state = game.new_initial_state()
        t0 = time.time()
        while not state.is_terminal():
            player = bot if state.current_player() == 0 else opponent
            state.apply_action(player.step(state))
        r = state.returns()
        wins += r[0] > 0
        print(f"game {g + 1}: {len(state.history())} moves, returns {r}, "
              f"{time.time() - t0:.1f} s; final position {state}")
    print(f"MCTS ({args.simulations} simulations a move) won {wins} of {args.games} as South")


if __name__ == "__main__":
    main()
