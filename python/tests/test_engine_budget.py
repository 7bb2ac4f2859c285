"""The engine's budgets: a `time_ms` or `max_nodes` of 0 is no limit of that kind, as for
`mancala bestmove` (`--time-ms 0`, `--nodes 0`) and the C API, and level 10, which has no
depth limit, refuses a search without either, with the command's reason. The searches are
checked against the command's own (its JSON report of the same search)."""

from __future__ import annotations

import json

import pytest

import mancala
from mancala import Engine, Kalah, VectorGames

REASON = "level 10 needs a budget: give time_ms or max_nodes above 0"
OPPONENT_REASON = "level 10 needs a budget: give opponent_time_ms above 0"


def cli_search(cli, *args: str) -> dict:
    """The command's search of the Kalah(6,4) start, without a database, as JSON."""
    return json.loads(cli.ok("bestmove", "--rules", "standard", "--no-cache", "--json", *args))


def test_level_10_without_a_budget_is_refused_with_the_command_s_reason(cli):
    # It played the search's first iteration, where the command refuses the same request.
    command = cli.error("bestmove", "--rules", "standard", "--time-ms", "0")
    assert command.replace("--time-ms", "time_ms").replace("--nodes", "max_nodes") == REASON
    for search in (
        lambda: Engine(level=10).search(Kalah(), time_ms=0),
        lambda: Engine(level=10).search(Kalah(), time_ms=0, max_nodes=0),
        lambda: Engine(level=10).best_move(Kalah(), time_ms=0),
        lambda: mancala.best_move(Kalah(), time_ms=0, level=10),
    ):
        with pytest.raises(ValueError) as refused:
            search()
        assert str(refused.value) == REASON


def test_a_budget_of_0_is_no_limit_as_for_the_command(cli):
    # Level 9 (14 plies) with no time limit: the command's search, node for node; it was the
    # first iteration alone (1 ply, move 3 where the 14-ply search plays 6).
    r = Engine(level=9).search(Kalah(), time_ms=0)
    c = cli_search(cli, "--level", "9", "--time-ms", "0")
    assert c["depth"] == 14
    assert (r.depth, r.nodes, [str(m) for m in r.pv], str(r.move)) == (c["depth"], c["nodes"], c["pv"], c["move"])
    # Level 10 with a node budget alone: the command's `--time-ms 0 --nodes 5000`.
    r = Engine(level=10).search(Kalah(), time_ms=0, max_nodes=5000)
    c = cli_search(cli, "--level", "10", "--time-ms", "0", "--nodes", "5000")
    assert c["depth"] > 1
    assert (r.depth, r.nodes, [str(m) for m in r.pv]) == (c["depth"], c["nodes"], c["pv"])
    # max_nodes=0 is no node limit either: the level's depth, as without it.
    r = Engine(level=5).search(Kalah(), time_ms=0, max_nodes=0)
    c = cli_search(cli, "--level", "5", "--time-ms", "0", "--nodes", "0")
    assert r.depth == c["depth"] == 5 and r.nodes == c["nodes"]


def test_the_environments_take_opponent_time_ms_0_as_the_engine_does(cli):
    gymnasium = pytest.importorskip("gymnasium")
    import mancala.envs  # noqa: F401  (registers the ids)
    from mancala.envs import MancalaEnv, MancalaVectorEnv

    # Level 10: refused when made, never at the engine's first move.
    for make in (
        lambda: VectorGames("standard", opponent=10, opponent_time_ms=0),
        lambda: MancalaVectorEnv(num_envs=2, opponent=10, opponent_time_ms=0),
        lambda: gymnasium.make_vec("mancala/Kalah-v0", num_envs=2, vectorization_mode="vector_entry_point",
                                   opponent=10, opponent_time_ms=0),
        lambda: MancalaEnv(opponent=10, opponent_time_ms=0),
        lambda: MancalaEnv(opponent=Engine(level=10), opponent_time_ms=0),
    ):
        with pytest.raises(ValueError) as refused:
            make()
        assert str(refused.value) == OPPONENT_REASON
    # Level 9 with no time limit: the engine, first to move, plays the command's 14-ply move
    # (with the batch's 4 MiB table), in the batch and in the single environment alike.
    first = cli_search(cli, "--level", "9", "--time-ms", "0", "--tt-mb", "4")["move"]
    vec = VectorGames("standard", opponent=9, opponent_time_ms=0, agent_first=False)
    vec.reset(seed=0)
    assert str(vec.game(0).moves[0]) == first
    env = MancalaEnv(opponent=9, opponent_time_ms=0, agent_first=False)
    env.reset(seed=0)
    assert str(env.game.moves[0]) == first


def command_s_longest_time(cli) -> int:
    """The command's longest --time-ms, read off its refusal of a longer one (one day)."""
    import re

    refused = cli.error("bestmove", "--rules", "standard", "--time-ms", "86400001")
    return int(re.search(r"out of range \(0 to (\d+)\)", refused).group(1))


def assert_refused_beyond(call, name: str, most: int) -> None:
    """`call(t)` takes `most` ms and refuses the times beyond it (up to 2**64 - 1 was
    taken: a budget of 585 million years) with the range in the message."""
    call(most)
    for bad in (most + 1, 2**64 - 1):
        with pytest.raises(ValueError) as e:
            call(bad)
        assert str(e.value) == f"{name} must be in 0..={most} (one day; 0: no time limit), got {bad}"


def test_opponent_time_ms_is_capped_at_the_command_s_longest_time(cli):
    gymnasium = pytest.importorskip("gymnasium")  # noqa: F841
    from mancala.envs import MancalaEnv, MancalaVectorEnv

    most = command_s_longest_time(cli)
    assert most == 24 * 60 * 60 * 1000
    makers = (
        lambda t: VectorGames("standard", opponent=3, opponent_time_ms=t),
        lambda t: MancalaVectorEnv(num_envs=2, opponent=3, opponent_time_ms=t),
        lambda t: MancalaEnv(opponent=3, opponent_time_ms=t),
    )
    for make in makers:
        assert_refused_beyond(make, "opponent_time_ms", most)
        # One too long to write out ("Exceeds the limit (4300 digits) for integer string
        # conversion" was the message): shown by its size, 5001 digits at least 5000.
        with pytest.raises(ValueError) as e:
            make(10**5000)
        assert str(e.value) == f"opponent_time_ms must be in 0..={most} (one day; 0: no time limit), got an integer of at least 5000 digits"


def test_the_engine_s_time_ms_is_capped_at_the_command_s_longest_time(cli):
    most = command_s_longest_time(cli)
    searches = (
        lambda t: Engine(level=1).search(Kalah(), time_ms=t),
        lambda t: Engine(level=1).best_move(Kalah(), time_ms=t),
        lambda t: mancala.best_move(Kalah(), time_ms=t, level=1),
    )
    for search in searches:
        # Level 1 searches one ply, whatever its time.
        assert_refused_beyond(search, "time_ms", most)
        with pytest.raises(ValueError) as e:
            search(-1)
        assert str(e.value) == f"time_ms must be in 0..={most} (one day; 0: no time limit), got -1"
