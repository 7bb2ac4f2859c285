"""`mancala.grade`: a player scored against the exact values of every move, on three
Kalah(3,3) positions whose move values were traced by hand (the trace is in the Rust test
`crates/mancala-bench/tests/grade.rs`):

* P4 ``0,1,1,7,1,0,0,8 S``: house 2 is worth -1 seeds, house 3 +3;
* P6 ``1,0,1,7,0,1,0,8 S``: houses 1 and 3 are both worth +3;
* P7 ``1,0,0,8,0,1,1,7 N``: P4 with the sides exchanged.

A player that plays the first legal move loses 4, 0 and 4 seeds; one that fails is scored as
the worst legal move: 4, 0 and 4 too.
"""

from __future__ import annotations

import time

import pytest

import mancala
from conftest import ROOT

POSITIONS = ["0,1,1,7,1,0,0,8 S", "1,0,1,7,0,1,0,8 S", "1,0,0,8,0,1,1,7 N"]
BOT = ROOT / "crates" / "mancala-bench" / "tests" / "bots" / "kalah_bot.sh"


def games():
    return [mancala.Kalah("kalah(3,3)", p) for p in POSITIONS]


def first_legal(game):
    return game.legal_moves()[0]


def test_a_callable_that_plays_the_first_legal_move():
    r = mancala.grade(first_legal, games(), time=1.0)
    assert [m.loss for m in r.moves] == [4, 0, 4]
    assert [m.move for m in r.moves] == [2, 1, 2]
    assert r.mean_loss == pytest.approx(8 / 3)
    assert r.worst_loss == 4
    assert r.total_loss == 8
    assert r.optimal == pytest.approx(1 / 3)
    assert r.failures == []
    assert [m.index for m in r.worst] == [0, 2]
    assert r.moves[0].values == [(2, -1), (3, 3)]
    assert r.moves[0].best_moves == [3]
    assert r.player == "first_legal"
    assert len(r.by_seeds) == 1 and r.by_seeds[0].positions == 3


@pytest.mark.parametrize(
    "player, verdict",
    [
        (lambda g: 7, "illegal move"),
        (lambda g: "north", "illegal move"),
        (lambda g: None, "illegal move"),
        (lambda g: 1 / 0, "failed: raised"),
    ],
)
def test_a_callable_that_fails_is_scored_as_the_worst_move(player, verdict):
    r = mancala.grade(player, games())
    assert [m.loss for m in r.moves] == [4, 0, 4]
    assert all(m.failed and m.move is None for m in r.moves)
    assert all(m.verdict.startswith(verdict) for m in r.moves), r.moves[0].verdict
    assert len(r.failures) == 3


def test_a_keyboard_interrupt_in_the_callable_stops_the_run():
    calls = []

    def interrupted(game):
        calls.append(game.notation())
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        mancala.grade(interrupted, games())
    assert len(calls) == 1


def test_a_callable_past_its_time_is_timed_out():
    def slow(game):
        time.sleep(0.05)
        return game.legal_moves()[-1]

    r = mancala.grade(slow, games()[:1], time=0.005, grace=0.005)
    assert r.moves[0].verdict == "timed out"
    assert r.moves[0].loss == 4


def test_the_engine_plays_these_positions_perfectly():
    r = mancala.grade(10, games(), time=2.0, nodes=100_000)
    assert r.worst_loss == 0
    assert r.player == "engine level 10"


def test_an_external_program_first_legal_illegal_and_hanging():
    r = mancala.grade(["sh", str(BOT), "first"], games())
    assert [m.loss for m in r.moves] == [4, 0, 4]
    assert r.failures == []
    r = mancala.grade(["sh", str(BOT), "illegal"], games())
    assert [m.verdict for m in r.moves] == ['illegal move "7"'] * 3
    # It hangs when North is to move: timed out within time + grace, then restarted.
    t0 = time.monotonic()
    r = mancala.grade(["sh", str(BOT), "hang"], games() + games()[:1], time=0.8, grace=0.2)
    assert [m.verdict for m in r.moves] == ["played", "played", "timed out", "played"]
    assert [m.loss for m in r.moves] == [4, 0, 4, 4]
    assert time.monotonic() - t0 < 30  # a bound on the wait, not a timing assertion


