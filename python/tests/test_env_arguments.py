"""Arguments the environments, `VectorGames` and the JSON states refuse, with the error the
documentation promises (a bool is not an integer; an index names itself)."""

from __future__ import annotations

import json
import numbers
import re

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import mancala  # noqa: E402,F401  (registers the ids)
import mancala.envs  # noqa: E402,F401
from mancala import Kalah, Oware, Togyz, VectorGames, from_dict  # noqa: E402
from mancala.envs import MancalaEnv, raw_env  # noqa: E402


@pytest.mark.parametrize("i", [-1, 2, 10**30])
def test_a_game_index_out_of_range_is_an_index_error_naming_it(i):
    vec = VectorGames("standard", num_envs=2)
    vec.reset()
    with pytest.raises(IndexError, match=r"^game index i must be in 0\.\.2, got "):
        vec.game(i)
    with pytest.raises(IndexError, match=r"^game index i must be in 0\.\.2, got "):
        vec.agent_side(i)


def test_bools_are_no_integers():
    vec = VectorGames("standard", num_envs=1)
    vec.reset()
    for call in (lambda: vec.step_one(True), lambda: vec.game(True), lambda: vec.agent_side(False)):
        with pytest.raises(TypeError, match="bool"):
            call()
    with pytest.raises(TypeError):
        vec.step_one(1.0)
    # An integer of another type is still read, as `step` reads it.
    assert vec.step_one(np.int64(0))[2] is False
    game = Kalah()
    with pytest.raises(TypeError, match="^indent must be None or an integer, not a bool"):
        game.to_json(indent=True)
    with pytest.raises(TypeError, match="^indent must be None or an integer, not float"):
        game.to_json(indent=2.0)
    d = game.to_dict()
    for schema in (True, 1.0):
        with pytest.raises(TypeError, match="^schema must be an integer"):
            from_dict({**d, "schema": schema})


def test_a_negative_indent_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="^indent must be None or at least 0, got -1"):
        Kalah().to_json(indent=-1)
    # 0 and more indent by that many spaces, as json.dumps does.
    assert Kalah().to_json(indent=0) == json.dumps(Kalah().to_dict(), indent=0)


def test_a_huge_indent_is_a_value_error_naming_it():
    # 2**70 raised OverflowError ("cannot fit 'int' into an index-sized integer"), 10**9 would
    # have built gigabytes of spaces.
    for indent in (1001, 10**9, 2**70):
        with pytest.raises(ValueError, match=f"^indent must be None or at most 1000, got {indent}$"):
            Kalah().to_json(indent=indent)
    assert Kalah().to_json(indent=1000) == json.dumps(Kalah().to_dict(), indent=1000)


def test_moves_must_be_a_list():
    game = Kalah()
    game.play(3)
    d = game.to_dict()
    with pytest.raises(TypeError, match="^moves must be a list of moves, not str"):
        from_dict({**d, "moves": "3 1"})
    assert from_dict({**d, "moves": (3,)}) == game


def test_the_class_asked_for_must_match_the_state():
    kalah = Kalah().to_dict()
    with pytest.raises(ValueError, match=r"^Oware\.from_dict: the state is of Kalah, not of Oware.*Kalah\.from_dict"):
        Oware.from_dict(kalah)
    with pytest.raises(ValueError, match=r"^Togyz\.from_dict"):
        Togyz.from_dict(kalah)
    assert type(Kalah.from_dict(kalah)) is Kalah
    assert type(mancala.Game.from_dict(Oware().to_dict())) is Oware


def test_observe_before_reset_is_pettingzoos_refusal():
    with pytest.raises(AssertionError, match=r"^reset\(\) needs to be called before observe\.$"):
        raw_env().observe("player_0")


def test_an_id_refuses_the_rules_of_another_game():
    with pytest.raises(ValueError, match=r'are a Togyz rule set, not a Kalah one: use the id "mancala/Togyz-v0"'):
        gymnasium.make("mancala/Kalah-v0", rules="togyz-kumalak")
    with pytest.raises(ValueError, match=r'are an Oware rule set, not a Kalah one: use the id "mancala/Oware-v0"'):
        gymnasium.make_vec("mancala/Kalah-v0", num_envs=2, vectorization_mode="vector_entry_point", rules="oware")
    # Rules of the id's own game, and any rules without an id, are played.
    env = gymnasium.make("mancala/Oware-v0", rules="awari(4,3)")
    assert env.reset(seed=0)[0].shape == (10,)
    assert MancalaEnv("togyz-kumalak").reset(seed=0)[0].shape == (22,)


