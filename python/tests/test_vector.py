"""The batched environment stepped in Rust (`mancala.VectorGames`, `MancalaVectorEnv`):
the same observations, masks, rewards and terminations as independent single
environments (`MancalaEnv`, written in Python over `Game`) given the same moves, and
Gymnasium's vector API for every registered id."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import mancala  # noqa: E402
from mancala import Side, VectorGames, new_game  # noqa: E402
from mancala.envs import MancalaEnv, MancalaVectorEnv  # noqa: E402

# Every game's default rule set (`mancala.GAME_KINDS`), and a few more.
RULES = [rules for _, _, rules in mancala.GAME_KINDS] + ["kalah(4,3)+pie_rule", "awari(4,3)"]


def replaying(vec: VectorGames, i: int):
    """An opponent for a single environment that plays the moves game `i` of `vec` played
    (the single env gives it a copy of its game, whose move count says which one)."""

    def opponent(game):
        return vec.game(i).moves[len(game.moves)]

    return opponent


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("reward", ["win", "margin"])
@pytest.mark.parametrize("opponent", ["random", 2])
def test_equals_independent_single_envs(rules, first, reward, opponent):
    if reward == "margin" and "bao" in rules:
        pytest.skip("Bao la Kete has no margin (test_env_rewards: refused)")
    n, seed = 6, 11
    max_moves = 30 if "bao" in rules else None  # some Bao la Kete games are long
    vec = VectorGames(rules, num_envs=n, seed=seed, opponent=opponent, agent_first=first, reward=reward,
                      max_moves=max_moves)
    singles = [
        MancalaEnv(rules, opponent=replaying(vec, i), agent_first=first, reward=reward, max_moves=max_moves)
        for i in range(n)
    ]
    obs, _, _, _, masks = vec.reset(seed=seed)
    for i, env in enumerate(singles):
        o, info = env.reset(seed=i)
        np.testing.assert_array_equal(obs[i], o)
        np.testing.assert_array_equal(masks[i], info["action_mask"])
    rng = np.random.default_rng(5)
    done = [False] * n
    finished = 0
    for _ in range(400):
        if all(done):
            break
        actions = np.zeros(n, dtype=np.int64)
        for i in range(n):
            legal = np.flatnonzero(masks[i])
            if len(legal) and rng.random() > 0.01:
                actions[i] = rng.choice(legal)
            else:  # now and then an illegal action, which ends the game
                actions[i] = int(np.flatnonzero(masks[i] == 0)[0]) if (masks[i] == 0).any() else 0
        obs, rewards, terms, truncs, masks = vec.step(actions)
        for i, env in enumerate(singles):
            if done[i]:
                continue
            o, r, te, tr, info = env.step(actions[i])
            np.testing.assert_array_equal(obs[i], o)
            assert rewards[i] == r
            assert terms[i] == te and truncs[i] == tr
            np.testing.assert_array_equal(masks[i], info["action_mask"])
            if te or tr:
                done[i] = True
                finished += 1
    assert finished == n


def test_autoreset_next_step():
    vec = VectorGames("kalah(2,1)", num_envs=3, seed=1)
    obs, _, _, _, masks = vec.reset()
    start = new_game("kalah(2,1)").board  # South moves first: the agent's view at a start
    for _ in range(50):
        actions = np.array([int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks])
        obs, rewards, terms, truncs, masks = vec.step(actions)
        if terms.any():
            i = int(np.flatnonzero(terms)[0])
            assert not masks[i].any()  # a finished game has no legal action
            assert vec.game(i).is_over()
            obs, rewards, terms, truncs, masks = vec.step(np.zeros(3, dtype=np.int64))
            # the finished game starts again, its action ignored, reward 0
            assert rewards[i] == 0 and not terms[i] and not truncs[i]
            assert vec.game(i).moves == []
            np.testing.assert_array_equal(obs[i], start)
            np.testing.assert_array_equal(masks[i], [1, 1])
            return
    pytest.fail("no game ended in 50 steps")


@pytest.mark.parametrize("rules", RULES)
def test_self_play_rewards_the_mover(rules):
    vec = VectorGames(rules, num_envs=4, seed=3, opponent=None, max_moves=200)
    _, _, _, _, masks = vec.reset()
    rng = np.random.default_rng(0)
    for _ in range(300):
        games = [vec.game(i) for i in range(4)]
        movers = [g.side_to_move for g in games]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        _, rewards, terms, _, masks = vec.step(actions)
        for i in range(4):
            after = vec.game(i)
            if terms[i]:
                winner = after.winner()
                want = 0.0 if winner is None else (1.0 if winner == movers[i] else -1.0)
                assert rewards[i] == want
            elif movers[i] is not None:
                assert rewards[i] == 0.0
                side = after.side_to_move
                assert vec.agent_side(i) == side


@pytest.mark.parametrize("rules", RULES + [f"kalah({m},3)" for m in (1, 2, 3, 5, 7)] + ["kalah(7,2)+pie_rule"])
def test_self_play_observations_and_masks_are_the_codecs(rules):
    """Every observation and mask a self-play step returns, all of its values, is what the
    Python codec of the single environments (`mancala.envs._codec`) gives for a copy of that
    game seen by the player to move (the mask all zeros once the game is over), across game
    ends and resets; Kalah with every house count 1..7."""
    from mancala.envs._codec import codec

    c = codec(rules)
    n = 3
    vec = VectorGames(rules, num_envs=n, seed=4, opponent=None)
    obs, _, _, _, masks = vec.reset()
    ended = 0
    for _ in range(150):
        for i in range(n):
            g = vec.game(i)
            np.testing.assert_array_equal(obs[i], c.observe(g, vec.agent_side(i)))
            want = np.zeros(c.actions, dtype=np.int8) if g.is_over() else c.mask(g)
            np.testing.assert_array_equal(masks[i], want)
        obs, _, terms, _, masks = vec.step(vec.sample_actions())
        ended += int(terms.sum())
    assert obs.dtype == np.int64 and obs.shape == (n, c.observation_size)
    if "bao" not in rules:  # Bao la Kete's games may outlast 150 plies
        assert ended > 0


def test_seeded():
    a = VectorGames("oware", num_envs=4, seed=9)
    b = VectorGames("oware", num_envs=4, seed=9)
    oa, *_ = a.reset()
    ob, *_ = b.reset()
    for _ in range(20):
        acts = np.zeros(4, dtype=np.int64) + 2
        ra, rb = a.step(acts), b.step(acts)
        for x, y in zip(ra, rb):
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("rules", RULES)
def test_sample_actions_are_legal_seeded_and_apart_from_the_games(rules):
    """Each drawn action is one the mask allows (0 where the mask is empty); the same seed
    draws the same actions; drawing does not change what the games do: a batch stepped with
    another batch's drawn actions, drawing nothing itself, gives the same arrays."""
    n = 8
    a = VectorGames(rules, num_envs=n, seed=3, max_moves=40)
    b = VectorGames(rules, num_envs=n, seed=3, max_moves=40)
    c = VectorGames(rules, num_envs=n, seed=3, max_moves=40)
    out_a, out_b, out_c = a.reset(), b.reset(), c.reset()
    seen = set()
    for _ in range(60):
        masks = out_a[4]
        acts = a.sample_actions()
        assert acts.dtype == np.int64 and acts.shape == (n,)
        np.testing.assert_array_equal(acts, b.sample_actions())
        for i in range(n):
            if masks[i].any():
                assert masks[i][acts[i]] == 1, (i, acts[i], masks[i])
                seen.add(int(acts[i]))
            else:
                assert acts[i] == 0
        out_a, out_b, out_c = a.step(acts), b.step(acts), c.step(acts)
        for x, y, z in zip(out_a, out_b, out_c):
            np.testing.assert_array_equal(x, y)
            np.testing.assert_array_equal(x, z)
    # The draws are spread over the actions, not stuck on one.
    assert len(seen) >= 3