def test_generated_positions_and_bad_players():
    ps = mancala.generate_positions("kalah(3,3)", 4, seed=3, min_seeds=3, max_seeds=10)
    assert len(ps) == 4 and all(isinstance(p, mancala.Kalah) for p in ps)
    r = mancala.grade(first_legal, ps)
    assert r.positions == 4
    with pytest.raises(TypeError):
        mancala.grade(3.5, ps)
    with pytest.raises(ValueError):
        mancala.grade(11, ps)


def test_huge_budgets_bool_players_and_bad_counts_are_value_or_type_errors():
    for kw in ({"time": 1e19}, {"grace": 1e19}, {"time": 1.5e19, "grace": 1e19}):
        with pytest.raises(ValueError, match="time \\+ grace"):
            mancala.grade(1, games(), **kw)
    with pytest.raises(TypeError, match="not bool"):
        mancala.grade(True, games())
    with pytest.raises(ValueError) as e:
        mancala.grade(0, games())
    assert "1..=10" in str(e.value) and "1..=10an" not in str(e.value)
    with pytest.raises(ValueError, match="count"):
        mancala.generate_positions("kalah(3,3)", 0)
    with pytest.raises(ValueError, match="min_seeds"):
        mancala.generate_positions("kalah(3,3)", 5, min_seeds=9, max_seeds=4)


def test_a_tuple_player_and_tuple_positions():
    r = mancala.grade(("sh", str(BOT), "first"), tuple(games()), time=0.8)
    assert len(r.failures) == 0 and r.positions == 3


# Awari: Oware positions of the rule set awari, valued by an Awari database.
# OW-11.3's grand slam (docs/awari.md): South's house 6 holds 1, North's house 1 holds 1;
# sowing it captures North's last seed, and under awari a grand slam is legal when every move
# is one: South's only move, worth +2 (both seeds).
GRAND_SLAM = "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S"


def test_an_awari_set_graded_against_a_database(cli):
    db = mancala.Database.build("awari", 8, threads=1)
    ps = mancala.generate_positions("awari", 20, seed=5, min_seeds=2, max_seeds=8)
    assert len(ps) == 20 and all(isinstance(p, mancala.Oware) for p in ps)
    assert all(sum(p.board) - p.store(0) - p.store(1) <= 8 for p in ps)

    def best(game):
        values = db.move_values(game)
        return max(values, key=lambda h: values[h])

    r = mancala.grade(best, ps, database=db)
    assert r.positions == 20 and r.optimal == 1.0 and r.total_loss == 0
    # The engine in this process and `mancala agent line` told `rules awari` by the grader
    # (started without --rules) play the same moves at a node budget.
    inside = mancala.grade(4, ps, database=db, nodes=2000, time=20)
    outside = mancala.grade(
        [str(cli.path), "agent", "line", "--level", "4", "--time-ms", "0"],
        ps,
        database=db,
        nodes=2000,
        time=20,
    )
    assert [m.move for m in inside.moves] == [m.move for m in outside.moves]
    assert len(outside.failures) == 0
    # Every loss is the database's best value minus the chosen move's.
    for m, p in zip(inside.moves, ps):
        values = db.move_values(p)
        assert m.loss == max(values.values()) - values[m.move]


def test_the_grand_slam_is_worth_two_and_other_oware_sizes_are_refused():
    g = mancala.Oware("awari", GRAND_SLAM)
    r = mancala.grade(lambda game: 6, [g])  # a database of N = 2 built for the set
    assert r.moves[0].best == 2 and r.moves[0].values == [(6, 2)] and r.optimal == 1.0
    assert r.caveat is None
    # Another number of houses: no database comes near.
    small = mancala.Oware("oware(5,4)", "0,0,0,0,1,23,1,0,0,0,0,23 S")
    with pytest.raises(mancala.DatabaseError, match="5 houses a side"):
        mancala.grade(1, [small])
    # A database of another game than the set's: refused, naming both.
    with pytest.raises(mancala.DatabaseError, match="database of Kalah, not of Oware"):
        mancala.grade(1, games(), database=mancala.Database.build("awari", 2))
    with pytest.raises(mancala.RulesError, match="5 houses a side"):
        mancala.generate_positions("oware(5,4)", 3)
    # A game without exact values: said so, not "use another class".
    with pytest.raises(mancala.RulesError, match="is a rule set of Togyz Kumalak"):
        mancala.generate_positions("togyz-kumalak", 3)


