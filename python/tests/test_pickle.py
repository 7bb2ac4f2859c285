"""Pickling and copying: what a user passes between processes (sides, results, errors,
environments) round-trips; what holds a table or a batch says so with a TypeError."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import mancala
from mancala import Engine, Kalah, Side, Solver, VectorGames
from mancala.text import AmbiguousMoveError, IllegalReplyError, NoMoveError


@pytest.mark.parametrize("side", [Side.SOUTH, Side.NORTH])
def test_side_pickles_and_copies_to_itself(side: Side) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(side, protocol)) is side
    assert copy.copy(side) is side
    assert copy.deepcopy(side) is side
    # A side made by a call (not the class attribute) comes back as the class's value.
    other = side.opponent().opponent()
    assert pickle.loads(pickle.dumps(other)) is side
    assert copy.deepcopy({"side": other})["side"] == side


def test_a_winner_pickles() -> None:
    # Kalah(1,2): South sows its 2 seeds, one into its store and one into North's house;
    # South's row is empty, North adds its 3 seeds: 1 against 3, North wins.
    g = Kalah("kalah(1,2)")
    g.play(1)
    assert g.is_over() and g.winner() == Side.NORTH
    assert pickle.loads(pickle.dumps(g.winner())) is Side.NORTH


def test_results_pickle() -> None:
    solution = Solver().solve(Kalah("kalah(3,2)"))
    assert pickle.loads(pickle.dumps(solution)) == solution
    analysis = Solver().analyse(Kalah("kalah(3,2)"))
    assert pickle.loads(pickle.dumps(analysis)) == analysis
    found = Engine(1).search(Kalah("kalah(3,2)"), max_nodes=1000)
    assert pickle.loads(pickle.dumps(found)) == found


def test_reply_errors_pickle_with_their_fields() -> None:
    errors = [
        NoMoveError("the reply names no move", "hello"),
        AmbiguousMoveError("the reply names several moves (1, 2)", "1 or 2", [1, 2]),
        IllegalReplyError("house 3 is empty", "3", 3),
    ]
    for e in errors:
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e) and str(back) == str(e) and back.reply == e.reply
    assert pickle.loads(pickle.dumps(errors[1])).candidates == [1, 2]
    assert pickle.loads(pickle.dumps(errors[2])).move == 3


def test_holders_of_tables_refuse_pickling_with_a_clear_type_error() -> None:
    db = mancala.Database.build("awari", 2)
    holders = [(Engine(1), "Engine"), (Solver(), "Solver"), (VectorGames(), "VectorGames"),
               (db, "Database")]
    for obj, name in holders:
        with pytest.raises(TypeError, match=f"cannot pickle a mancala.{name}: "):
            pickle.dumps(obj)


def test_vector_games_deepcopy_steps_apart() -> None:
    v = VectorGames("kalah(4,3)", num_envs=3, seed=5)
    v.reset(seed=5)
    w = copy.deepcopy(v)
    a = v.sample_actions()
    assert np.array_equal(a, w.sample_actions())  # the same sampler state
    # The same games and generators: the same steps.
    for x, y in zip(v.step(a), w.step(a)):
        assert np.array_equal(x, y)
    v.step(v.sample_actions())  # only v moves on
    assert [len(v.game(i).moves) for i in range(3)] != [len(w.game(i).moves) for i in range(3)]
    assert copy.copy(w).game(0) == w.game(0)


def test_gymnasium_env_deepcopy_and_info() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import mancala.envs  # noqa: F401  (registers the ids)

    env = gymnasium.make("mancala/Kalah-v0")
    _, info = env.reset(seed=0)
    assert copy.deepcopy(info)["side"] == info["side"]
    twin = copy.deepcopy(env)
    a = int(np.flatnonzero(info["action_mask"])[0])
    o1, r1, *_ = env.step(a)
    o2, r2, *_ = twin.step(a)
    assert np.array_equal(o1, o2) and r1 == r2


def test_pettingzoo_raw_env_pickles() -> None:
    pytest.importorskip("pettingzoo")
    from mancala.envs import raw_env

    env = raw_env(rules="kalah(3,3)")
    env.reset(seed=0)
    env.step(1)
    back = pickle.loads(pickle.dumps(env))
    assert back.agent_selection == env.agent_selection
    assert np.array_equal(back.observe(back.agent_selection)["observation"],
                          env.observe(env.agent_selection)["observation"])


@pytest.mark.parametrize("env_id", ["mancala/Kalah-v0", "mancala/Oware-v0", "mancala/Togyz-v0"])
def test_async_vector_env(env_id: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import mancala.envs  # noqa: F401

    envs = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="async")
    try:
        _, info = envs.reset(seed=0)
        masks = info["action_mask"]
        actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
        _, rewards, terminated, truncated, info = envs.step(actions)
        assert rewards.shape == (2,) and not terminated.any() and not truncated.any()
        assert set(int(s) for s in info["side"]) <= {0, 1}
    finally:
        envs.close()
