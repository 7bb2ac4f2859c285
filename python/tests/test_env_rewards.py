"""The `"margin"` reward of every environment (Gymnasium, vector, PettingZoo) for every game
with stores, and the reward at a truncation, compared with the stores of the game object
itself (`game.store(side)`, the seeds a player has stored or captured, or his kazan)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from mancala import VectorGames  # noqa: E402
from mancala.envs import MancalaEnv, aec_env, raw_env  # noqa: E402

# A rule set of every game with stores: Kalah, Oware (and Awari), Togyz Kumalak.
MARGIN_RULES = ["standard", "kalah(4,3)+pie_rule", "oware", "awari(4,3)", "togyz-kumalak"]


def store_margin(game, side) -> float:
    """`side`'s store minus the opponent's, read off the game object."""
    return float(game.store(side)) - float(game.store(side.opponent()))


def first_legal(game):
    return game.legal_moves()[0]


def play_out(env, info, rng, limit=5000):
    """Steps `env` with random legal actions until the episode ends; its last step."""
    for _ in range(limit):
        out = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        _, _, terminated, truncated, info = out
        if terminated or truncated:
            return out
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("rules", MARGIN_RULES)
@pytest.mark.parametrize("opponent", ["random", first_legal])
@pytest.mark.parametrize("first", [True, False])
def test_gymnasium_margin_is_the_final_store_difference(rules, opponent, first):
    env = MancalaEnv(rules, opponent=opponent, agent_first=first, reward="margin")
    rng = np.random.default_rng(1)
    for seed in range(3):
        _, info = env.reset(seed=seed)
        _, reward, terminated, _, info = play_out(env, info, rng)
        game = info["game"]
        assert terminated and game.is_over()
        assert reward == store_margin(game, info["side"])
        # The stores are final: the game's own score says the same, from South.
        assert reward == (game.score() if info["side"].letter == "S" else -game.score())


@pytest.mark.parametrize("rules", MARGIN_RULES)
def test_vector_margin_is_the_final_store_difference(rules):
    n = 4
    vec = VectorGames(rules, num_envs=n, seed=2, agent_first=None, reward="margin")
    _, _, _, _, masks = vec.reset()
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(3000):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        _, rewards, terminated, truncated, masks = vec.step(actions)
        for i in np.flatnonzero(terminated):
            game = vec.game(i)  # not yet reset: the next step resets it
            assert game.is_over()
            assert rewards[i] == store_margin(game, vec.agent_side(i))
            ended += 1
        if ended >= 2 * n:
            break
    assert ended >= 2 * n


@pytest.mark.parametrize("rules", MARGIN_RULES)
def test_pettingzoo_margin_is_the_final_store_difference(rules):
    env = raw_env(rules=rules, reward="margin")
    env.reset(seed=0)
    for _ in range(5000):
        if env.terminations[env.agent_selection]:
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[-1]))
    game = env.game
    assert game.is_over()
    sides = {a: env._side(a) for a in env.agents}
    for agent, side in sides.items():
        assert env.rewards[agent] == store_margin(game, side)
    assert sum(env.rewards.values()) == 0.0


@pytest.mark.parametrize(
    "make",
    [
        lambda: MancalaEnv("bao-la-kete", reward="margin"),
        lambda: MancalaEnv("bao-la-kete", opponent=first_legal, reward="margin"),
        lambda: VectorGames("bao-la-kete", reward="margin"),
        lambda: raw_env(rules="bao-la-kete", reward="margin"),
        lambda: aec_env(rules="bao-la-kete", reward="margin"),
    ],
)
def test_a_game_without_a_margin_refuses_it(make):
    with pytest.raises(ValueError, match=r"reward=\"margin\" needs a game with stores \(Kalah, Oware, Togyz Kumalak\)"):
        make()


@pytest.mark.parametrize("rules", ["standard", "oware", "togyz-kumalak"])
@pytest.mark.parametrize("opponent", ["random", first_legal])
def test_gymnasium_truncation_gives_the_margin_so_far(rules, opponent):
    for reward in ("margin", "win"):
        env = MancalaEnv(rules, opponent=opponent, reward=reward, max_moves=5)
        _, info = env.reset(seed=4)
        _, r, terminated, truncated, info = play_out(env, info, np.random.default_rng(0))
        game = info["game"]
        assert truncated and not terminated and not game.is_over()
        assert len(game.moves) >= 5  # max_moves counts the plies of both players
        assert r == (store_margin(game, info["side"]) if reward == "margin" else 0.0)


def test_truncation_margin_of_a_known_game():
    # Kalah(6,4), worked out by hand: South sows house 3 (4 seeds: houses 4-6 and the store,
    # an extra turn), then house 6 (5 seeds: the store and North's houses 1-4); North sows
    # house 1 (5 seeds: houses 2-6). After these three plies South has stored 2, North 0.
    env = MancalaEnv("standard", opponent=first_legal, reward="margin", max_moves=3)
    env.reset(seed=0)
    _, r, terminated, truncated, _ = env.step(2)
    assert (r, terminated, truncated) == (0.0, False, False)
    _, r, terminated, truncated, info = env.step(5)
    assert [str(m) for m in info["game"].moves] == ["3", "6", "1"]
    assert (r, terminated, truncated) == (2.0, False, True)
    # In Rust, self-play: the reward goes to the player who moved, North (-2).
    vec = VectorGames("standard", opponent=None, reward="margin", max_moves=3)
    vec.reset()
    for a in (2, 5):
        assert vec.step_one(a)[1:4] == (0.0, False, False)
    assert vec.step_one(0)[1:4] == (-2.0, False, True)


@pytest.mark.parametrize("rules", ["standard", "oware", "togyz-kumalak"])
def test_vector_truncation_gives_the_margin_so_far(rules):
    for reward in ("margin", "win"):
        vec = VectorGames(rules, num_envs=3, seed=5, reward=reward, max_moves=6)
        _, _, _, _, masks = vec.reset()
        seen = set()
        for _ in range(10):
            actions = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks])
            _, rewards, terminated, truncated, masks = vec.step(actions)
            assert not terminated.any()  # six plies end no game here
            for i in np.flatnonzero(truncated):
                game = vec.game(i)  # not yet reset: the next step resets it
                assert not game.is_over() and len(game.moves) == 6
                expected = store_margin(game, vec.agent_side(i)) if reward == "margin" else 0.0
                assert rewards[i] == expected
                seen.add(int(i))
        assert seen == {0, 1, 2}


@pytest.mark.parametrize("rules", ["standard", "oware", "togyz-kumalak"])
def test_pettingzoo_truncation_gives_the_margin_so_far(rules):
    for reward in ("margin", "win"):
        env = raw_env(rules=rules, reward=reward, max_moves=7)
        env.reset(seed=0)
        while not env.truncations[env.agent_selection]:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(np.flatnonzero(mask)[0]))
        assert not env.game.is_over()
        for agent in env.agents:
            expected = store_margin(env.game, env._side(agent)) if reward == "margin" else 0.0
            assert env.rewards[agent] == expected