ABAPA_CAVEAT = "the values are those of awari+grand_slam=none (no majority end, cycles split evenly), not of oware"


def test_an_abapa_set_is_graded_with_the_neighbours_values_and_a_caveat():
    # Abapa (`oware`): a grand slam is legal and captures nothing (OW-7). In GRAND_SLAM,
    # South's only move sows its last seed into North's house 1, capturing nothing; North's 2
    # seeds cannot reach South, so the game ends and North takes them: worth -2 (+2 under
    # awari, where the grand slam captures them).
    r = mancala.grade(lambda game: 6, [mancala.Oware("oware", GRAND_SLAM)])
    assert r.moves[0].best == -2 and r.moves[0].values == [(6, -2)]
    assert r.caveat is not None and r.caveat.startswith(ABAPA_CAVEAT)
    # A generated Abapa set holds no finished game, and every loss is the neighbour
    # database's best value minus the chosen move's.
    ps = mancala.generate_positions("oware", 12, seed=3, min_seeds=2, max_seeds=8)
    assert len(ps) == 12 and not any(p.is_over() for p in ps)
    db = mancala.Database.build("oware+majority=off+cycle_score=split", 8, threads=1)
    r = mancala.grade(4, ps, database=db, nodes=2000, time=20)
    assert r.positions == 12 and r.caveat.startswith(ABAPA_CAVEAT)
    for m, p in zip(r.moves, ps):
        neighbour = mancala.Oware("oware+majority=off+cycle_score=split", p.notation())
        values = db.move_values(neighbour)
        assert m.loss == max(values.values()) - values[m.move]
    # The Awari database does not hold Abapa's neighbour: refused, naming the rules.
    with pytest.raises(mancala.DatabaseError, match="grand_slam"):
        mancala.grade(4, ps, database=mancala.Database.build("awari", 8, threads=1))
    # A set whose every position Abapa has finished has nothing to grade.
    # (South has 25 of the 48 seeds: past half, OW-10.)
    over = mancala.Oware("oware", "0,0,0,0,0,1,25,1,0,0,0,0,0,21 -")
    assert over.is_over()
    with pytest.raises(ValueError, match="no position to grade"):
        mancala.grade(1, [over])


def test_a_program_that_refuses_the_rules_request_is_graded_all_the_same():
    # kalah_bot.sh knows no `rules` request: it answers `error unknown request …`.
    r = mancala.grade(["sh", str(BOT), "first"], games(), time=0.8)
    assert r.rules_refused is not None and "unknown request" in r.rules_refused
    assert [m.loss for m in r.moves] == [4, 0, 4] and len(r.failures) == 0
    assert mancala.grade(first_legal, games()).rules_refused is None


@pytest.mark.parametrize(
    "command, why",
    [
        (["/nonexistent/program"], "cannot start /nonexistent/program"),
        (["sh", "-c", "exit 0"], "the program ended"),
        (["sh", "-c", "read line; echo hello; sleep 5"], "expected `ok …` or `error …`"),
    ],
)
def test_a_program_that_cannot_start_or_answer_the_rules_request_is_one_error(command, why):
    # As `mancala grade` (docs/grading.md): one error before any work, not a report of
    # failures, whether the program cannot start, ends, or answers `rules` otherwise.
    with pytest.raises(mancala.EngineError) as e:
        mancala.grade(command, games())
    assert why in str(e.value), str(e.value)


