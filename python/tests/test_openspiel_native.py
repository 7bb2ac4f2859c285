"""The OpenSpiel bridge against OpenSpiel's native games where they coincide: the
observation tensors of `mancala_oware(rules=oware-openspiel)` and native `oware`, and of
`mancala_kalah` and native `mancala`, state by state along the same random games; the game
strings and returns as a user reads them; the games and the Gymnasium ids there after
`import mancala`."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import mancala  # noqa: E402


def _same_games(native_name, ours_name, games, seed):
    """Plays `games` random games in both, the same actions, and yields each pair of
    states (native, ours), terminal ones included."""
    native_game = pyspiel.load_game(native_name)
    ours_game = pyspiel.load_game(ours_name)
    rng = random.Random(seed)
    for _ in range(games):
        a, b = native_game.new_initial_state(), ours_game.new_initial_state()
        while True:
            yield a, b
            if a.is_terminal():
                assert b.is_terminal()
                break
            legal = a.legal_actions()
            action = rng.choice(legal)
            a.apply_action(action)
            b.apply_action(action)


def test_oware_tensor_equals_native_oware():
    ours_game = pyspiel.load_game("mancala_oware(rules=oware-openspiel)")
    assert ours_game.observation_tensor_shape() == pyspiel.load_game("oware").observation_tensor_shape() == [14]
    states = 0
    for native, ours in _same_games("oware", "mancala_oware(rules=oware-openspiel)", 40, 3):
        if native.is_terminal():
            continue  # compared while the games go on
        for player in (0, 1):
            np.testing.assert_allclose(ours.observation_tensor(player), native.observation_tensor(player), rtol=0, atol=1e-6)
        states += 1
    assert states > 40 * 10


def _kalah_actions(state):
    """Native `mancala` numbers the actions by pit (1..6 for player 0, 8..13 for player 1);
    the bridge by house, 0..5 for either player."""
    player = state.current_player()
    return [a - 1 if player == 0 else a - 8 for a in state.legal_actions()]


def test_kalah_tensor_equals_native_mancala():
    native_game = pyspiel.load_game("mancala")
    ours_game = pyspiel.load_game("mancala_kalah")
    assert ours_game.observation_tensor_shape() == native_game.observation_tensor_shape() == [16]
    rng = random.Random(8)
    states = 0
    for _ in range(60):
        native, ours = native_game.new_initial_state(), ours_game.new_initial_state()
        while not native.is_terminal():
            assert _kalah_actions(native) == ours.legal_actions()
            for player in (0, 1):
                assert ours.observation_tensor(player) == native.observation_tensor(player)
            states += 1
            player = native.current_player()
            action = rng.choice(ours.legal_actions())
            native.apply_action(action + 1 if player == 0 else action + 8)
            ours.apply_action(action)
        assert ours.is_terminal()
    assert states > 60 * 10


def test_default_game_strings_show_the_board_size():
    assert str(pyspiel.load_game("mancala_oware")) == (
        "mancala_oware(houses=6,max_moves=1000,returns=margin,rules=oware,seeds=4)"
    )
    awari = pyspiel.load_game("mancala_oware(rules=awari,houses=4)")
    assert awari.get_parameters()["houses"] == 4 and awari.get_parameters()["seeds"] == 4
    # The string a game shows loads the same game.
    again = pyspiel.load_game(str(awari))
    assert str(again) == str(awari)
    assert again.new_initial_state().observation_tensor() == awari.new_initial_state().observation_tensor()


def test_returns_print_no_negative_zero():
    # Kalah(1,1): South sows its one seed into its store, the game ends 1-1, a draw.
    game = pyspiel.load_game("mancala_kalah(houses=1,seeds=1)")
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.is_terminal()
    assert str(state.returns()) == "[0.0, 0.0]"
    assert all(np.copysign(1.0, r) == 1.0 for r in state.returns())


def test_registered_after_import_mancala():
    code = (
        "import mancala, pyspiel\n"
        "print(pyspiel.load_game('mancala_kalah').num_distinct_actions())\n"
        "try:\n"
        "    import gymnasium\n"
        "except ImportError:\n"
        "    print('no gymnasium')\n"
        "else:\n"
        "    print(gymnasium.make('mancala/Oware-v0').action_space)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "6"
    assert out[1] in ("Discrete(6)", "no gymnasium")
