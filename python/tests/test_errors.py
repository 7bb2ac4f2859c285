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
        Egdb.open(bad)
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
