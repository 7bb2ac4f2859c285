"""Bad input raises the exceptions of mancala.errors, with the message the `mancala`
command prints for the same input (after `mancala: ` and the name of the argument the
command read it from), and never a panic."""

from __future__ import annotations

import pytest

import mancala
from mancala import (
    Bao,
    DatabaseError,
    Egdb,
    IllegalMoveError,
    Kalah,
    MancalaError,
    NotationError,
    RulesError,
    SolveError,
)


def message(exc_info) -> str:
    return str(exc_info.value)


@pytest.mark.parametrize("rules", ["kalah(9,4)", "kalah(6,4)+no_such_option", "kalah(6,40)", "kalah(6"])
def test_bad_kalah_rules(cli, rules):
    with pytest.raises(RulesError) as e:
        Kalah(rules)
    assert cli.error("perft", "--rules", rules, "--depth", "1") == f"--rules {rules}: {message(e)}"


@pytest.mark.parametrize("rules", ["bao-la-kete+no_such=1", "bao", "bao-la-kete+block_duration=99"])
def test_bad_bao_rules(cli, rules):
    with pytest.raises(RulesError) as e:
        Bao(rules)
    assert cli.error("perft", "--rules", rules, "--depth", "1") == f"--rules {rules}: {message(e)}"


@pytest.mark.parametrize(
    "rules,position",
    [
        ("standard", "1,2"),
        ("standard", "4,4,4,4,4,4,0,4,4,4,4,4,4,0 X"),
        ("standard", "4,4,4,4,4,4,0,4,4,4,4,4,4,999 S"),
        ("standard", "1,0,0,0,0,0,0,0,0,0,0,0,0,0 -"),
        ("kalah(6,4)", "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S swap"),
        ("bao-la-kete", "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -"),
        ("bao-la-kete", "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 23,22 SN S -"),
    ],
)
def test_bad_positions(cli, rules, position):
    with pytest.raises(NotationError) as e:
        mancala.new_game(rules, position)
    assert cli.error("show", "--rules", rules, position) == f"position {position}: {message(e)}"


@pytest.mark.parametrize(
    "rules,moves",
    [
        ("standard", [3, 3]),  # house 3 was emptied by the first move
        ("standard", [7]),
        ("standard", ["swap"]),
        ("kalah(4,3)+pie_rule", [1, 2, "swap"]),
        ("bao-la-kete", ["F1>"]),
        ("bao-la-kete", ["F6"]),
        ("bao-la-kete", ["F6>", "F6>", "F7L"]),
    ],
)
def test_illegal_moves(cli, rules, moves):
    g = mancala.new_game(rules)
    before = None
    with pytest.raises(IllegalMoveError) as e:
        for mv in moves:
            before = g.notation()
            g.play(mv)
    # The game is unchanged by the refused move.
    assert g.notation() == before
    # The command names the argument and the move's index first: `move 2: illegal move 3: ...`.
    text = ",".join(map(str, moves))
    assert cli.error("replay", "--rules", rules, "--moves", text) == f"--moves: move {len(moves)}: {message(e)}"


@pytest.mark.parametrize("rules,move", [("standard", "x"), ("standard", "1.5"), ("bao-la-kete", "G9")])
def test_malformed_moves(cli, rules, move):
    g = mancala.new_game(rules)
    with pytest.raises(NotationError) as e:
        g.play(move)
    assert cli.error("replay", "--rules", rules, "--moves", move) == f"--moves: move 1: {message(e)}"