def test_a_callable_echoed_answer_is_cut_to_60_characters():
    # docs/grading.md: an echoed reply is cut to 60 characters (then "…").
    r = mancala.grade(lambda g: "x" * 10**6, games()[:1])
    verdict = r.moves[0].verdict
    assert "x" * 60 + "…" in verdict and "x" * 61 not in verdict, verdict[:200]
    assert len(verdict) < 100

    def raises(game):
        raise ValueError("y" * 10**5)

    verdict = mancala.grade(raises, games()[:1]).moves[0].verdict
    assert verdict.startswith("failed: raised") and len(verdict) < 100, verdict[:200]


def test_a_time_under_a_millisecond_is_refused_as_by_the_command():
    # `mancala grade --time-ms 0` is refused; a program is sent whole milliseconds.
    for t in (0, 0.0004):
        with pytest.raises(ValueError, match="at least 1 ms"):
            mancala.grade(1, games(), time=t)
    with pytest.raises(ValueError, match="bucket"):
        mancala.grade(1, games(), bucket=0)


def test_positions_files_are_read_alike_for_oware_and_kalah(tmp_path):
    """The `# rules:` line is read by one reader for both games: an Oware file headed
    `#rules: awari` was taken for a Kalah file and refused."""
    f = tmp_path / "set.txt"
    for header in ("#rules: awari", "#  Rules :  Awari", "\ufeff# rules: awari"):
        f.write_text(f"{header}\n{GRAND_SLAM}\n", encoding="utf-8")
        r = mancala.grade(1, str(f))
        assert r.positions == 1 and r.moves[0].best == 2, header
    for header in ("#rules: kalah(3,3)", "# RULES : Kalah(3,3)", "\ufeff# rules: kalah(3,3)"):
        # P7 of mancala-bench's grade tests: North to move, worth +3.
        f.write_text(f"{header}\n1,0,0,8,0,1,1,7 N +3\n", encoding="utf-8")
        r = mancala.grade(1, str(f))
        assert r.positions == 1 and r.moves[0].best == 3, header


def test_a_rules_line_that_does_not_parse_is_refused_with_its_own_error(tmp_path):
    """A misspelt Oware rule set was handed to the Kalah reader, which said it names an
    Oware rule set; the error is the rule set's own, as `mancala grade` gives it."""
    f = tmp_path / "set.txt"
    f.write_text(f"# rules: awari+grand_slam=nonee\n{GRAND_SLAM}\n", encoding="utf-8")
    with pytest.raises(mancala.NotationError, match=r"line 1: the `# rules:` line: bad value `nonee` for rule option `grand_slam`") as e:
        mancala.grade(1, str(f))
    assert "not a Kalah one" not in str(e.value)
    f.write_text("# rules: kalah(3,3)+foo\n1,0,0,8,0,1,1,7 N +3\n", encoding="utf-8")
    with pytest.raises(mancala.NotationError, match=r"line 1: the `# rules:` line: unknown rule option `foo`"):
        mancala.grade(1, str(f))


def test_an_oware_set_no_database_holds_is_said_so(tmp_path):
    """A four-house Oware set: no database holds its values, said as `mancala grade` says
    it (it was refused in the words of the six-house database's rule set)."""
    f = tmp_path / "set.txt"
    f.write_text("# rules: oware(4,3)\n0,0,0,1,1,0,0,1,0,0 S\n", encoding="utf-8")
    with pytest.raises(mancala.DatabaseError, match=r"^no database holds the values of oware\(4,3\), which has 4 houses a side.*; tip: grade is for") as e:
        mancala.grade(1, str(f))
    assert "awari+grand_slam=none holds" not in str(e.value)


def test_a_kalah_file_value_that_is_not_the_exact_value_is_refused(tmp_path):
    f = tmp_path / "set.txt"
    f.write_text("# rules: kalah(3,3)\n1,0,0,8,0,1,1,7 N +4\n")
    with pytest.raises(mancala.NotationError, match=r"line 2: .*\+4 in the file.*exact value is \+3"):
        mancala.grade(1, str(f))


def test_an_empty_list_is_said_to_be_empty_whatever_the_database():
    for database in (None, mancala.Database.build("awari", 2, threads=1)):
        with pytest.raises(ValueError, match="no position to grade"):
            mancala.grade(1, [], database=database)
