"""Every game of the library through the Python package: each entry of
``mancala.GAME_KINDS`` (the library's list of games, exported by the extension module) has
its class, plays through ``new_game`` and ``game_class``, the engine, pickling, the
environments' codec and their Gymnasium and PettingZoo registrations, and OpenSpiel's. A
game added to the library without its place in the package fails here (as the command's
``every_game`` tests do for ``mancala``)."""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

import mancala
from mancala import Side
from mancala.envs._codec import CODECS, codec

IDS = [cls for _, cls, _ in mancala.GAME_KINDS]


def test_game_kinds_are_the_game_classes():
    # Every game has a class of its own in `mancala`, and every class of a game is listed.
    names = [name for name, _, _ in mancala.GAME_KINDS]
    assert len(set(names)) == len(names) == len(set(IDS)) > 0
    for cls_name in IDS:
        assert cls_name in mancala.__all__
        assert issubclass(getattr(mancala, cls_name), mancala.Game)
    classes = {
        name
        for name in mancala.__all__
        if isinstance(getattr(mancala, name), type)
        and issubclass(getattr(mancala, name), mancala.Game)
        and getattr(mancala, name) is not mancala.Game
    }
    assert classes == set(IDS)


@pytest.mark.parametrize("name, cls_name, rules", mancala.GAME_KINDS, ids=IDS)
def test_every_game_is_made_and_played(name, cls_name, rules):
    cls = getattr(mancala, cls_name)
    assert mancala.game_class(rules) == cls_name
    game = mancala.new_game(rules)
    assert type(game) is cls
    assert game.kind == name
    assert game.rules == rules
    assert cls() == game, "the class's default rule set is the game's"
    moves = game.legal_moves()
    assert moves
    start = game.notation()
    game.play(moves[0])
    assert game.moves == [moves[0]]
    assert pickle.loads(pickle.dumps(game)) == game
    assert copy.deepcopy(game) == game
    assert game.undo() == moves[0]
    assert game.notation() == start
    with pytest.raises(mancala.RulesError):
        cls("kalah(99,4)" if cls_name != "Kalah" else "bao-la-kete")


@pytest.mark.parametrize("name, cls_name, rules", mancala.GAME_KINDS, ids=IDS)
def test_every_game_gets_a_best_move(name, cls_name, rules):
    game = mancala.new_game(rules)
    assert mancala.best_move(game, level=1, max_nodes=10_000) in game.legal_moves()


@pytest.mark.parametrize("name, cls_name, rules", mancala.GAME_KINDS, ids=IDS)
def test_every_game_has_an_environment_codec(name, cls_name, rules):
    cls = getattr(mancala, cls_name)
    assert cls in CODECS
    c = codec(rules)
    game = c.new_game()
    assert type(game) is cls
    for side in (Side.SOUTH, Side.NORTH):
        obs = c.observe(game, side)
        assert obs.shape == (c.observation_size,) and obs.dtype == np.int64
        assert 0 <= obs.min() and obs.max() <= c.high
    mask = c.mask(game)
    assert mask.shape == (c.actions,) and int(mask.sum()) == len(game.legal_moves())
    for action in np.flatnonzero(mask):
        assert c.move(int(action)) in game.legal_moves()


@pytest.mark.parametrize("name, cls_name, rules", mancala.GAME_KINDS, ids=IDS)
def test_every_game_is_registered_with_gymnasium(name, cls_name, rules):
    gymnasium = pytest.importorskip("gymnasium")
    import mancala.envs  # noqa: F401  (registers the ids)

    env_id = f"mancala/{cls_name}-v0"
    assert env_id in gymnasium.registry
    assert gymnasium.spec(env_id).kwargs["rules"] == rules
    env = gymnasium.make(env_id, opponent="random")
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    assert type(info["game"]) is getattr(mancala, cls_name)


@pytest.mark.parametrize("name, cls_name, rules", mancala.GAME_KINDS, ids=IDS)
def test_every_game_plays_in_pettingzoo(name, cls_name, rules):
    pytest.importorskip("pettingzoo")
    from mancala.envs import aec_env

    env = aec_env(rules=rules)
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(int(np.flatnonzero(mask)[0]))
    assert env.agent_selection is not None


@pytest.mark.parametrize("name, cls_name, rules", mancala.GAME_KINDS, ids=IDS)
def test_every_game_is_registered_with_openspiel(name, cls_name, rules):
    pyspiel = pytest.importorskip("pyspiel")
    import mancala.openspiel

    mancala.openspiel.register()
    game = pyspiel.load_game(f"mancala_{cls_name.lower()}")
    state = game.new_initial_state()
    assert state.legal_actions()
    state.apply_action(state.legal_actions()[0])
