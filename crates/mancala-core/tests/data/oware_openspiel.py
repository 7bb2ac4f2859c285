#!/usr/bin/env python3
"""Writes oware_openspiel.txt: random games of OpenSpiel's `oware`, with the state after
every ply, replayed by crates/mancala-core/tests/oware_openspiel.rs under the rule set
`oware-openspiel(h,s)` (docs/rules/oware.md, OW-7.3, OW-11.4).

Rerun (from the repository root; needs Python 3.9+ and the `open_spiel` package, 2.0.2 was
used):

    python3 -m venv /tmp/venv-oware
    /tmp/venv-oware/bin/pip install open_spiel numpy
    /tmp/venv-oware/bin/python crates/mancala-core/tests/data/oware_openspiel.py \
        > crates/mancala-core/tests/data/oware_openspiel.txt

The output is the same on every run (fixed random seed, games chosen uniformly among the
legal actions).

Format (one game after the other; lines starting with `#` are comments):

    game <h> <s> <moves>     moves: the house numbers played (OpenSpiel action + 1), one
                             digit each, in order
    <state>                  the start, then one line after every ply
    end <r0> <r1>            OpenSpiel's returns of players 0 (South) and 1 (North)

A state line is the 2h + 2 counts in the order of the position notation (South's houses
1..h, South's score, North's houses 1..h, North's score), each written as the one character
whose code is 48 + count (`0`..`9` for 0..9, then `:` `;` `<` ... for 10, 11, 12 ...), then
the side to move (`S` for player 0, `N` for player 1, `-` once the state is terminal), then
the legal actions as one character of code 48 + mask (bit i for house i + 1). OpenSpiel's
board string is `<player> | <score0> <score1> | <houses 0..2h-1>` (houses 0..h-1 are player
0's from his left, h..2h-1 player 1's from his left); the returns of a non-terminal state are
always 0 0 and the side is `-` exactly when the state is terminal (both checked here).
"""

import random
import sys

import pyspiel

GAMES = [(6, 4, 300), (1, 4, 50), (2, 2, 50), (3, 3, 50), (4, 3, 50), (5, 5, 50), (6, 6, 50)]
SEED = 20260427


def char(v):
    assert 0 <= v <= 78, v
    return chr(48 + v)


def state_line(state, h):
    player, scores, houses = state.observation_string(0).split(" | ")
    scores = [int(x) for x in scores.split()]
    houses = [int(x) for x in houses.split()]
    assert len(houses) == 2 * h and len(scores) == 2
    counts = houses[:h] + [scores[0]] + houses[h:] + [scores[1]]
    terminal = state.is_terminal()
    current = state.current_player()
    assert terminal == (current == pyspiel.PlayerId.TERMINAL)
    if not terminal:
        assert current == int(player)
        assert list(state.returns()) == [0.0, 0.0]
    side = "-" if terminal else "SN"[current]
    mask = 0
    for action in state.legal_actions():
        mask |= 1 << action
    return "".join(char(c) for c in counts) + side + char(mask)


def main():
    rng = random.Random(SEED)
    out = sys.stdout
    out.write("# Random games of OpenSpiel's oware (open_spiel %s), written by oware_openspiel.py\n"
              % getattr(pyspiel, "__version__", "2.0.2"))
    out.write("# beside this file; the format is described there.\n")
    for h, s, n in GAMES:
        game = pyspiel.load_game(
            "oware(num_houses_per_player=%d,num_seeds_per_house=%d)" % (h, s))
        for _ in range(n):
            state = game.new_initial_state()
            lines = [state_line(state, h)]
            moves = []
            while not state.is_terminal():
                action = rng.choice(state.legal_actions())
                moves.append(str(action + 1))
                state.apply_action(action)
                lines.append(state_line(state, h))
            r0, r1 = state.returns()
            out.write("game %d %d %s\n" % (h, s, "".join(moves)))
            out.write("\n".join(lines) + "\n")
            out.write("end %d %d\n" % (r0, r1))


if __name__ == "__main__":
    main()
