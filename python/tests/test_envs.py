"""The environments under the official checkers (gymnasium.utils.env_checker.check_env,
pettingzoo.test.api_test), and their observations, masks and rewards."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import mancala  # noqa: E402
from mancala import Kalah, Side  # noqa: E402
from mancala.envs import MancalaEnv, aec_env, raw_env  # noqa: E402

# Every game's default rule set (`mancala.GAME_KINDS`), and a few more.
RULES = [rules for _, _, rules in mancala.GAME_KINDS] + ["kalah(4,3)+pie_rule", "awari(4,3)"]


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("opponent", ["random", 2])
@pytest.mark.parametrize("first", [True, False, None])
def test_gymnasium_checker(rules, opponent, first):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checker's notes about render modes
        check_env(MancalaEnv(rules, opponent=opponent, agent_first=first, render_mode="ansi"))


@pytest.mark.parametrize("rules", RULES)
def test_gymnasium_make(rules):
    env_id = f"mancala/{mancala.game_class(rules)}-v0"
    env = gymnasium.make(env_id, rules=rules, opponent=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8


@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_api(rules):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the test's notes about Dict observations
        api_test(aec_env(rules=rules), num_cycles=500)
        api_test(raw_env(rules=rules), num_cycles=500)


def test_observation_is_from_the_agents_side():
    # The agent plays North; the opponent (South) always sows its rightmost legal house.
    env = MancalaEnv("standard", agent_first=False, opponent=lambda g: g.legal_moves()[-1])
    obs, info = env.reset(seed=0)
    g = info["game"]
    assert info["side"] == Side.NORTH and g.side_to_move == Side.NORTH
    b = g.board
    # North's houses and store first, then South's.
    assert obs.tolist() == b[7:].tolist() + b[:7].tolist()
    assert info["action_mask"].tolist() == [1 if h in g.legal_moves() else 0 for h in range(1, 7)]


def test_illegal_action_ends_the_episode():
    env = MancalaEnv("standard", opponent="random")
    env.reset(seed=1)
    env.step(2)  # house 3: an extra turn, house 3 is now empty
    obs, reward, terminated, truncated, info = env.step(2)
    assert terminated and reward == -1.0 and info["illegal_move"]
    with pytest.raises(RuntimeError):
        env.step(0)


@pytest.mark.parametrize("action", [-1, 6, 99, np.int64(-3)])
def test_an_action_outside_the_space_is_an_illegal_move(action):
    env = MancalaEnv("standard", opponent="random")
    start, _ = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(action)
    assert terminated and not truncated and reward == -1.0 and info["illegal_move"]
    assert obs.tolist() == start.tolist()


@pytest.mark.parametrize("action", [5.9, 2.0, True, "3", None, np.float64(1.0)])
def test_an_action_that_is_not_an_integer_is_a_type_error(action):
    env = MancalaEnv("standard", opponent="random")
    env.reset(seed=1)
    with pytest.raises(TypeError, match="an action is an integer"):
        env.step(action)
    # Nothing was played: the episode goes on, and a numpy integer is an action.
    obs, reward, terminated, truncated, info = env.step(np.int64(2))
    assert "illegal_move" not in info and not terminated
    aec = raw_env("standard")
    aec.reset(seed=1)
    with pytest.raises(TypeError, match="an action is an integer"):
        aec.step(action)


@pytest.mark.parametrize("max_moves", [0, -1, True, False, 2.5])
def test_max_moves_below_one_is_refused(max_moves):
    # A bool is no integer (TypeError), as for VectorGames.
    error = TypeError if isinstance(max_moves, (bool, float)) else ValueError
    with pytest.raises(error, match="^max_moves must be None or "):
        MancalaEnv("standard", max_moves=max_moves)
    with pytest.raises(error, match="^max_moves must be None or "):
        raw_env("standard", max_moves=max_moves)


def test_a_bool_max_moves_is_the_same_type_error_for_every_environment():
    """`max_moves=True` is a TypeError (a bool is no integer) for the single environment,
    the PettingZoo one, the vector environment and the batched VectorGames alike."""
    from mancala import VectorGames
    from mancala.envs.vector_env import MancalaVectorEnv

    for make in (MancalaEnv, raw_env, MancalaVectorEnv, VectorGames):
        with pytest.raises(TypeError, match="max_moves") as e:
            make(rules="standard", max_moves=True)
        assert "bool" in str(e.value), (make, e.value)


def test_an_unknown_agent_is_a_key_error():
    aec = raw_env("standard")
    aec.reset(seed=1)
    with pytest.raises(KeyError, match="nobody"):
        aec.observe("nobody")


def test_rewards_follow_the_winner():
    for seed in range(30):
        env = MancalaEnv("kalah(4,3)+pie_rule", opponent="random", agent_first=None, reward="win")
        obs, info = env.reset(seed=seed)
        terminated = truncated = False
        rng = np.random.default_rng(seed)
        while not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
        g = info["game"]
        winner = g.winner()
        assert reward == (0.0 if winner is None else 1.0 if winner == info["side"] else -1.0)


def test_margin_reward_is_the_agents_final_store_difference():
    env = MancalaEnv("kalah(4,2)", opponent="random", agent_first=False, reward="margin")
    obs, info = env.reset(seed=5)
    terminated = False
    while not terminated:
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    g = info["game"]
    assert reward == -g.score()  # the agent is North: North's store minus South's
    # The final observation holds the swept stores, the agent's first.
    assert obs[4] - obs[9] == reward


def test_aec_extra_turn_keeps_the_agent_and_rewards_sum_to_zero():
    env = raw_env(rules="standard")
    env.reset(seed=0)
    assert env.agent_selection == "player_0"
    env.step(2)  # house 3: the last seed in the store
    assert env.agent_selection == "player_0"
    env.step(5)  # house 6: no extra turn
    assert env.agent_selection == "player_1"
    rng = np.random.default_rng(0)
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert sum(env.rewards.values()) == 0
    g: Kalah = env.game
    w = g.winner()
    if w is not None:
        winner = "player_0" if w == Side.SOUTH else "player_1"
        assert env.rewards[winner] == 1.0


def test_bao_actions_cover_the_legal_moves():
    env = raw_env(rules="bao-la-kete")
    env.reset()
    mask = env.observe(env.agent_selection)["action_mask"]
    moves = [env.codec.move(a) for a in np.flatnonzero(mask)]
    assert sorted(moves) == sorted(mancala.Bao().legal_moves())
    assert env.action_space("player_0").n == 432


@pytest.mark.parametrize("opponent", ["random", lambda g: g.legal_moves()[0]])
def test_step_before_reset_needs_reset(opponent):
    """The plain class raises what `gymnasium.make`'s `OrderEnforcing` wrapper raises, saying
    to call reset() first; after the episode ends a step is refused too."""
    env = MancalaEnv("kalah(2,1)", opponent=opponent)
    with pytest.raises(gymnasium.error.ResetNeeded, match=r"reset\(\) first"):
        env.step(0)
    made = gymnasium.make("mancala/Kalah-v0")
    with pytest.raises(gymnasium.error.ResetNeeded):
        made.step(0)
    env.reset(seed=0)
    terminated = truncated = False
    while not (terminated or truncated):
        mask = env.action_masks()
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)


@pytest.mark.parametrize("make", [raw_env, aec_env])
def test_aec_step_before_reset_is_refused_as_pettingzoo_refuses_it(make):
    """PettingZoo's `OrderEnforcingWrapper` raises `AssertionError("reset() needs to be
    called before step.")` (pettingzoo/utils/env_logger.py); the raw env says the same, and
    after a reset both step."""
    env = make(rules="kalah(2,1)")
    with pytest.raises(AssertionError, match=r"^reset\(\) needs to be called before step\.$"):
        env.step(0)
    env.reset(seed=0)
    env.step(0)  # house 1 of two, one seed each: legal at the start
    assert env.agent_selection == "player_1"
