"""The one ``Game`` base class: every game's class derives from it, and what every game has
(moves, play, undo, copies, pickling, result, notation) behaves the same for each game."""

import copy
import pickle

import pytest

import mancala
from mancala import Bao, Game, Kalah, RulesError


@pytest.mark.parametrize(
    "rules, cls, first",
    [("standard", Kalah, 3), ("kalah(4,3)+pie_rule", Kalah, 1), ("bao-la-kete", Bao, "F6>")],
)
def test_every_game_is_a_game(rules, cls, first):
    game = mancala.new_game(rules)
    assert type(game) is cls
    assert isinstance(game, Game)
    assert mancala.game_class(rules) == cls.__name__
    assert first in game.legal_moves()
    start = game.notation()
    game.play(first)
    assert game.moves == [first]
    twin = game.copy()
    assert type(twin) is cls and twin == game
    assert type(copy.deepcopy(game)) is cls
    back = pickle.loads(pickle.dumps(game))
    assert type(back) is cls and back == game
    assert game.undo() == first
    assert game.notation() == start
    assert twin != game
    assert repr(game).startswith(f"{cls.__name__}(")


def test_the_kind_names_the_game():
    assert Kalah().kind == "Kalah"
    assert Bao().kind == "Bao la Kete"


def test_the_base_class_makes_no_game():
    with pytest.raises(TypeError):
        Game()


def test_a_class_refuses_another_games_rules_naming_its_class():
    with pytest.raises(RulesError, match="use mancala.Bao"):
        Kalah("bao-la-kete")
    with pytest.raises(RulesError, match="use mancala.Kalah"):
        Bao("kalah(6,4)")


def test_the_engine_plays_every_game_through_the_base_class():
    engine = mancala.Engine(level=3, tt_mb=1)
    for rules in ["kalah(6,4)", "bao-la-kete"]:
        game = mancala.new_game(rules)
        move = engine.best_move(game, time_ms=0, max_nodes=2000)
        assert move in game.legal_moves()
