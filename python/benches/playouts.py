"""Random playouts a second from Python: this package against OpenSpiel through ``pyspiel``,
in one run on one machine (BENCHMARKS.md, "Python" and "Oware"). ``--game kalah`` (the
default) plays Kalah(6,4) against OpenSpiel's ``mancala``; ``--game oware`` plays the
``oware-openspiel`` rule set (OpenSpiel's reading of Oware) against OpenSpiel's ``oware``.

Three ways, each a whole game from the start with uniformly random legal moves:

* ``pyspiel loop``: a Python loop over ``state.legal_actions()`` and
  ``state.apply_action()`` (OpenSpiel has no batched playout for Python);
* ``mancala loop``: the same loop over ``Kalah.legal_moves()`` and ``Kalah.play()``
  (``Oware``'s for ``--game oware``);
* ``mancala batch``: ``mancala.random_playouts(n, rules=...)``, the whole games in Rust.

Each is timed ``--repeat`` times; the medians of wall time and of CPU time (this process's
user + system time, ``time.process_time``) are printed with the ratios to OpenSpiel.

    python python/benches/playouts.py [--game kalah|oware] [--games 2000] [--batch 200000]
                                      [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Callable, Dict, List, Tuple

import mancala


# Per game: OpenSpiel's game name, this package's class and rule set.
GAMES = {
    "kalah": ("mancala", mancala.Kalah, "standard"),
    "oware": ("oware", mancala.Oware, "oware-openspiel"),
}
GAME = "kalah"


def pyspiel_loop(games: int, seed: int) -> None:
    import pyspiel

    game = pyspiel.load_game(GAMES[GAME][0])
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))


def mancala_loop(games: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(games):
        _, cls, rules = GAMES[GAME]
        g = cls(rules)
        while not g.is_over():
            g.play(rng.choice(g.legal_moves()))


def mancala_batch(games: int, seed: int) -> None:
    mancala.random_playouts(games, seed, rules=GAMES[GAME][2])


def measure(f: Callable[[int, int], None], games: int, repeat: int) -> Tuple[float, float]:
    """Median games a second of wall time and of CPU time over ``repeat`` runs."""
    wall: List[float] = []
    cpu: List[float] = []
    for r in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        f(games, r)
        w1, c1 = time.perf_counter(), time.process_time()
        wall.append(games / (w1 - w0))
        cpu.append(games / max(c1 - c0, 1e-9))
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    global GAME
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="kalah")
    parser.add_argument("--games", type=int, default=2000, help="games of each Python loop")
    parser.add_argument("--batch", type=int, default=200_000, help="games of the batched call")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    GAME = args.game
    results: Dict[str, Tuple[float, float]] = {}
    # Interleaved, so that a change of the machine's load touches every way alike.
    for name, f, n in [
        ("pyspiel loop", pyspiel_loop, args.games),
        ("mancala loop", mancala_loop, args.games),
        ("mancala batch", mancala_batch, args.batch),
    ]:
        results[name] = measure(f, n, args.repeat)
    base_wall, base_cpu = results["pyspiel loop"]
    print(f"{'way':<14} {'games/s (wall)':>15} {'games/s (CPU)':>14} {'x pyspiel (wall)':>17} {'x pyspiel (CPU)':>16}")
    for name, (wall, cpu) in results.items():
        print(f"{name:<14} {wall:>15,.0f} {cpu:>14,.0f} {wall / base_wall:>17.1f} {cpu / base_cpu:>16.1f}")


if __name__ == "__main__":
    main()