def test_wrong_types_are_type_errors():
    g = Kalah()
    for bad in (True, 2.5, None, [1]):
        with pytest.raises(TypeError):
            g.play(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Bao().play(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Kalah(4)  # type: ignore[arg-type]


def test_huge_and_negative_house_numbers():
    g = Kalah()
    for house in (0, 256, -1, 10**30):
        with pytest.raises(IllegalMoveError, match=f"house {house} does not exist: houses are numbered 1..=6"):
            g.play(house)


def test_rule_sets_of_the_other_game():
    with pytest.raises(RulesError, match="use mancala.Bao"):
        Kalah("bao-la-kete")
    with pytest.raises(RulesError, match="use mancala.Kalah"):
        Bao("standard")


def test_database_file_errors_match_the_command(cli, tmp_path):
    bad = tmp_path / "bad.egdb"
    bad.write_bytes(b"MANCALA?" + bytes(100))
    with pytest.raises(DatabaseError) as e:
        mancala.Database.open(bad)
    assert message(e) == cli.error("egdb", "info", str(bad))


def test_solve_errors_match_the_command(cli):
    with pytest.raises(SolveError) as e:
        mancala.solve("kalah(7,18)")
    assert message(e) == cli.error("solve", "--rules", "kalah(7,18)", "--no-cache")


def test_every_error_is_a_mancala_error():
    for cls in (RulesError, NotationError, IllegalMoveError, SolveError, DatabaseError, mancala.EngineError):
        assert issubclass(cls, MancalaError)
    for cls in (RulesError, NotationError, IllegalMoveError):
        assert issubclass(cls, ValueError)


# Whole-number arguments: a value out of range is a ValueError naming the argument and its
# range (PyO3's own conversion raised OverflowError with no name), whatever the integer type.
@pytest.mark.parametrize(
    "call, name",
    [
        (lambda v: mancala.Solver(threads=v), "threads"),
        (lambda v: mancala.Solver(tt_mb=v), "tt_mb"),
        (lambda v: mancala.Solver(max_nodes=v), "max_nodes"),
        (lambda v: mancala.Engine(seed=v), "seed"),
        (lambda v: mancala.Engine(level=1).search(Kalah("kalah(6,1)"), time_ms=v), "time_ms"),
        (lambda v: mancala.random_playouts(v), "n"),
        (lambda v: mancala.build_egdb("kalah(6,1)", v), "max_seeds"),
    ],
)
@pytest.mark.parametrize("value", [-1, 2**70, -(2**70)])
def test_out_of_range_integers_are_value_errors_naming_the_argument(call, name, value):
    with pytest.raises(ValueError, match=f"^{name} must be in ") as e:
        call(value)
    assert str(value) in message(e)


@pytest.mark.parametrize("level", [0, 11, -1, 2**70])
def test_every_level_out_of_range_is_one_engine_error(level):
    with pytest.raises(mancala.EngineError, match=f"^level {level} is out of range: levels are 1..=10$"):
        mancala.Engine(level=level)
    with pytest.raises(mancala.EngineError, match=f"^level {level} is out of range"):
        mancala.best_move(Kalah("kalah(4,1)"), level=level)
    # grade's player as well, before any work.
    with pytest.raises(mancala.EngineError, match=f"^level {level} is out of range: levels are 1..=10$"):
        mancala.grade(level, [mancala.new_game("standard")])


def test_a_numpy_level_out_of_range_is_the_same_engine_error_everywhere():
    import numpy as np

    expected = "^level 11 is out of range: levels are 1..=10$"
    with pytest.raises(mancala.EngineError, match=expected):
        mancala.Engine(level=np.int64(11))
    with pytest.raises(mancala.EngineError, match=expected):
        mancala.grade(np.int64(11), [mancala.new_game("standard")])


def test_thread_counts_beyond_the_cap_and_numpy_integers():
    import numpy as np

    with pytest.raises(ValueError, match=r"^threads must be in 1\.\.=1024 \(None: every core\), got 0$"):
        mancala.Solver(threads=0)
    with pytest.raises(ValueError, match="got 1025$"):
        mancala.Solver(threads=1025)
    # Any integer type (an object with __index__) is an integer; a float is not.
    assert mancala.solve("kalah(6,1)", threads=np.int64(1), tt_mb=np.uint16(1)).value == mancala.solve(
        "kalah(6,1)", threads=1, tt_mb=1
    ).value
    with pytest.raises(TypeError, match="threads"):
        mancala.Solver(threads=1.0)


def test_a_bool_is_not_an_integer_argument():
    # True is a Python int, but N = True is a mistake: refused, naming the argument.
    with pytest.raises(TypeError, match=r"max_seeds.*got a bool \(True\)"):
        mancala.Database.build("awari", True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="threads"):
        mancala.Solver(threads=True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="side"):
        Kalah().store(False)  # type: ignore[arg-type]


def test_a_long_path_is_cut_in_messages(tmp_path):
    # A path of a megabyte (no argument limit in Python): the message keeps its start,
    # its end and its length.
    path = tmp_path / ("d" * (1 << 20)) / "awari.n4.egdb"
    for open_it in (mancala.Database.open,):
        with pytest.raises(DatabaseError) as e:
            open_it(path)
        shown = message(e)
        assert len(shown) < 300, shown[:300]
        assert f"…{'d' * 15}/awari.n4.egdb ({len(str(path))} characters)" in shown, shown


def test_a_side_is_a_side_or_its_integer():
    g = Kalah("kalah(6,3)")
    g.play(4)  # houses 5, 6 and the store: 1 seed there, and an extra turn
    assert g.store(0) == g.store(mancala.Side.SOUTH) == 1
    assert g.store(1) == g.store(mancala.Side.NORTH) == 0
    with pytest.raises(ValueError, match=r"^side must be in 0\.\.=1 \(0 South, 1 North\), got 2$"):
        g.store(2)
    with pytest.raises(TypeError, match="side"):
        g.store("S")


@pytest.mark.parametrize("text", ["kal\0ah", "kalah(6,4)+empty\ncapture", "kalah(6,4)+pie\r_rule", "bao-la-kete+block\tduration=1"])
def test_control_characters_in_rules_are_escaped_in_one_line(text):
    with pytest.raises(RulesError) as e:
        mancala.Kalah(text) if text.startswith("kal") else mancala.Bao(text)
    shown = message(e)
    assert shown.isprintable(), repr(shown)
    # The escape of each control character, as Python's repr writes them too.
    for c in "\0\n\r\t":
        if c in text:
            assert repr(c)[1:-1].replace("\\x00", "\\0") in shown, shown


def test_a_progress_that_cannot_be_called_is_refused_before_any_work(tmp_path):
    # K = 6 ends before its first report, so a bad callback would go unnoticed.
    with pytest.raises(TypeError, match="^progress must be None or a callable taking a BuildProgress, not int$"):
        mancala.build_egdb("kalah(6,4)", 6, progress=5)
    with pytest.raises(TypeError, match="not str$"):
        Egdb.cached("kalah(6,4)", 6, folder=str(tmp_path), progress="x")
    assert list(tmp_path.iterdir()) == []


def test_a_huge_integer_house_of_any_type_is_an_illegal_move():
    import numpy as np

    for house in [np.uint64(2**63), 2**64, np.int64(-1), -(2**70)]:
        with pytest.raises(IllegalMoveError, match=f"^illegal move {int(house)}: house {int(house)} does not exist"):
            Kalah("standard").play(house)
    with pytest.raises(TypeError, match="not float"):
        Kalah("standard").play(3.0)


def test_huge_seconds_are_shown_short():
    with pytest.raises(ValueError) as e:
        mancala.Solver(max_seconds=1e300)
    assert message(e) == "max_seconds must be a finite number of seconds ≥ 0, got 1e300"
    with pytest.raises(ValueError) as e:
        mancala.Solver(max_seconds=-2.5)
    assert message(e) == "max_seconds must be a finite number of seconds ≥ 0, got -2.5"


def test_a_house_number_too_long_to_write_out_reads_as_a_sentence():
    # "illegal move an integer of at least 302 digits: house an integer of at least 302
    # digits does not exist" did not read: the number is named by its size in a sentence of
    # its own. 2**1000 has 302 digits, and it is the smallest power of two that has them,
    # so "at least" is exact.
    assert len(str(2**1000)) == 302 and len(str(2**999)) == 301
    for house, sign in ((2**1000, ""), (-(2**1000), "negative ")):
        for g in (Kalah(), mancala.Oware()):
            with pytest.raises(IllegalMoveError) as refused:
                g.play(house)
            assert message(refused) == (
                f"illegal move: no house has a {sign}number of at least 302 digits: houses are numbered 1..=6"
            )
    # One that is written out keeps the library's sentence.
    with pytest.raises(IllegalMoveError) as refused:
        Kalah().play(2**100)
    assert message(refused) == f"illegal move {2**100}: house {2**100} does not exist: houses are numbered 1..=6"
    # A level alike.
    with pytest.raises(mancala.EngineError) as refused:
        mancala.Engine(level=2**1000)
    assert message(refused) == "a level of at least 302 digits is out of range: levels are 1..=10"


# The range a table size's message names is the one checked: 0 MiB is no table, and a size
# beyond the range is refused as asked (it was capped, and the capped size named in an
# out-of-memory error). The playing engine takes 1..=4096 MiB as `mancala bestmove --tt-mb`,
# the solver 1..=1048576 (1 TiB) as `mancala bench --tt-mb`.
@pytest.mark.parametrize(
    "call, top",
    [(lambda v: mancala.Engine(tt_mb=v), 4096), (lambda v: mancala.Solver(tt_mb=v), 1 << 20)],
)
def test_table_sizes_out_of_range_name_the_range_checked(call, top):
    for value in (0, top + 1, 10**9):
        with pytest.raises(ValueError, match=rf"^tt_mb must be in 1..={top} \(MiB\), got {value}$"):
            call(value)
    call(1)


@pytest.mark.parametrize("level", [0, 11, -1, 2**70])
def test_an_opponent_level_out_of_range_is_the_engine_error_of_engine(level):
    # One exception, with one message, for one mistake, wherever the level is given.
    import numpy as np

    gymnasium = pytest.importorskip("gymnasium")
    import mancala.envs  # noqa: F401  (registers the environments)

    expected = f"^level {level} is out of range: levels are 1..=10$"
    with pytest.raises(mancala.EngineError, match=expected):
        mancala.VectorGames(opponent=level)
    with pytest.raises(mancala.EngineError, match=expected):
        gymnasium.make("mancala/Kalah-v0", opponent=level)
    with pytest.raises(mancala.EngineError, match=expected):
        gymnasium.make_vec("mancala/Kalah-v0", num_envs=2, vectorization_mode="vector_entry_point", opponent=level)
    # A NumPy integer is a level as an int is.
    if level < 2**63:
        with pytest.raises(mancala.EngineError, match=expected):
            gymnasium.make("mancala/Kalah-v0", opponent=np.int64(level))
        with pytest.raises(mancala.EngineError, match=expected):
            gymnasium.make_vec("mancala/Kalah-v0", num_envs=2, vectorization_mode="vector_entry_point",
                               opponent=np.int64(level))
    # Still a ValueError, as it was from these three.
    assert issubclass(mancala.EngineError, ValueError)
    assert issubclass(mancala.EngineError, mancala.MancalaError)


@pytest.mark.parametrize("digits", [400, 5000])
def test_an_opponent_level_too_long_to_write_is_named_by_its_size(digits):
    # As Engine(level=...) names it; 10**5000 is past Python's limit of integer string
    # conversion (4300 digits), which an f-string of the level would raise.
    gymnasium = pytest.importorskip("gymnasium")
    import mancala.envs  # noqa: F401  (registers the environments)

    expected = f"^a level of at least {digits} digits is out of range: levels are 1..=10$"
    for make in (
        lambda: gymnasium.make("mancala/Kalah-v0", opponent=10**digits),
        lambda: gymnasium.make_vec("mancala/Kalah-v0", num_envs=2, opponent=10**digits),
        lambda: mancala.grade(10**digits, [mancala.new_game("standard")]),
    ):
        with pytest.raises(mancala.EngineError, match=expected):
            make()


def test_a_numpy_opponent_level_in_range_is_taken_by_every_environment():
    import numpy as np

    gymnasium = pytest.importorskip("gymnasium")
    import mancala.envs  # noqa: F401  (registers the environments)

    env = gymnasium.make("mancala/Kalah-v0", opponent=np.int64(5))
    assert env.unwrapped.opponent == 5 and type(env.unwrapped.opponent) is int
    env.reset(seed=1)
    env.step(0)
    vec = gymnasium.make_vec("mancala/Kalah-v0", num_envs=2, opponent=np.int64(5))
    vec.reset(seed=1)
    vec.step(np.array([0, 0]))
