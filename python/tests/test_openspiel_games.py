"""The OpenSpiel bridge (`mancala.openspiel`): each registered game passes OpenSpiel's own
API checks for Python games (`pyspiel.random_sim_test`, what OpenSpiel's tests of its Python
games call, and `sim_game` of its `games_sim_test.py`), loads by name with parameters, and
keeps its states, returns and actions as this library's games do."""

from __future__ import annotations

import pytest

import mancala

pyspiel = pytest.importorskip("pyspiel")
bridge = pytest.importorskip("mancala.openspiel")


@pytest.mark.parametrize(
    "name, sims",
    [
        ("mancala_kalah(houses=4,seeds=3)", 20),
        ("mancala_kalah(houses=6,seeds=6,empty_capture=true)", 5),
        ("mancala_kalah(houses=3,seeds=3,pie_rule=true,end_when_no_move=true,returns=win)", 20),
        ("mancala_kalah(houses=4,seeds=2,discard_remaining=true,no_first_move_bonus=true)", 20),
        ("mancala_oware", 5),
        ("mancala_oware(rules=awari,houses=4,seeds=3)", 10),
        ("mancala_oware(rules=oware-openspiel,returns=win)", 3),
        ("mancala_oware(rules=oware+grand_slam:forbidden,houses=3,seeds=2)", 10),
        ("mancala_bao(rules=bao-la-kete+safari:choice,max_moves=100)", 3),
        ("mancala_bao", 3),
    ],
)
def test_openspiel_random_simulation_check(name, sims):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize(
    "name",
    [
        "mancala_kalah(houses=4,seeds=3,pie_rule=true)",
        "mancala_oware(houses=4,seeds=2)",
        "mancala_bao(max_moves=100)",
    ],
)
def test_openspiel_games_sim_test_with_pickling_and_serialization(name, capsys):
    # OpenSpiel's own simulation test of every registered game (`games_sim_test.py`):
    # clones, pickling and `serialize_game_and_state` along random games.
    games_sim_test = pytest.importorskip("open_spiel.python.tests.games_sim_test")
    games_sim_test.GamesSimTest().sim_game(pyspiel.load_game(name))


def test_every_state_of_a_small_kalah():
    # OpenSpiel's state enumeration reaches the positions the library's own moves reach.
    from open_spiel.python.algorithms import get_all_states

    game = pyspiel.load_game("mancala_kalah(houses=2,seeds=2)")
    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                           include_chance_states=False, to_string=str)
    seen = set()
    todo = [mancala.Kalah("kalah(2,2)")]
    while todo:
        g = todo.pop()
        if g.notation() in seen:
            continue
        seen.add(g.notation())
        for m in g.legal_moves():
            child = g.copy()
            child.play(m)
            todo.append(child)
    assert set(states) == seen


def test_kalah_actions_and_margin_returns():
    game = pyspiel.load_game("mancala_kalah(houses=3,seeds=3)")
    assert game.num_distinct_actions() == 3
    assert game.max_utility() == 18 and game.min_utility() == -18
    state = game.new_initial_state()
    assert str(state) == "3,3,3,0,3,3,3,0 S"
    # South's house 1 (action 0): its 3 seeds to S2, S3 and South's store.
    state.apply_action(0)
    assert str(state) == "0,4,4,1,3,3,3,0 S"
    assert state.current_player() == 0  # the last seed in the store: South again
    # Play the game out with the first legal action; returns are the final margin.
    ours = mancala.Kalah("kalah(3,3)")
    ours.play(1)
    while not state.is_terminal():
        a = state.legal_actions()[0]
        state.apply_action(a)
        ours.play(a + 1)
    assert ours.is_over()
    assert state.returns() == [float(ours.score()), -float(ours.score())]


def test_pie_rule_swap_is_an_action_and_exchanges_players():
    game = pyspiel.load_game("mancala_kalah(houses=3,seeds=3,pie_rule=true)")
    assert game.num_distinct_actions() == 4
    state = game.new_initial_state()
    state.apply_action(1)  # S2: 3 seeds to S3, store, N1: North to move, swap offered
    assert state.current_player() == 1
    assert 3 in state.legal_actions()
    state.apply_action(3)  # swap: player 1 now owns South's row and store
    assert state.game.swapped
    assert state.current_player() == 0  # player 0 now plays North, who is to move


def test_bad_parameters_are_refused():
    with pytest.raises(Exception):
        pyspiel.load_game("mancala_kalah(returns=seeds)")
    with pytest.raises(Exception):
        pyspiel.load_game("mancala_oware(rules=chess)")


def test_state_at_keeps_the_record_and_has_distinct_information_states():
    game = pyspiel.load_game("mancala_kalah(houses=3,seeds=3,pie_rule=true)")
    k = mancala.Kalah("kalah(3,3)+pie_rule")
    k.play(2)  # 3 seeds: S3, the store, N1; North to move
    k.play("swap")
    s = game.state_at(k)
    # After the swap South's side belongs to player 1, as in the game played by actions.
    t = game.new_initial_state()
    t.apply_action(1)
    t.apply_action(3)
    assert s.current_player() == t.current_player()
    assert s.game.moves == k.moves
    a = game.state_at(mancala.Kalah("kalah(3,3)+pie_rule", "3,3,3,0,3,3,3,0 S"))
    b = game.state_at(mancala.Kalah("kalah(3,3)+pie_rule", "0,4,4,1,3,3,3,0 N"))
    assert a.information_state_string() != b.information_state_string()
    assert a.information_state_string() != s.information_state_string()
    # Oware with a move limit of 10: after 9 moves the 10th ends the game in both.
    og = pyspiel.load_game("mancala_oware(rules=awari+move_limit:10)")
    o = mancala.Oware("awari+move_limit=10")
    for _ in range(9):
        o.play(o.legal_moves()[0])
    st = og.state_at(o)
    st.apply_action(st.legal_actions()[0])
    assert st.is_terminal()


def test_togyz_observation_tensor_layout():
    # docs/python.md: the board (houses and kazans), both tuzdyks, a one-hot of the mover.
    state = pyspiel.load_game("mancala_togyz").new_initial_state()
    assert state.observation_tensor(0) == [9.0] * 9 + [0.0] + [9.0] * 9 + [0.0] + [0.0, 0.0] + [1.0, 0.0]
    state.apply_action(0)  # South sows house 1: 9 kumalaks, one left in it, 8 onwards
    t = state.observation_tensor(1)
    assert len(t) == 24 and t[:10] == [1.0] + [10.0] * 8 + [0.0] and t[-2:] == [0.0, 1.0]
    assert len(pyspiel.load_game("mancala_togyz(rules=bestemshe)").new_initial_state().observation_tensor(0)) == 16


@pytest.mark.parametrize(
    "game,named",
    [
        ("mancala_togyz(rules=standard)", "mancala_kalah"),
        ("mancala_oware(rules=togyz-kumalak)", "mancala_togyz"),
        ("mancala_bao(rules=oware)", "mancala_oware"),
        ("mancala_togyz(rules=bao-la-kete)", "mancala_bao"),
    ],
)
def test_a_rule_set_of_another_game_names_its_openspiel_game(game, named):
    with pytest.raises(mancala.errors.RulesError) as e:
        pyspiel.load_game(game)
    assert str(e.value).endswith(f"load the OpenSpiel game {named}")
    assert "mancala." not in str(e.value)