def test_an_illegal_action_follows_pettingzoos_convention():
    # TerminateIllegalWrapper: -1 to the offender, 0 to the other, every agent terminated
    # and truncated (pettingzoo/utils/wrappers/terminate_illegal.py).
    env = mancala.envs.aec_env(rules="standard")
    env.reset(seed=0)
    env.step(2)  # house 3: its last seed in the store, an extra turn
    assert env.agent_selection == "player_0"
    env.step(2)  # house 3 is empty now (PettingZoo logs a warning)
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(env.terminations.values()) and all(env.truncations.values())


def test_the_vector_environment_does_not_render():
    with pytest.raises(ValueError, match="does not render"):
        gymnasium.make_vec("mancala/Kalah-v0", num_envs=2, vectorization_mode="vector_entry_point", render_mode="ansi")


@pytest.mark.parametrize("opponent", [3, "random"])
def test_a_bad_opponent_time_is_refused_when_the_environment_is_made_naming_it(opponent):
    # Against an engine it was taken as given and refused at the engine's first move, in
    # reset or in the middle of an episode, as the engine's `time_ms`.
    for bad, error in ((-5, ValueError), (2**64, ValueError), (1.5, TypeError), (float("nan"), TypeError), (True, TypeError)):
        with pytest.raises(error, match=r"^opponent_time_ms must be"):
            MancalaEnv(opponent=opponent, opponent_time_ms=bad)
    env = MancalaEnv(opponent=opponent, opponent_time_ms=np.int64(5), agent_first=False)
    assert env.opponent_time_ms == 5 and type(env.opponent_time_ms) is int
    env.reset(seed=0)


@pytest.mark.parametrize("opponent", [3, "random", lambda game: game.legal_moves()[0]])
def test_illegal_reward_and_agent_first_are_checked_whatever_the_opponent(opponent):
    # Against "random" the batch refused NaN; against an engine or a function NaN became the
    # reward of an illegal move, "2" became 2.0 and agent_first="yes" was taken as true.
    for bad, error in (
        (float("nan"), ValueError),
        (float("inf"), ValueError),
        ("2", TypeError),
        (True, TypeError),
        (None, TypeError),
    ):
        with pytest.raises(error, match=r"^illegal_reward must be"):
            MancalaEnv(opponent=opponent, illegal_reward=bad)
    for bad in ("yes", 1, 0.0):
        with pytest.raises(TypeError, match=r"^agent_first must be True, False or None"):
            MancalaEnv(opponent=opponent, agent_first=bad)
    env = MancalaEnv(opponent=opponent, illegal_reward=np.float32(-2.5), agent_first=np.bool_(False))
    assert env.illegal_reward == -2.5 and type(env.illegal_reward) is float
    env.reset(seed=0)
    # Action 6 is no house of Kalah(6,4) (actions 0..5): illegal, the episode ends with it.
    _, reward, terminated, _, info = env.step(6)
    assert (reward, terminated, info["illegal_move"]) == (-2.5, True, True)


def test_the_vector_environment_checks_illegal_reward_and_agent_first():
    make = lambda **kw: gymnasium.make_vec(  # noqa: E731
        "mancala/Kalah-v0", num_envs=2, vectorization_mode="vector_entry_point", **kw
    )
    with pytest.raises(TypeError, match=r"^illegal_reward must be a number"):
        make(illegal_reward="x")
    with pytest.raises(ValueError, match=r"^illegal_reward must be finite"):
        make(illegal_reward=float("-inf"))
    with pytest.raises(TypeError, match=r"^agent_first must be True, False or None"):
        make(agent_first="no")


def test_vector_games_refuses_a_bool_as_illegal_reward():
    # A bool was read as the number 1.0 (True) or 0.0, while MancalaEnv refuses it.
    for bad in (True, False, np.bool_(True), "2", None):
        with pytest.raises(TypeError, match=r"^illegal_reward must be a number, not "):
            VectorGames("standard", num_envs=1, illegal_reward=bad)
    # Action 6 is no house of Kalah(6,4) (actions 0..5): the game ends with the reward given.
    for good in (2, np.int64(2), np.float32(2.0), 2.0):
        vec = VectorGames("standard", num_envs=1, illegal_reward=good)
        vec.reset()
        _, reward, terminated, *_ = vec.step(np.array([6]))
        assert (float(reward[0]), bool(terminated[0])) == (2.0, True)