def test_step_takes_any_integer_array():
    """An int64 array, an int32 array and a list step alike."""
    outs = []
    for acts in (np.array([1, 2, 3], dtype=np.int64), np.array([1, 2, 3], dtype=np.int32), [1, 2, 3]):
        vec = VectorGames("standard", num_envs=3, seed=1)
        vec.reset()
        outs.append(vec.step(acts))
    for o in outs[1:]:
        for x, y in zip(outs[0], o):
            np.testing.assert_array_equal(x, y)
    vec = VectorGames("standard", num_envs=3, seed=1)
    vec.reset()
    with pytest.raises(TypeError):
        vec.step(np.array([1.5, 2.0, 3.0]))
    with pytest.raises(ValueError):
        vec.step(np.zeros((3, 1), dtype=np.int64))


def test_bad_arguments():
    with pytest.raises(mancala.RulesError):
        VectorGames("kalah(99,4)")
    with pytest.raises(ValueError):
        VectorGames(num_envs=0)
    with pytest.raises(ValueError):
        VectorGames(opponent="engine")
    with pytest.raises(ValueError):
        VectorGames(opponent=11)
    with pytest.raises(ValueError):
        VectorGames(opponent=True)
    with pytest.raises(ValueError):
        VectorGames(reward="points")
    vec = VectorGames(num_envs=2)
    vec.reset()
    with pytest.raises(ValueError):
        vec.step([1, 2, 3])
    with pytest.raises(IndexError):
        vec.game(2)


