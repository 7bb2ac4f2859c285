"""A differential test against OpenSpiel's `mancala` (Kalah(6,4), standard rules) through
`pyspiel`: 1,000 random games, the legal moves and the board compared after every move.

OpenSpiel numbers its 14 pits 0..13: pit 0 is player 1's store, pits 1..6 player 0's houses
(counter-clockwise), pit 7 player 0's store, pits 8..13 player 1's houses; an action is the
pit sowed. Player 0 moves first: it is South. So OpenSpiel pit ``i`` in 1..6 is South's
house ``i``, pit 7 South's store, pit ``7 + j`` North's house ``j`` (j = 1..6, each row
counted from its owner's left, as in this library), pit 0 North's store. OpenSpiel does not
sweep the rows at the end; it compares each player's houses plus store, which is what the
sweep puts in the stores.
"""

from __future__ import annotations

import random

import pytest

import mancala
from mancala import Side

pyspiel = pytest.importorskip("pyspiel")

GAMES = 1000


def spiel_board(state) -> list:
    """OpenSpiel's board in this library's notation order (S1..S6, S store, N1..N6, N store)."""
    # The observation tensor is the 14 pits, then the player to move and the move number.
    b = [int(x) for x in state.observation_tensor(0)[:14]]
    return b[1:7] + [b[7]] + b[8:14] + [b[0]]


def spiel_moves(state) -> list:
    """OpenSpiel's legal actions as house numbers of the player to move."""
    player = state.current_player()
    return [a if player == 0 else a - 7 for a in state.legal_actions()]


def test_random_games_agree_with_openspiel():
    game = pyspiel.load_game("mancala")
    rng = random.Random(2024)
    south_wins = north_wins = draws = 0
    for _ in range(GAMES):
        state = game.new_initial_state()
        ours = mancala.Kalah("standard")
        while not state.is_terminal():
            assert not ours.is_over()
            player = state.current_player()
            assert ours.side_to_move == (Side.SOUTH if player == 0 else Side.NORTH)
            assert spiel_moves(state) == ours.legal_moves()
            house = rng.choice(ours.legal_moves())
            state.apply_action(house if player == 0 else house + 7)
            ours.play(house)
            if not state.is_terminal():
                assert spiel_board(state) == ours.board.tolist()
        assert ours.is_over()
        # The end: OpenSpiel's rows plus stores are this library's swept stores.
        b = spiel_board(state)
        south, north = sum(b[0:7]), sum(b[7:14])
        assert south - north == ours.score()
        returns = state.returns()
        winner = ours.winner()
        assert returns[0] == (1.0 if winner == Side.SOUTH else -1.0 if winner == Side.NORTH else 0.0)
        south_wins += winner == Side.SOUTH
        north_wins += winner == Side.NORTH
        draws += winner is None
    assert south_wins + north_wins + draws == GAMES
    # Random play wins for both sides: the games are not all alike.
    assert south_wins > 0 and north_wins > 0


def test_the_bridges_oware_states_are_graded_through_their_game():
    """A state of `mancala_oware` (Abapa by default) carries its `mancala.Oware` game, which
    `mancala.grade` values with the neighbour's database: each loss is that database's best
    value minus the value of the move played."""
    game = pyspiel.load_game("mancala_oware")
    rng = random.Random(11)
    states = []
    while len(states) < 4:
        s = game.new_initial_state()
        while not s.is_terminal() and sum(s.game.board) - s.game.store(0) - s.game.store(1) > 10:
            s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            states.append(s)
    db = mancala.Database.build("oware+majority=off+cycle_score=split", 10, threads=1)
    r = mancala.grade(lambda g: g.legal_moves()[0], [s.game for s in states], database=db)
    assert r.positions == 4 and "not of oware" in r.caveat
    for m, s in zip(r.moves, states):
        values = db.move_values(mancala.Oware("oware+majority=off+cycle_score=split", s.game.notation()))
        assert m.move == s.game.legal_moves()[0]
        assert m.loss == max(values.values()) - values[m.move]