@pytest.mark.parametrize(
    "bad, error, why",
    [
        (float("nan"), ValueError, "finite"),
        (float("inf"), ValueError, "finite"),
        (np.float64("-inf"), ValueError, "finite"),
        # A real number that is no float, such as 10**400 (float() overflows), is shown by
        # its size: test_a_huge_or_unconvertible_illegal_reward_gets_one_short_message_everywhere.
        (True, TypeError, "a number"),
        (np.bool_(False), TypeError, "a number"),
        ("2", TypeError, "a number"),
        (None, TypeError, "a number"),
    ],
)
def test_illegal_reward_is_refused_alike_by_every_way_in(bad, error, why):
    # One check and one message: VectorGames itself (which said "illegal_reward must be
    # finite" without the value, "argument 'illegal_reward': must be a number, not True",
    # and a TypeError for 10**400), the vector environment that leaves the check to it,
    # and MancalaEnv against "random" (through VectorGames) and an engine (its own check).
    message = f"illegal_reward must be {why}, not {bad!r}"
    makers = {
        "VectorGames": lambda: VectorGames("standard", num_envs=1, illegal_reward=bad),
        "MancalaVectorEnv": lambda: mancala.envs.MancalaVectorEnv(num_envs=1, illegal_reward=bad),
        "MancalaEnv random": lambda: MancalaEnv(opponent="random", illegal_reward=bad),
        "MancalaEnv engine": lambda: MancalaEnv(opponent=3, illegal_reward=bad),
    }
    for name, make in makers.items():
        with pytest.raises(error) as refused:
            make()
        assert str(refused.value) == message, name


def test_a_fraction_is_a_real_number_of_every_way_in():
    # numbers.Real, as the check says: the reward is its value as a float.
    from fractions import Fraction

    vec = VectorGames("standard", num_envs=1, illegal_reward=Fraction(-1, 2))
    vec.reset()
    assert float(vec.step(np.array([6]))[1][0]) == -0.5
    for opponent in ("random", 3):
        env = MancalaEnv(opponent=opponent, illegal_reward=Fraction(-1, 2))
        env.reset(seed=0)
        assert env.step(6)[1] == -0.5


class _FloatFails(numbers.Real):
    """A real number whose ``float()`` raises (every other operation of ``numbers.Real``
    left out)."""

    def __float__(self) -> float:
        raise TypeError("no float")

    def __repr__(self) -> str:
        return "R()"


_FloatFails.__abstractmethods__ = frozenset()


def test_a_huge_or_unconvertible_illegal_reward_gets_one_short_message_everywhere():
    # 10**5000 raised "Exceeds the limit (4300 digits) for integer string conversion" from
    # the message's repr, 10**309 gave a 345-character message; a Real whose float() raises
    # was "must be finite, not R()" in VectorGames and a bare TypeError in MancalaEnv.
    makers = (
        lambda r: VectorGames("standard", illegal_reward=r),
        lambda r: MancalaEnv(illegal_reward=r),
        lambda r: MancalaEnv(opponent=3, illegal_reward=r),
        lambda r: mancala.envs.MancalaVectorEnv(num_envs=2, illegal_reward=r),
    )
    # The number of digits of each, known without writing it out.
    for value, digits in ((10**5000, 5001), (-(10**5000), 5001), (10**309, 310)):
        messages = set()
        for make in makers:
            with pytest.raises(ValueError) as refused:
                make(value)
            messages.add(str(refused.value))
        (message,) = messages
        sign = "a negative" if value < 0 else "an"
        shown = re.fullmatch(rf"illegal_reward must be finite, not {sign} integer of at least (\d+) digits", message)
        assert shown is not None, message
        assert digits - 1 <= int(shown.group(1)) <= digits
    messages = set()
    for make in makers:
        with pytest.raises(TypeError) as refused:
            make(_FloatFails())
        messages.add(str(refused.value))
    assert messages == {"illegal_reward must be a number float() takes, not R() (float() raised TypeError)"}