def _registered():
    return sorted(i for i in gymnasium.registry if i.startswith("mancala/"))


def test_every_game_has_an_id():
    import mancala.envs  # noqa: F401  (registers the ids)

    classes = {cls for _, cls, _ in mancala.GAME_KINDS}
    assert {i.split("/")[1].rsplit("-", 1)[0] for i in _registered()} == classes


@pytest.mark.parametrize("env_id", [f"mancala/{cls}-v0" for _, cls, _ in mancala.GAME_KINDS])
def test_make_vec(env_id):
    assert env_id in _registered()
    env = gymnasium.make_vec(env_id, num_envs=5, vectorization_mode="vector_entry_point")
    assert isinstance(env.unwrapped, MancalaVectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=4)
    assert obs in env.observation_space
    single = gymnasium.make(env_id)
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    rng = np.random.default_rng(1)
    for _ in range(60):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        assert actions in env.action_space
        obs, rewards, terms, truncs, info = env.step(actions)
        assert obs in env.observation_space
        assert rewards.dtype == np.float64 and terms.dtype == np.bool_ and truncs.dtype == np.bool_
    # Gymnasium's episode statistics wrapper reads the same arrays
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    wrapped.reset(seed=0)
    wrapped.step(np.zeros(5, dtype=np.int64))
    env.close()


def test_vector_env_refuses_other_opponents():
    with pytest.raises(ValueError, match="random"):
        MancalaVectorEnv(num_envs=2, opponent=lambda game: 1)


def test_engine_opponent_plays_the_engines_moves():
    # Level 9 is depth-limited (14 plies) and has no weaker moves: the move it plays in each
    # game is the one a mancala.Engine of the same level chooses in the same position (both
    # given time enough to reach the depth on a busy machine).
    vec = VectorGames("kalah(4,3)", num_envs=3, seed=0, opponent=9, agent_first=False, opponent_time_ms=100000)
    vec.reset()
    for i in range(3):
        g = vec.game(i)
        assert len(g.moves) >= 1  # the engine moved first
        first = mancala.new_game("kalah(4,3)")
        assert g.moves[0] == mancala.Engine(level=9, tt_mb=4).best_move(first, time_ms=100000)


def test_step_before_reset_is_refused():
    """Before the first reset there is no observation to act on: `step` refuses, and after
    `reset` the same call steps."""
    vec = VectorGames("standard", num_envs=2, seed=1)
    with pytest.raises(RuntimeError, match=r"reset\(\) first"):
        vec.step(np.zeros(2, dtype=np.int64))
    _, _, _, _, masks = vec.reset()
    assert masks.tolist() == [[1] * 6, [1] * 6]
    _, rewards, terms, _, _ = vec.step(np.zeros(2, dtype=np.int64))
    assert rewards.tolist() == [0.0, 0.0] and not terms.any()
    # House 1's 4 seeds end in house 5: no extra turn, so the opponent replied.
    for i in range(2):
        moves = vec.game(i).moves
        assert moves[0] == 1 and len(moves) >= 2


