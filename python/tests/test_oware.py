"""Oware from Python: the worked examples of docs/rules/oware.md through the package, the
history rules through the game record, and OpenSpiel's ``oware`` replayed move for move
under ``oware-openspiel`` (every ply's board, scores, side to move, legal moves and end).

The differential plays ``MANCALA_OPENSPIEL_GAMES`` random games (default 300, CI's sample;
the figure in BENCHMARKS.md is from 10,000)."""

import os
import pickle
import random

import pytest

import mancala
from mancala import IllegalMoveError, Oware, Side


def test_the_opening_and_the_default_rules():
    # X1: from the start South's 3 sows S4, S5, S6, N1.
    g = Oware()
    assert g.rules == "oware" and g.kind == "Oware"
    assert g.legal_moves() == [1, 2, 3, 4, 5, 6]
    g.play(3)
    assert g.notation() == "4,4,0,5,5,5,0,5,4,4,4,4,4,0 N"
    assert g.board.tolist() == [4, 4, 0, 5, 5, 5, 0, 5, 4, 4, 4, 4, 4, 0]
    assert g.side_to_move == Side.NORTH


def test_a_grand_slam_captures_nothing_under_abapa():
    # X7: South's 6 would take N1 and N2 (the whole row): nothing is captured.
    g = Oware("oware", position="0,0,0,0,1,2,18,1,2,0,0,0,0,24 S")
    g.play(6)
    assert g.notation() == "0,0,0,0,1,0,18,2,3,0,0,0,0,24 N"
    a = Oware("awari", position="0,0,0,0,1,2,18,1,2,0,0,0,0,24 S")
    assert a.legal_moves() == [5]  # X7d: another move exists
    with pytest.raises(IllegalMoveError):
        a.play(6)


def test_the_majority_ends_the_game():
    # X12: 24 + 2 = 26 of 48: over, the seeds left count for nobody (26-13).
    g = Oware("oware", position="0,0,0,0,0,1,24,1,1,3,5,0,0,13 S")
    g.play(6)
    assert g.is_over() and g.winner() == Side.SOUTH and g.score() == 13
    assert g.final_counts() == (26.0, 13.0)


def test_a_cycle_split_evenly_under_awari():
    # X15: the third occurrence of the start ends the game; the 3 seeds are split.
    g = Oware("awari", position="0,1,0,0,1,0,22,0,0,0,0,1,0,23 S")
    for mv in "2 5 5 6 6 1 1 2 3 3 4 4 2 5 5 6 6 1 3 2 1 3 4 4".split():
        g.play(int(mv))
    assert g.is_over()
    assert g.notation() == "0,1,0,0,1,0,22,0,0,0,0,1,0,23 -"
    assert g.final_counts() == (23.5, 24.5)
    assert g.score() == -1 and g.winner() == Side.NORTH
    g.undo()
    assert not g.is_over()


def test_copies_and_pickles_keep_the_history():
    g = Oware("oware-openspiel", position="1,0,0,0,0,0,23,1,0,0,0,0,0,23 S")
    for mv in [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]:
        g.play(mv)
    h = pickle.loads(pickle.dumps(g))
    assert type(h) is Oware and h == g
    h.play(6)  # X14: the first repetition ends the game (oware-openspiel)
    assert h.is_over() and not g.is_over()


def _openspiel_state(state, h):
    player, scores, houses = state.observation_string(0).split(" | ")
    scores = [int(x) for x in scores.split()]
    houses = [int(x) for x in houses.split()]
    return houses[:h] + [scores[0]] + houses[h:] + [scores[1]]


def test_openspiel_oware_move_for_move():
    pyspiel = pytest.importorskip("pyspiel")
    games = int(os.environ.get("MANCALA_OPENSPIEL_GAMES", "300"))
    rng = random.Random(20261202)
    sizes = [(6, 4)] * 6 + [(1, 4), (2, 2), (3, 3), (4, 3), (5, 5), (6, 6)]
    plies = 0
    for i in range(games):
        h, s = sizes[i % len(sizes)]
        game = pyspiel.load_game(f"oware(num_houses_per_player={h},num_seeds_per_house={s})")
        state = game.new_initial_state()
        ours = Oware(f"oware-openspiel({h},{s})")
        while True:
            assert ours.board.tolist() == _openspiel_state(state, h), (i, ours.moves)
            if state.is_terminal():
                assert ours.is_over(), (i, ours.moves)
                returns = state.returns()
                winner = ours.winner()
                expect = 0.0 if winner is None else (1.0 if winner == Side.SOUTH else -1.0)
                assert returns[0] == expect, (i, ours.moves, returns)
                break
            assert not ours.is_over(), (i, ours.moves)
            assert ours.side_to_move == [Side.SOUTH, Side.NORTH][state.current_player()]
            legal = state.legal_actions()
            assert ours.legal_moves() == [a + 1 for a in legal], (i, ours.moves)
            action = rng.choice(legal)
            state.apply_action(action)
            ours.play(action + 1)
            plies += 1
    assert plies > games * 10


def test_random_playouts_end_under_every_rule_set():
    for rules in ["oware", "awari", "oware-openspiel", "oware(3,3)+grand_slam=all"]:
        scores = mancala.random_playouts(50, seed=1, rules=rules)
        assert len(scores) == 50 and all(-48 <= x <= 48 for x in scores)


def test_the_engine_plays_oware():
    engine = mancala.Engine(level=5, tt_mb=1)
    g = Oware()
    while not g.is_over() and len(g.moves) < 400:
        g.play(engine.best_move(g, time_ms=0, max_nodes=500))
    assert g.is_over()


def test_random_playouts_refuse_a_game_that_never_ends():
    # oware(1,1): one house a side, one seed each. South's sowing makes North's house 2 and
    # North's makes South's 2 (the origin house is skipped), a capture of every seed the
    # opponent has, which the grand-slam rule forbids: the two seeds change sides forever.
    # With the repetition rule off and no move limit nothing ends that game.
    with pytest.raises(ValueError, match=r"oware\(1,1\)\+repetition=off.*has not ended"):
        mancala.random_playouts(3, rules="oware(1,1)+repetition=off")
    # The same game under the largest move limit ends at ply 65535, an odd ply: both seeds
    # are then in North's house, which North keeps (OW-6.4), so South loses by 2.
    limited = "oware(1,1)+repetition=off+move_limit=65535"
    assert mancala.random_playouts(2, rules=limited).tolist() == [-2, -2]
