"""Single steps and batched steps a second from Python, against a Python loop over
OpenSpiel's native game through ``pyspiel``, in one run on one machine (BENCHMARKS.md,
"Python"). ``--game kalah`` (the default) plays Kalah(6,4) against OpenSpiel's ``mancala``;
``--game oware`` the ``oware-openspiel`` rule set against OpenSpiel's ``oware``.

Seven ways of playing uniformly random legal moves, whole games from the start, each counted
in plies (moves of either player) or agent steps:

* ``pyspiel loop``: ``state.legal_actions()`` and ``state.apply_action()``;
* ``mancala loop``: ``game.legal_moves()`` and ``game.play()`` on a ``Kalah`` (``Oware``);
* ``gymnasium env``: ``MancalaEnv`` against its random opponent, the agent's action drawn
  from ``info["action_mask"]`` (agent steps: each holds the opponent's replies too);
* ``vector env``: ``mancala.VectorGames`` with ``--envs`` games, the actions drawn from the
  masks with NumPy (agent steps of all games);
* ``vector env, sample_actions``: the same, the actions drawn in Rust by
  ``VectorGames.sample_actions()``;
* ``empty loop``: the loops' shape over a stand-in game whose two calls do nothing (C list
  methods; 40 plies a game): the interpreter's floor under any binding's loop;
* ``vector self-play``: ``VectorGames(opponent=None)``, both players' actions from
  ``sample_actions()``: one ply of each game a step, so counted in plies as the loops are.

The ways run in turn, ``--repeat`` rounds of each (A, B, …, G, A, B, …, so that a change of
the machine's load falls on all alike); the medians of the rates by wall time and by CPU time
(``time.process_time``: this process's user + system time) are printed with the ratios to
the pyspiel loop.

    python python/benches/steps.py [--game kalah|oware] [--plies 200000] [--envs 256]
                                   [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Callable, Dict, List, Tuple

import numpy as np

import mancala

# Per game: OpenSpiel's game name, this package's rule set.
GAMES = {"kalah": ("mancala", "standard"), "oware": ("oware", "oware-openspiel")}


def pyspiel_loop(game_name: str, plies: int, seed: int) -> int:
    import pyspiel

    game = pyspiel.load_game(game_name)
    rng = random.Random(seed)
    done = 0
    while done < plies:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return done


def mancala_loop(rules: str, plies: int, seed: int) -> int:
    rng = random.Random(seed)
    done = 0
    while done < plies:
        game = mancala.new_game(rules)
        moves = game.legal_moves()
        while moves:
            game.play(rng.choice(moves))
            moves = game.legal_moves()
            done += 1
    return done


def empty_loop(plies: int, seed: int) -> int:
    rng = random.Random(seed)
    base, sink = [1, 2, 3, 4, 5, 6], []
    done = 0
    while done < plies:
        legal_moves, play = base.copy, sink.append
        moves = legal_moves()
        for _ in range(40):
            play(rng.choice(moves))
            moves = legal_moves()
            done += 1
        sink.clear()
    return done


def gymnasium_env(rules: str, plies: int, seed: int) -> int:
    from mancala.envs import MancalaEnv

    env = MancalaEnv(rules)
    rng = np.random.default_rng(seed)
    steps = 0
    _, info = env.reset(seed=seed)
    # An agent step holds the opponent's replies: about two plies.
    while steps * 2 < plies:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, _, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            _, info = env.reset()
    return steps


def vector_env(rules: str, plies: int, seed: int, envs: int) -> int:
    vec = mancala.VectorGames(rules, num_envs=envs, seed=seed)
    rng = np.random.default_rng(seed)
    _, _, _, _, masks = vec.reset()
    steps = 0
    while steps * 2 < plies:
        # A random legal action of each game: the largest of random keys over the mask.
        keys = rng.random(masks.shape) * masks
        _, _, _, _, masks = vec.step(keys.argmax(axis=1))
        steps += envs
    return steps


def vector_env_sampled(rules: str, plies: int, seed: int, envs: int, opponent: object = "random") -> int:
    vec = mancala.VectorGames(rules, num_envs=envs, seed=seed, opponent=opponent)
    vec.reset()
    steps = 0
    # An agent step against the opponent holds about two plies; a self-play step one.
    per_step = 1 if opponent is None else 2
    while steps * per_step < plies:
        vec.step(vec.sample_actions())
        steps += envs
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="kalah")
    parser.add_argument("--plies", type=int, default=200_000)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    spiel, rules = GAMES[args.game]
    ways: Dict[str, Callable[[int], int]] = {
        "pyspiel loop (plies)": lambda s: pyspiel_loop(spiel, args.plies, s),
        "mancala loop (plies)": lambda s: mancala_loop(rules, args.plies, s),
        "empty loop (plies)": lambda s: empty_loop(args.plies, s),
        "gymnasium env (agent steps)": lambda s: gymnasium_env(rules, args.plies // 4, s),
        "vector env (agent steps)": lambda s: vector_env(rules, args.plies * 4, s, args.envs),
        "vector env, sample_actions": lambda s: vector_env_sampled(rules, args.plies * 4, s, args.envs),
        "vector self-play (plies)": lambda s: vector_env_sampled(rules, args.plies * 4, s, args.envs, None),
    }
    rates: Dict[str, List[Tuple[float, float]]] = {name: [] for name in ways}
    for r in range(args.repeat):
        for name, way in ways.items():
            w0, c0 = time.perf_counter(), time.process_time()
            n = way(r)
            w, c = time.perf_counter() - w0, time.process_time() - c0
            rates[name].append((n / w, n / c))
    base = rates["pyspiel loop (plies)"]
    bw = statistics.median(x[0] for x in base)
    bc = statistics.median(x[1] for x in base)
    print(f"{args.game}: medians of {args.repeat} rounds")
    print(f"{'way':30} {'/s of CPU':>12} {'ratio':>7} {'/s of wall':>12} {'ratio':>7}")
    for name, xs in rates.items():
        w = statistics.median(x[0] for x in xs)
        c = statistics.median(x[1] for x in xs)
        print(f"{name:30} {c:12,.0f} {c / bc:6.2f}x {w:12,.0f} {w / bw:6.2f}x")


if __name__ == "__main__":
    main()