def test_sample_actions_before_reset_is_refused():
    """Before the first reset there is no mask to draw from: `sample_actions` refuses as
    `step` does; after `reset` it draws a legal action of each game (every house of
    Kalah(6,4)'s start holds 4 seeds, so each of the 6 actions is legal)."""
    vec = VectorGames("standard", num_envs=3, seed=1, opponent=None)
    with pytest.raises(RuntimeError, match=r"sample_actions\(\) called before reset\(\): call reset\(\) first"):
        vec.sample_actions()
    vec.reset()
    acts = vec.sample_actions()
    assert acts.shape == (3,) and acts.dtype == np.int64
    assert all(0 <= a < 6 for a in acts.tolist())


def test_vector_env_step_before_reset_needs_reset():
    """As Gymnasium's `OrderEnforcing` wrapper raises `ResetNeeded` for a single env."""
    env = gymnasium.make_vec("mancala/Kalah-v0", num_envs=2, vectorization_mode="vector_entry_point")
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(np.zeros(2, dtype=np.int64))
    env.reset(seed=0)
    env.step(np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize("rules", RULES)
def test_step_one_equals_the_batch_step(rules):
    """`step_one` (the single env's step) gives the one row that `step` gives: two batches
    of one game on the same seed, one stepped each way with the same actions (legal ones,
    an illegal one, and the resets after each end), agree on every output and game."""
    a = VectorGames(rules, num_envs=1, seed=5, agent_first=None)
    b = VectorGames(rules, num_envs=1, seed=5, agent_first=None)
    a.reset(seed=9)
    _, _, _, _, mask = b.reset(seed=9)
    mask = mask[0]
    rng = np.random.default_rng(3)
    for step in range(300):
        legal = np.flatnonzero(mask)
        action = -1 if step % 97 == 50 or len(legal) == 0 else int(rng.choice(legal))
        obs_a, rew_a, term_a, trunc_a, mask_a = a.step(np.array([action], dtype=np.int64))
        obs_b, rew_b, term_b, trunc_b, mask = b.step_one(action)
        assert obs_b.shape == obs_a.shape[1:] and mask.shape == mask_a.shape[1:]
        assert obs_b.tolist() == obs_a[0].tolist() and mask.tolist() == mask_a[0].tolist()
        assert (rew_b, term_b, trunc_b) == (float(rew_a[0]), bool(term_a[0]), bool(trunc_a[0]))
        assert type(rew_b) is float and type(term_b) is bool and type(trunc_b) is bool
        assert a.game(0).moves == b.game(0).moves


def test_step_one_refusals():
    """`step_one` steps a batch of one game, after a reset."""
    one = VectorGames("standard", num_envs=1)
    with pytest.raises(RuntimeError, match=r"reset\(\) first"):
        one.step_one(0)
    two = VectorGames("standard", num_envs=2)
    two.reset()
    with pytest.raises(ValueError, match="batch of one game"):
        two.step_one(0)


def test_sample_actions_are_uniform():
    """Each legal action is drawn about as often as the others: from the start of Kalah(6,4)
    (six legal actions in every game), 256 games drawn 200 times each, every action's count
    within 5 % of 51,200 / 6 (about five standard deviations of a uniform draw)."""
    vec = VectorGames("standard", num_envs=256, seed=11)
    vec.reset(seed=11)
    counts = np.zeros(6, dtype=np.int64)
    for _ in range(200):
        counts += np.bincount(vec.sample_actions(), minlength=6)
    expected = 256 * 200 / 6
    assert counts.sum() == 256 * 200
    assert np.all(np.abs(counts - expected) < 0.05 * expected), counts


_TOO_LARGE = r"""
import resource
import mancala

# The address space the interpreter already holds, and 1 GiB more: far below 2**24 games of
# Bao la Kete, whose slots alone are several GiB.
with open("/proc/self/status") as f:
    vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
limit = vm + (1 << 30)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
try:
    mancala.VectorGames("bao-la-kete", num_envs=2**24)
    print("made")
except MemoryError as e:
    print("MemoryError:", e)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc are Linux's")
def test_a_batch_that_does_not_fit_in_memory_is_a_memory_error():
    # It aborted the interpreter ("memory allocation of 8589934592 bytes failed").
    r = subprocess.run([sys.executable, "-c", _TOO_LARGE], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("MemoryError: 16777216 games of bao-la-kete do not fit in memory"), r.stdout
