"""Random Togyz Kumalak playouts a second from Python (BENCHMARKS.md, "Togyz Kumalak"): this
package against a plain Python implementation of the same rules, in one run on one machine.

Three ways, each a whole game of ``togyz-kumalak`` from the start with uniformly random legal
moves:

* ``plain python``: the rules written as a plain Python loop over two lists (below, from
  ``docs/rules/togyz-kumalak.md``: sowing with the first kumalak back into the origin, the
  even capture, the tuzdyk, the empty-row and majority ends), one loop iteration a kumalak;
* ``mancala loop``: a Python loop over ``Togyz.legal_moves()`` and ``Togyz.play()``;
* ``mancala batch``: ``mancala.random_playouts(n, rules="togyz-kumalak")``, the whole games
  in Rust.

Each is timed ``--repeat`` times, the three in turn; the medians of wall time and of CPU
time (this process's user + system time, ``time.process_time``) are printed with the ratios
to the plain loop. The plain implementation's final scores are checked against the
library's on the same move sequences before timing.

    python python/benches/togyz_playouts.py [--games 500] [--batch 50000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Callable, Dict, List, Optional, Tuple

import mancala

H, S = 9, 9
TOTAL = 2 * H * S


class Plain:
    """Togyz Kumalak (``togyz-kumalak``) on two Python lists, written from the rules page."""

    def __init__(self) -> None:
        self.houses = [[S] * H, [S] * H]
        self.kazans = [0, 0]
        self.tuzdyks: List[Optional[int]] = [None, None]  # the opponent's house index owned
        self.to_move: Optional[int] = 0

    def moves(self) -> List[int]:
        p = self.to_move
        if p is None:
            return []
        return [i for i in range(H) if self.houses[p][i]]

    def play(self, i: int) -> None:
        me = self.to_move
        assert me is not None
        you = 1 - me
        n = self.houses[me][i]
        self.houses[me][i] = 0
        side, idx = me, i
        if n == 1:
            idx += 1
            if idx == H:
                side, idx = 1 - side, 0
            self._drop(side, idx)
        else:
            for k in range(n):
                if k:
                    idx += 1
                    if idx == H:
                        side, idx = 1 - side, 0
                self._drop(side, idx)
        if side == you and self.tuzdyks[me] != idx:
            v = self.houses[you][idx]
            if v % 2 == 0:
                self.kazans[me] += v
                self.houses[you][idx] = 0
            elif (
                v == 3
                and self.tuzdyks[me] is None
                and idx != H - 1
                and self.tuzdyks[you] != idx
            ):
                self.tuzdyks[me] = idx
                self.kazans[me] += 3
                self.houses[you][idx] = 0
        self.to_move = you
        if not any(self.houses[you]):
            for p in (0, 1):
                self.kazans[p] += sum(self.houses[p])
                self.houses[p] = [0] * H
            self.to_move = None
        elif 2 * max(self.kazans) > TOTAL or self.kazans[0] == self.kazans[1] == TOTAL // 2:
            self.to_move = None

    def _drop(self, side: int, idx: int) -> None:
        owner = 1 - side
        if self.tuzdyks[owner] == idx:
            self.kazans[owner] += 1
        else:
            self.houses[side][idx] += 1


def plain_loop(games: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(games):
        g = Plain()
        while g.to_move is not None:
            g.play(rng.choice(g.moves()))


def mancala_loop(games: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(games):
        g = mancala.Togyz("togyz-kumalak")
        while not g.is_over():
            g.play(rng.choice(g.legal_moves()))


def check_plain(games: int, seed: int) -> None:
    """The plain implementation ends every random game as the library does."""
    rng = random.Random(seed)
    for _ in range(games):
        g, p = mancala.Togyz("togyz-kumalak"), Plain()
        while not g.is_over():
            mv = rng.choice(g.legal_moves())
            assert [i + 1 for i in p.moves()] == g.legal_moves()
            g.play(mv)
            p.play(mv - 1)
        assert p.to_move is None and p.kazans == [g.store(0), g.store(1)], g.notation()


def timed(fn: Callable[[], None]) -> Tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=500, help="games of each Python loop")
    ap.add_argument("--batch", type=int, default=50_000, help="games of the batched call")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    check_plain(200, 7)
    ways: Dict[str, Tuple[int, Callable[[int], None]]] = {
        "plain python": (args.games, lambda s: plain_loop(args.games, s)),
        "mancala loop": (args.games, lambda s: mancala_loop(args.games, s)),
        "mancala batch": (
            args.batch,
            lambda s: mancala.random_playouts(args.batch, seed=s, rules="togyz-kumalak"),
        ),
    }
    rates: Dict[str, Tuple[List[float], List[float]]] = {k: ([], []) for k in ways}
    for r in range(args.repeat):
        for name, (n, fn) in ways.items():
            wall, cpu = timed(lambda: fn(r))
            rates[name][0].append(n / wall)
            rates[name][1].append(n / cpu)
    base_w = statistics.median(rates["plain python"][0])
    base_c = statistics.median(rates["plain python"][1])
    print(f"{'way':<14} {'games/s wall':>13} {'games/s CPU':>12} {'× wall':>7} {'× CPU':>7}")
    for name, (w, c) in rates.items():
        mw, mc = statistics.median(w), statistics.median(c)
        print(f"{name:<14} {mw:>13,.0f} {mc:>12,.0f} {mw / base_w:>7.1f} {mc / base_c:>7.1f}")


if __name__ == "__main__":
    main()
