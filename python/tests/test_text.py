"""`mancala.text`: prompts, moves read out of free text, and grading a text player.

The phrasings below were written by hand as a language model or a person might answer; each
expected move is read off the phrase itself."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

import mancala
from mancala import text

# Kalah(6,4) from the start: South may sow any house 1..6.
START = "standard"
# Kalah(3,3) with house 1 empty: 0,1,1,7,1,0,0,8 S (South may sow houses 2 and 3).
EMPTY_HOUSE_1 = "0,1,1,7,1,0,0,8 S"

READ = [
    ("4", 4),
    ("house 4", 4),
    ("I will sow house 4.", 4),
    ("Move: 4", 4),
    ("move: 4", 4),
    ("**4**", 4),
    ("`4`", 4),
    ("My move is 4.", 4),
    ("I choose pit 4", 4),
    ("I'll play house #4 because it keeps my store safe.", 4),
    ("Let me sow the fourth house.", 4),
    ("Answer: house four", 4),
    ("Final answer: 4", 4),
    ("After thinking about houses 2, 3 and 5, my final answer is 4", 4),
    ("House 4 has 4 seeds, so sowing house 4 ends in my store.\nMove: 4", 4),
    ("I pick 6", 6),
    ("Sow pit number 1.", 1),
    ("  6\n", 6),
    ("I would go with house 2!", 2),
    ("decision -> 3", 3),
    ("I select the 5th... no wait. Move: 5", 5),
    ("play 1", 1),
    # Reasoning that names other moves before (or after) the answer in the prompt's format:
    # that answer decides, the last one when the reply corrects itself.
    (
        "Let me think step by step. If I play 1, the opponent gets 3 seeds. If I play 3, I land "
        "in my store. So I'll play 3.\nMove: 3",
        3,
    ),
    ("Considering each move:\n- Move 1: bad\n- Move 2: ok\n- Move 3: extra turn\n\nMove: 3", 3),
    ("If I sow house 1, the opponent captures. Move: 3", 3),
    ("Should I play 2? No.\nMove: 3", 3),
    ("The opponent's best move is 2, so Move: 3", 3),
    ("Analysis: the opponent's answer to 5 would be 1.\nMove: 3", 3),
    ("After that, North's best answer is 2.\nMove: 3", 3),
    ("Move: 3\n(After the opponent's move 2, I sow house 5.)", 3),
    ("Move: 4\n\nWait, actually Move: 5", 5),
    ("Move: 2\nMove: 3", 3),
    ("Move: 3. The opponent's best answer: 2", 3),
    ("Answer: 5", 5),
    ("Thinking...\n> Answer: 2", 2),
]


@pytest.mark.parametrize("reply,move", READ)
def test_a_move_is_read_from_free_text(reply, move):
    game = mancala.new_game(START)
    assert text.parse_move(game, reply) == move


def test_twenty_phrasings_at_least():
    assert len(READ) >= 20


@pytest.mark.parametrize(
    "reply,candidates",
    [
        ("4 or 5", [4, 5]),
        ("Either house 2 or house 3 works.", [2, 3]),
        ("Move: 2 or 3", [2, 3]),
        ("Reasoning first.\nMove: 4/5", [4, 5]),
    ],
)
def test_several_moves_are_refused_with_the_reason(reply, candidates):
    game = mancala.new_game(START)
    with pytest.raises(text.AmbiguousMoveError) as e:
        text.parse_move(game, reply)
    assert e.value.reason == "several"
    assert e.value.candidates == candidates
    assert "several moves" in str(e.value)


@pytest.mark.parametrize("reply", ["", "I am not sure.", "Let me think about it"])
def test_no_move_is_refused(reply):
    with pytest.raises(text.NoMoveError) as e:
        text.parse_move(mancala.new_game(START), reply)
    assert e.value.reason == "none" and e.value.reply == reply


def test_an_illegal_move_is_refused_with_the_rules_reason():
    game = mancala.Kalah("kalah(3,3)", EMPTY_HOUSE_1)
    with pytest.raises(text.IllegalReplyError) as e:
        text.parse_move(game, "Move: 1")
    assert e.value.reason == "illegal" and e.value.move == 1
    assert "empty" in str(e.value)
    with pytest.raises(text.IllegalReplyError) as e:
        text.parse_move(game, "house 9")
    assert e.value.move == 9
    # Errors are ValueErrors and MancalaErrors, as every bad input of the package.
    assert isinstance(e.value, ValueError) and isinstance(e.value, mancala.MancalaError)


def test_swap_and_other_games():
    pie = mancala.new_game("kalah(6,4)+pie_rule")
    pie.play(1)
    assert "swap" in pie.legal_moves()
    assert text.parse_move(pie, "I take the swap.") == "swap"
    assert text.parse_move(pie, "Move: swap") == "swap"
    oware = mancala.new_game("oware")
    assert text.parse_move(oware, "I sow house 3") == 3
    with pytest.raises(text.NoMoveError):
        text.parse_move(oware, "swap")
    bao = mancala.new_game("bao-la-kete")
    assert text.parse_move(bao, "I play f6> to start.") == "F6>"
    assert text.parse_move(bao, "Move: F7<") == "F7<"
    with pytest.raises(text.AmbiguousMoveError):
        text.parse_move(bao, "F6> or F7<")
    with pytest.raises(text.IllegalReplyError):
        text.parse_move(bao, "Move: B1>")


def test_a_house_named_by_its_board_label_is_read():
    # The prompt's board labels the houses S1..Sh and N1..Nh; an answer naming the mover's
    # house by its label (`Move: S3`) was read as no move.
    south = mancala.new_game("standard")
    assert text.parse_move(south, "Move: S3") == 3
    assert text.parse_move(south, "I will play s4") == 4
    assert text.parse_move(south, "Move: S3 or 3") == 3
    with pytest.raises(text.AmbiguousMoveError):
        text.parse_move(south, "Move: S3 or S4")
    north = mancala.new_game("oware")
    north.play(3)
    assert text.parse_move(north, "Answer: N2") == 2
    # A house of the other row is illegal, saying whose row it is.
    with pytest.raises(text.IllegalReplyError, match="S2 is a house of South's row, and North is to move") as e:
        text.parse_move(north, "Move: S2")
    assert e.value.move == "S2"
    togyz = mancala.new_game("togyz-kumalak")
    assert text.parse_move(togyz, "Move: S9") == 9
    # A label outside the prompt's format is not read, as before.
    with pytest.raises(text.NoMoveError):
        text.parse_move(south, "S3 looks good")


@pytest.mark.parametrize("rules", ["standard", "kalah(6,4)+pie_rule", "oware", "awari", "bao-la-kete"])
def test_the_prompt_lists_every_legal_move(rules):
    game = mancala.new_game(rules)
    game.play(game.legal_moves()[0])
    p = text.prompt(game)
    listed = re.search(r"Your legal moves: (.*)\.", p).group(1).split(", ")
    assert listed == [str(m) for m in game.legal_moves()]
    assert str(game) in p
    assert text.rules_brief(game) in p
    assert "North" in p  # the side to move after one move


def test_a_template_can_be_replaced():
    game = mancala.new_game("oware")
    assert text.prompt(game, "{game}|{side}|{moves}") == "Oware|South|1, 2, 3, 4, 5, 6"
    with pytest.raises(ValueError, match=r"unknown field \{nope\}"):
        text.prompt(game, "{nope}")
    over = mancala.Kalah("kalah(1,1)")
    over.play(1)
    over.play(1) if not over.is_over() else None
    while not over.is_over():
        over.play(over.legal_moves()[0])
    with pytest.raises(ValueError):
        text.prompt(over)


def last_listed(prompt: str) -> str:
    """A scripted text player: answers with the last move the prompt lists."""
    moves = re.search(r"Your legal moves: (.*)\.", prompt).group(1).split(", ")
    return f"Thinking... I will sow house {moves[-1]}.\nMove: {moves[-1]}"


KALAH_SET = ["0,1,1,7,1,0,0,8 S", "1,0,1,7,0,1,0,8 S", "1,0,0,8,0,1,1,7 N"]


def test_a_text_grade_equals_the_move_grade_kalah():
    games = [mancala.Kalah("kalah(3,3)", p) for p in KALAH_SET]
    moves = mancala.grade(lambda g: g.legal_moves()[-1], games)
    texts = text.grade(last_listed, [g.copy() for g in games])
    assert [m.move for m in texts.moves] == [m.move for m in moves.moves]
    assert (texts.optimal, texts.total_loss, texts.mean_loss) == (
        moves.optimal,
        moves.total_loss,
        moves.mean_loss,
    )
    assert (texts.asked, texts.illegal, texts.unreadable, texts.failed) == (3, 0, 0, 0)


def test_a_text_grade_equals_the_move_grade_awari():
    db = mancala.Database.build("awari", 6, threads=1)
    ps = mancala.generate_positions("awari", 8, seed=7, min_seeds=2, max_seeds=6)
    moves = mancala.grade(lambda g: g.legal_moves()[-1], ps, database=db)
    texts = text.grade(last_listed, ps, database=db)
    assert [m.move for m in texts.moves] == [m.move for m in moves.moves]
    assert (texts.optimal, texts.total_loss) == (moves.optimal, moves.total_loss)


def test_a_text_grade_of_abapa_equals_the_move_grade_and_keeps_the_caveat():
    db = mancala.Database.build("oware+majority=off+cycle_score=split", 6, threads=1)
    ps = mancala.generate_positions("oware", 8, seed=7, min_seeds=2, max_seeds=6)
    moves = mancala.grade(lambda g: g.legal_moves()[-1], ps, database=db)
    texts = text.grade(last_listed, ps, database=db)
    assert [m.move for m in texts.moves] == [m.move for m in moves.moves]
    assert (texts.optimal, texts.total_loss) == (moves.optimal, moves.total_loss)
    assert moves.caveat is not None and texts.caveat == moves.caveat
    assert "not of oware" in moves.caveat


def test_retries_and_counts():
    replies = iter(["hmm", "Move: 1", "Move: 3"])
    player = text.TextPlayer(lambda p: next(replies), retries=2)
    game = mancala.Kalah("kalah(3,3)", EMPTY_HOUSE_1)
    assert player(game) == 3
    assert (player.asked, player.unreadable, player.illegal, player.failed) == (3, 1, 1, 0)
    stubborn = text.TextPlayer(lambda p: "no idea", retries=1)
    with pytest.raises(text.NoMoveError):
        stubborn(game)
    assert (stubborn.asked, stubborn.unreadable, stubborn.failed) == (2, 2, 1)
    # A retry's prompt says what was wrong.
    seen = []
    text.TextPlayer(lambda p: seen.append(p) or ("x" if len(seen) == 1 else "2"), retries=1)(game)
    assert "could not be played: the reply names no move" in seen[1]
    # In a grade, a position with no readable move is a failure scored as the worst move.
    r = text.grade(lambda p: "pass", [mancala.Kalah("kalah(3,3)", p) for p in KALAH_SET])
    assert (r.failed, r.unreadable, len(r.failures)) == (3, 3, 3)
    with pytest.raises(ValueError):
        text.TextPlayer(lambda p: "1", retries=-1)
    with pytest.raises(ValueError):
        text.TextPlayer(lambda p: "1", retries=True)


def test_a_program_as_text_player(tmp_path):
    script = tmp_path / "player.py"
    script.write_text(
        "import re, sys\n"
        "moves = re.search(r'Your legal moves: (.*)\\.', sys.stdin.read()).group(1).split(', ')\n"
        "print('Move:', moves[-1])\n"
    )
    player = text.TextPlayer(text.program([sys.executable, str(script)]))
    assert player(mancala.new_game("oware")) == 6
    failing = text.program([sys.executable, "-c", "import sys; sys.exit(3)"])
    with pytest.raises(RuntimeError, match="status 3"):
        failing("prompt")
    with pytest.raises(TypeError):
        text.program("python3 player.py")


def _cli(*args, stdin=None):
    import subprocess

    return subprocess.run(
        [sys.executable, "-m", "mancala.text", *args], input=stdin, capture_output=True, text=True, timeout=300
    )


def test_the_command_line_prompts_parses_and_refuses():
    """`python -m mancala.text`: the prompt of a position after moves equals `text.prompt`;
    `parse` prints the move read (argument or standard input) or names why none was (exit 1);
    a bad rule set is one line, exit 2."""
    game = mancala.new_game("oware")
    game.play(3)
    done = _cli("prompt", "--rules", "oware", "--moves", "3")
    assert done.returncode == 0 and done.stdout == text.prompt(game) + "\n"
    assert _cli("parse", "--rules", "oware", "I will sow house 4.").stdout == "4\n"
    assert _cli("parse", stdin="Thinking...\nMove: 5\n").stdout == "5\n"
    illegal = _cli("parse", "Move: 9")
    assert illegal.returncode == 1 and illegal.stderr.startswith("mancala.text: illegal: ")
    none = _cli("parse", "I pass")
    assert none.returncode == 1 and none.stderr.startswith("mancala.text: no move: ")
    bad = _cli("parse", "--rules", "nonsense", "4")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_the_command_line_grades_a_program_as_the_library_does(tmp_path):
    """`python -m mancala.text grade --program …` on a generated set reports what
    `text.grade` reports for the same replies in process."""
    import json

    script = tmp_path / "player.py"
    script.write_text(
        "import re, sys\n"
        "moves = re.search(r'Your legal moves: (.*)\\.', sys.stdin.read()).group(1).split(', ')\n"
        "print('Thinking... I will sow house', moves[-1] + '.')\n"
        "print('Move:', moves[-1])\n"
    )
    done = _cli("grade", "--program", f"{sys.executable} {script}", "--rules", "kalah(3,3)",
                "--generate", "4", "--seed", "7", "--json")
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    expected = text.grade(last_listed, mancala.generate_positions("kalah(3,3)", 4, seed=7), seed=7)
    assert got["positions"] == expected.positions == 4
    assert (got["optimal"], got["total_loss"], got["asked"], got["illegal"], got["unreadable"]) == (
        expected.optimal,
        expected.total_loss,
        expected.asked,
        expected.illegal,
        expected.unreadable,
    )
    assert got["player"] == f"{sys.executable} {script}"
    refused = _cli("grade", "--program", "x", "--rules", "standard")
    assert refused.returncode == 2 and "--set FILE or --generate N" in refused.stderr
    # An Abapa set: the report carries the caveat of the neighbour's values.
    abapa = _cli("grade", "--program", f"{sys.executable} {script}", "--rules", "oware",
                 "--generate", "3", "--seed", "7", "--json")
    assert abapa.returncode == 0, abapa.stderr
    got = json.loads(abapa.stdout)
    assert got["positions"] == 3 and "not of oware" in got["caveat"]


def test_a_program_that_cannot_run_is_said_and_counted(tmp_path):
    """A program that is not there is refused before any work; one that fails on every
    prompt has every position counted as failed."""
    missing = _cli("grade", "--program", str(tmp_path / "no-such-player"), "--rules", "kalah(3,3)",
                   "--generate", "2")
    assert missing.returncode == 2 and "cannot run" in missing.stderr
    r = text.grade(text.program(["false"]), mancala.generate_positions("kalah(3,3)", 3, seed=7))
    assert r.failed == 3 == len(r.failures)


# A reply whose bytes are not UTF-8: 0xff cannot start a UTF-8 sequence, and it is the
# byte at offset 6 (after the six bytes of `Move: `).
NOT_UTF8 = b"Move: \xff\xfe 2\n"


def test_a_program_reply_that_is_not_utf8_is_unreadable(tmp_path):
    """A program printing bytes that are not UTF-8 had its position counted as failed with
    `raised UnicodeDecodeError`, and not as an unreadable reply."""
    script = tmp_path / "bad_utf8.py"
    script.write_text(f"import sys\nsys.stdin.read()\nsys.stdout.buffer.write({NOT_UTF8!r})\n")
    reply = text.program([sys.executable, str(script)])
    with pytest.raises(text.NoMoveError, match=r"^the reply is not UTF-8 \(byte 0xff at 6\)$") as e:
        reply("prompt")
    assert e.value.reason == "none"
    r = text.grade(reply, mancala.generate_positions("kalah(3,3)", 3, seed=7), retries=1)
    # Three positions, each asked twice (one retry), every reply unreadable.
    assert (r.failed, r.asked, r.unreadable, r.illegal) == (3, 6, 6, 0)
    assert all("the reply is not UTF-8 (byte 0xff at 6)" in m.verdict for m in r.failures)
    assert not any("UnicodeDecodeError" in m.verdict for m in r.failures)
    # The command line counts it alike.
    done = _cli("grade", "--program", f"{sys.executable} {script}", "--rules", "kalah(3,3)",
                "--generate", "3", "--seed", "7", "--json")
    assert done.returncode == 0, done.stderr
    import json

    got = json.loads(done.stdout)
    assert (got["failed"], got["asked"], got["unreadable"]) == (3, 3, 3)
    # Standard error that is not UTF-8 is not read at all: the reply is.
    noisy = tmp_path / "noisy.py"
    noisy.write_text("import sys\nsys.stdin.read()\nsys.stderr.buffer.write(b'\\xff')\nprint('Move: 2')\n")
    assert text.program([sys.executable, str(noisy)])("prompt") == "Move: 2\n"
    crlf = tmp_path / "crlf.py"
    crlf.write_text("import sys\nsys.stdin.read()\nsys.stdout.buffer.write(b'Move: 2, 3\\r\\nDone.\\r\\n')\n")
    assert text.program([sys.executable, str(crlf)])("prompt") == "Move: 2, 3\nDone.\n"


def test_the_command_line_parse_refuses_a_reply_that_is_not_utf8(tmp_path):
    import subprocess

    def parse(*args, stdin=b""):
        return subprocess.run([sys.executable, "-m", "mancala.text", "parse", "--rules", "kalah(3,3)", *args],
                              input=stdin, capture_output=True, timeout=300)

    for done in (parse(stdin=NOT_UTF8), parse("-", stdin=NOT_UTF8), parse(NOT_UTF8.rstrip(b"\n"))):
        assert done.returncode == 1 and done.stdout == b""
        assert done.stderr == b"mancala.text: no move: the reply is not UTF-8 (byte 0xff at 6)\n"
    assert parse(stdin="Move: 2 \u2014 a safe house\n".encode()).stdout == b"2\n"
    # Read as bytes, a reply's newlines are still those of text mode: `\r\n` ends a line.
    crlf = parse(stdin=b"Move: 2, 3\r\nThat is all.\r\n")
    assert crlf.returncode == 1 and crlf.stderr.startswith(b"mancala.text: ambiguous: ")
    template = tmp_path / "template.txt"
    template.write_bytes(b"{board}\xff")
    done = _cli("prompt", "--template", str(template))
    assert done.returncode == 2 and done.stderr == f"mancala.text: --template {template}: not UTF-8 (byte 0xff at 7)\n"


def test_a_reply_holding_a_lone_surrogate_names_no_move():
    # Text decoded with errors="surrogateescape" from bytes that are not UTF-8 holds
    # U+DCFF for the byte 0xff: it is no text, and names no move (it was read as 2).
    game = mancala.new_game("kalah(3,3)")
    with pytest.raises(text.NoMoveError, match=r"^the reply is not UTF-8 \(byte 0xff at character 6\)$"):
        text.parse_move(game, NOT_UTF8.decode("utf-8", "surrogateescape"))
    player = text.TextPlayer(lambda prompt: NOT_UTF8.decode("utf-8", "surrogateescape"))
    with pytest.raises(text.NoMoveError):
        player(game)
    assert (player.asked, player.unreadable, player.failed) == (1, 1, 1)


TYPO = "{board}\n{moves}\n{anwser}"


@pytest.mark.parametrize("bad,error", [(TYPO, ValueError), ("{0}", ValueError), ("{board", ValueError),
                                       ("{board.x}", ValueError), (5, TypeError),
                                       ("{board:{rules}}", ValueError), ("{board!s:{answer}}", ValueError),
                                       ("{board:x<99999999999}", ValueError)])
def test_a_bad_template_is_refused_before_any_player_is_asked(bad, error):
    """A template with a field not among text.FIELDS, bad braces, or not a str is refused
    by prompt, TextPlayer and grade before the player is called once."""
    game = mancala.new_game("kalah(3,3)")
    asked = []
    with pytest.raises(error) as e:
        text.prompt(game, bad)
    if bad == TYPO:
        assert "{anwser}" in str(e.value)
    with pytest.raises(error):
        text.TextPlayer(lambda p: asked.append(p) or "1", template=bad)
    with pytest.raises(error):
        text.grade(lambda p: asked.append(p) or "1", [mancala.Kalah("kalah(3,3)", KALAH_SET[0])], template=bad)
    assert asked == []
    # Literal braces and a str's format specs are fine.
    assert text.prompt(game, "{{x}} {side:>6}|{moves!s}") == "{x}  South|1, 2, 3"


def test_the_command_line_refuses_a_bad_template_in_one_line(tmp_path):
    typo = tmp_path / "typo.tpl"
    typo.write_text(TYPO)
    for args in (["prompt", "--rules", "kalah(3,3)"],
                 ["grade", "--program", f"{sys.executable} -c pass", "--rules", "kalah(3,3)", "--generate", "2"]):
        done = _cli(*args, "--template", str(typo))
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and "{anwser}" in done.stderr, done.stderr


def test_the_command_line_grade_gives_a_move_the_time_of_time(tmp_path):
    """`--time` is the time a move may take in the grade: a program slower than
    mancala.grade's 1 s (+ 0.5 s grace) is not failed under --time 30, nor under the
    default (text.TEXT_TIME); `--time 0` is refused as text.grade(time=0) is."""
    import json

    slow = tmp_path / "slow.py"
    slow.write_text(
        "import re, sys, time\n"
        "moves = re.search(r'Your legal moves: (.*)\\.', sys.stdin.read()).group(1).split(', ')\n"
        "time.sleep(1.6)\n"
        "print('Move:', moves[-1])\n"
    )
    base = ["grade", "--program", f"{sys.executable} {slow}", "--rules", "kalah(3,3)", "--generate", "1",
            "--seed", "7", "--json"]
    done = _cli(*base, "--time", "30")
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert (got["failed"], got["asked"]) == (0, 1)
    assert json.loads(_cli(*base).stdout)["failed"] == 0
    assert text.TEXT_TIME == 60.0
    for t in ("0", "-1", "nan", "inf"):
        refused = _cli(*base, "--time", t)
        assert refused.returncode == 2 and refused.stdout == "" and refused.stderr.count("\n") == 1
        assert "--time" in refused.stderr
    with pytest.raises(ValueError):
        text.grade(last_listed, [mancala.Kalah("kalah(3,3)", KALAH_SET[0])], time=0)


def test_the_command_line_grade_refuses_a_negative_infinite_time_in_one_line():
    """`--time -inf`, `--time -1e999` and `--time=-inf` are refused as `--time -1` is: one
    line naming --time, exit status 2, no usage text (argparse alone would take a value
    starting with `-` that is not a plain negative number for an option). The program is
    never run: `false` would fail every position if it were."""
    base = ["grade", "--program", "false", "--rules", "kalah(3,3)", "--generate", "1"]
    for args in (["--time", "-inf"], ["--time", "-1e999"], ["--time=-inf"], ["--time", "-Infinity"]):
        refused = _cli(*base, *args)
        assert refused.returncode == 2 and refused.stdout == "", refused.stderr
        assert refused.stderr.startswith("mancala.text: --time -inf: a move needs at least 0.001 s"), refused.stderr
        assert refused.stderr.count("\n") == 1 and "usage" not in refused.stderr


# Replies a new user's model gave, each with the outcome the documented reading gives:
# a minus sign makes a negative number, never a house (illegal: houses are numbered from
# 1); a move the reply says it does not play names no move; moves joined by `or`, `/` or
# `and` to a marked answer are several; a trailing period after a Bao la Kete move ends the
# sentence; number words count in a marked answer and beside a house word, the bare tier
# reads digits only; a marked number of any length is read (and refused as no house).
PIE = "kalah(6,4)+pie_rule"
MISREAD = [
    (START, "Move: -1", ("illegal", -1)),
    (START, "-4", ("illegal", -4)),
    (START, "house -4", ("illegal", -4)),
    (START, "Move \u22123", ("illegal", -3)),
    (PIE, "don't swap", ("none", None)),
    (PIE, "no swap", ("none", None)),
    (PIE, "I won't swap", ("none", None)),
    (PIE, "Do not swap.", ("none", None)),
    (PIE, "I don't want to swap", ("none", None)),
    (PIE, "I don\u2019t swap. Move: 3", ("move", 3)),
    (START, "Move: 4 or 5", ("several", [4, 5])),
    (START, "I play 4 or 5", ("several", [4, 5])),
    (START, "Move: 4/5", ("several", [4, 5])),
    (START, "Move: house 4 or house 5", ("several", [4, 5])),
    (START, "Move: not 2", ("none", None)),
    (START, "Do not play 2. Move: 3", ("move", 3)),
    ("bao-la-kete", "Move: F7<.", ("move", "F7<")),
    ("bao-la-kete", "I play F6>.", ("move", "F6>")),
    ("bao-la-kete", "Move: B1>.", ("illegal", "B1>")),
    (START, "four", ("none", None)),
    (START, "Move: four", ("move", 4)),
    (START, "The 4th house", ("move", 4)),
    (START, "the fourth house", ("move", 4)),
    (START, "Move: 99999999999999999999999", ("illegal", 99999999999999999999999)),
    (START, "3-4", ("none", None)),  # a range, not a house's number
    (START, "Move: 4, because it is safe", ("move", 4)),
    (START, "Move: 4, 2 seeds land in my store", ("move", 4)),
    (START, "I play 4 and 5.", ("several", [4, 5])),
    (START, "Move: 4, 5", ("several", [4, 5])),
    (START, "Move: 4, 5\nThat is all.", ("several", [4, 5])),
]


def reply_error(game, reply, outcome):
    """Checks what `parse_move` makes of `reply` in `game` against `outcome` (`("move",
    house)`, or a refusal's reason and its move or candidates); returns the refusal, if
    any, for the caller's checks of its words."""
    kind, value = outcome
    if kind == "move":
        assert text.parse_move(game, reply) == value
        return None
    with pytest.raises(text.ReplyError) as e:
        text.parse_move(game, reply)
    assert e.value.reason == kind, str(e.value)
    if kind == "illegal":
        assert e.value.move == value
    if kind == "several":
        assert e.value.candidates == value
    return e.value


@pytest.mark.parametrize("rules,reply,outcome", MISREAD)
def test_replies_once_misread(rules, reply, outcome):
    game = mancala.new_game(rules)
    if rules == PIE:
        game.play(1)
    error = reply_error(game, reply, outcome)
    if error is not None and error.reason == "illegal" and isinstance(error.move, int):
        assert "numbered 1 to 6" in str(error)


# A number followed by what makes it another number is not the house its first digits or
# word name: a multiplier word (`one hundred` is 100), a digit group (`1,000` is 1000), a
# decimal (`3.5`), a range (`7-9`). A whole number is read and refused as no house; a
# decimal or a range names no move. Read off the replies themselves, for every game with
# numbered houses (Togyz Kumalak 9 houses, Kalah and Oware 6).
NOT_A_HOUSE = [
    ("Move: one hundred", ("illegal", 100)),
    ("Move: five hundred", ("illegal", 500)),
    ("Move: nine thousand", ("illegal", 9000)),
    ("Move: 4 hundred", ("illegal", 400)),
    ("Move: two thousand five hundred", ("illegal", 2000)),
    ("Move: 1\u202f000", ("illegal", 1000)),
    ("Move: 1_000", ("illegal", 1000)),
    ("Move: 1,000", ("illegal", 1000)),
    ("house 1\u00a0000", ("illegal", 1000)),
    ("I'll play one hundred.", ("illegal", 100)),
    ("Move: 3.5", ("none", None)),
    ("house 3.14", ("none", None)),
    ("Move: 2.0", ("none", None)),
    ("I will sow house 3.5 now", ("none", None)),
    ("Move: 7-9", ("none", None)),
    ("Move: 7\u20139", ("none", None)),
    ("Move: 3 to 5", ("none", None)),
    ("Move: one-two", ("none", None)),
    # The last answer in the prompt's format decides, not a house the reasoning names.
    ("Move: 3.5\nI looked at house 2 too.", ("none", None)),
    ("Move: 2\nWait, actually Move: 2.5", ("none", None)),
    ("Move: 4 or 3.5", ("several", [4, "3.5"])),
    # Alone, such a number is skipped, as a year is; a house's number beside it is read.
    ("3.5", ("none", None)),
    ("1\u202f000", ("none", None)),
    ("7-9", ("none", None)),
    ("Of the 1\u00a0000 lines, 2.5 percent start with 2", ("move", 2)),
    # What is not a continued number reads as before.
    ("Move: 3.", ("move", 3)),
    ("Move: 3, because it is safe", ("move", 3)),
    ("Move: 3 - it keeps my store safe", ("move", 3)),
    # A dash with spaces around it starts a remark, not a range, whatever follows it; a
    # plain space does not join digits into one number.
    ("Move: 6 – 4 seeds land in my store", ("move", 6)),
    ("Move: 6 - 4 seeds land in my store", ("move", 6)),
    ("**Move:** 3 – 4 seeds land in my store", ("move", 3)),
    ("Move: 3 \u2014 0 risk", ("move", 3)),
    ("Move: 2 \u2014 2-for-1 trade", ("move", 2)),
    ("Move: 4 \u2212 one seed lands in my store", ("move", 4)),
    ("I choose house 2 – 3 seeds captured.", ("move", 2)),
    ("Move: 2 100 times better", ("move", 2)),
    ("Move: 2\n100 positions considered", ("move", 2)),
    ("the third house", ("move", 3)),
]


@pytest.mark.parametrize("rules,houses", [("togyz-kumalak", 9), ("standard", 6), ("oware", 6)])
@pytest.mark.parametrize("reply,outcome", NOT_A_HOUSE)
def test_a_continued_number_is_not_the_house_it_starts_with(rules, houses, reply, outcome):
    error = reply_error(mancala.new_game(rules), reply, outcome)
    if error is not None and error.reason == "illegal":
        assert str(error).endswith(f"there is no house {error.move}: the houses are numbered 1 to {houses}")
    if error is not None and error.reason == "none":
        assert str(error).startswith("the reply names no move")


def test_a_number_too_long_to_write_out_is_illegal_in_one_line():
    # 5000 nines (beyond the 4300 digits Python writes out) raised a plain ValueError from
    # int(); a number of 5000 digits is refused as no house, by its size.
    game = mancala.new_game("standard")
    for reply in ("Move: " + "9" * 5000, "house " + "9" * 5000, "Move: 9" + ",999" * 1667, "Move: one" + " thousand" * 1700):
        with pytest.raises(text.IllegalReplyError) as e:
            text.parse_move(game, reply)
        message = str(e.value)
        assert len(message) < 200 and "\n" not in message, message
        assert "no house has a number of at least" in message and message.endswith("numbered 1 to 6"), message
    with pytest.raises(text.AmbiguousMoveError, match=r"^the reply names several moves \(a number of at least \d+ digits, 3\)$"):
        text.parse_move(game, "Move: " + "9" * 5000 + " or 3")


# A Bao la Kete pit is F1..F8 or B1..B8 (docs/notation/bao-la-kete.md: one digit 1-8); a
# marked answer naming a pit outside them was "no move" while a house out of range in the
# other games is illegal, naming the houses. From the start South may play F6>, F6<, F7>, F7<.
BAO_NO_PIT = [
    ("Move: F9>", "F9>", "F9"),
    ("Move: F9>.", "F9>", "F9"),
    ("I play b0<", "B0<", "B0"),
    ("Answer: F12", "F12", "F12"),
]


@pytest.mark.parametrize("reply,move,pit", BAO_NO_PIT)
def test_a_bao_pit_out_of_the_rows_is_illegal_naming_the_pits(reply, move, pit):
    game = mancala.new_game("bao-la-kete")
    with pytest.raises(text.IllegalReplyError) as e:
        text.parse_move(game, reply)
    assert e.value.reason == "illegal" and e.value.move == move
    assert str(e.value) == (
        f"the reply names {move}, which is illegal: there is no pit {pit}: the pits are F1 to F8 and B1 to B8"
    )
    # With a legal move beside it, the reply names several; alone in prose, none (as before).
    with pytest.raises(text.AmbiguousMoveError):
        text.parse_move(game, f"Move: {move} or F6>")
    with pytest.raises(text.NoMoveError):
        text.parse_move(game, f"{pit} looks strong")


# What each rule set's prompt must say and must not say, read off docs/rules/kalah.md
# (rule 3, the end rule and the options table), docs/rules/oware.md (OW-4.2, OW-6, OW-7)
# and docs/rules/togyz-kumalak.md (TK-4, TK-6, TK-7).
BRIEFS = [
    ("standard", ["nothing is captured", "adds the seeds left in his houses to his store"],
     ["even when the opposite house is empty", "swap", "count for nobody"]),
    ("kalah(6,4)+empty_capture", ["even when the opposite house is empty"], ["nothing is captured"]),
    ("kalah(6,4)+discard_remaining", ["the seeds left in the houses count for nobody"],
     ["adds the seeds left"]),
    ("kalah(6,4)+end_when_no_move", ["ends when the player to move has no seed"],
     ["When either player's row is empty"]),
    ("manchester", ["North may once answer swap", "except after the very first move"], []),
    ("oware", ["allowed but captures nothing", "you must sow seeds into it",
               "more than half the seeds (or both exactly half); the seeds left count for nobody",
               "occurs for the third time", "each player takes the seeds in his row"],
     ["shared equally", "moves, each player"]),
    ("awari", ["not allowed unless every move of yours does so", "does not end when a player has "
               "captured more than half", "the seeds left are shared equally"],
     ["captures nothing", "you must sow seeds into it"]),
    ("oware-openspiel", ["each player adds the seeds in his row to his store", "When a position is repeated",
                         "after 1000 moves"], ["third time"]),
    ("oware+grand_slam=all", ["allowed and captures them all"], ["captures nothing"]),
    ("oware+grand_slam=forbidden", ["(a grand slam) is not allowed"], ["captures nothing"]),
    ("oware+grand_slam=leave_last", ["captures all but his house 1"], ["captures nothing"]),
    ("oware+repetition=off", [], ["When a position"]),
    ("togyz-kumalak", ["tuzdyk", "(not his last house)", "more than half the kumalaks"], []),
    ("togyz-ludii", ["tuzdyk", "having just moved"], ["(not his last house)", "more than half"]),
    ("bestemshe", ["more than half the kumalaks"], ["tuzdyk"]),
]


@pytest.mark.parametrize("rules,says,never", BRIEFS)
def test_the_prompt_states_the_rules_of_the_game_s_own_rule_set(rules, says, never):
    game = mancala.new_game(rules)
    brief = text.rules_brief(game)
    p = text.prompt(game)
    assert brief in p
    for phrase in says:
        assert phrase in brief, phrase
    for phrase in never:
        assert phrase not in brief, phrase


def test_rules_holds_the_default_rule_sets_briefs():
    for rules in ("standard", "oware", "bao-la-kete", "togyz-kumalak"):
        game = mancala.new_game(rules)
        assert text.RULES[game.kind] == text.rules_brief(game)


def test_no_retry_starts_once_the_moves_time_is_over(monkeypatch):
    """A player whose replies take 0.4 s each (on a clock of the test's own, so that the
    machine's load does not matter) and name no move, given 1 s a move and five retries, is
    asked three times: at 0, 0.4 and 0.8 s; at 1.2 s the move's time is over. The same
    through `grade`, which gives the player the grade's `time`."""
    clock = [0.0]
    monkeypatch.setattr(text, "_monotonic", lambda: clock[0])

    def slow(prompt_text):
        clock[0] += 0.4
        return "I am still thinking."

    player = text.TextPlayer(slow, retries=5, time=1.0)
    with pytest.raises(text.NoMoveError):
        player(mancala.new_game(START))
    assert (player.asked, player.unreadable, player.failed) == (3, 3, 1)

    clock[0] = 0.0
    report = text.grade(slow, [mancala.new_game("kalah(3,3)")], retries=5, time=1.0)
    assert (report.asked, report.failed) == (3, 1)
    # Without a limit every retry is asked.
    unlimited = text.TextPlayer(slow, retries=5)
    with pytest.raises(text.NoMoveError):
        unlimited(mancala.new_game(START))
    assert unlimited.asked == 6
    with pytest.raises(ValueError, match="time"):
        text.TextPlayer(slow, time=0)


@pytest.mark.parametrize("not_a_game", [None, "standard", 5, mancala.Kalah])
def test_a_value_that_is_not_a_game_is_a_type_error(not_a_game):
    for call in (
        lambda: text.prompt(not_a_game),
        lambda: text.parse_move(not_a_game, "Move: 3"),
        lambda: text.rules_brief(not_a_game),
        lambda: text.TextPlayer(lambda p: "Move: 3")(not_a_game),
    ):
        with pytest.raises(TypeError, match=r"game must be a mancala game .*not "):
            call()


@pytest.mark.parametrize(
    "timeout, error",
    [(-1, ValueError), (0, ValueError), (float("nan"), ValueError), (float("inf"), ValueError),
     ("5", TypeError), (None, TypeError), (True, TypeError)],
)
def test_a_program_s_bad_timeout_is_refused_when_it_is_made(timeout, error):
    with pytest.raises(error, match="timeout"):
        text.program([sys.executable, "-c", "print('Move: 1')"], timeout=timeout)


@pytest.mark.parametrize(
    "rules", ["kalah(1,3)", "oware(1,3)", "awari(1,2)", "togyz-kumalak(1,3)", "bestemshe(1,3)"]
)
def test_a_row_of_one_house_is_said_as_one_house(rules):
    brief = text.rules_brief(mancala.new_game(rules))
    assert "(house 1)" in brief
    assert "1 to 1" not in brief and "row of houses" not in brief
    # A reply naming a house past the row says which house there is.
    with pytest.raises(text.IllegalReplyError, match="the only house is house 1"):
        text.parse_move(mancala.new_game(rules), "house 2")


def test_the_command_line_stops_quietly_when_its_reader_goes_away():
    # The read end of standard output is closed before the command writes: its write fails
    # with a broken pipe, which ends it quietly with 141 (128 + SIGPIPE), as `mancala`.
    import os
    import subprocess

    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mancala.text", "prompt", "--rules", "togyz-kumalak"],
            stdout=write, stderr=subprocess.PIPE, text=True, timeout=300,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, "")


def test_a_reply_over_the_cap_is_unreadable_and_not_read(tmp_path):
    """A program answering a reply of megabytes was read whole and parsed (about 0.4 s a
    megabyte, past any time budget); a reply over text.MAX_REPLY_BYTES is now an unreadable
    reply, the program stopped once the cap is passed."""
    cap = text.MAX_REPLY_BYTES
    assert cap == 65_536
    # Three megabytes (well past the cap) that name house 1 at the start.
    huge = tmp_path / "huge.py"
    huge.write_text("import sys\nsys.stdin.read()\nsys.stdout.write('Move: 1 ' + 'x' * 3_000_000)\n")
    reply = text.program([sys.executable, str(huge)])
    with pytest.raises(text.NoMoveError, match=r"^the reply is longer than 65,536 bytes") as e:
        reply("prompt")
    assert e.value.reason == "none" and len(e.value.reply) <= 200
    r = text.grade(reply, mancala.generate_positions("kalah(3,3)", 2, seed=7), retries=1)
    assert (r.failed, r.asked, r.unreadable, r.illegal) == (2, 4, 4, 0)
    assert all("longer than 65,536 bytes" in m.verdict for m in r.failures)
    # A program that never stops writing is stopped at the cap, not at its time.
    endless = tmp_path / "endless.py"
    endless.write_text("import sys\nsys.stdin.read()\nwhile True:\n    sys.stdout.write('x' * 4096)\n")
    with pytest.raises(text.NoMoveError, match="longer than 65,536 bytes"):
        text.program([sys.executable, str(endless)], timeout=600)("prompt")
    # A reply of exactly the cap is read.
    exact = tmp_path / "exact.py"
    exact.write_text(f"import sys\nsys.stdin.read()\nsys.stdout.write('Move: 2' + ' ' * {cap - 7})\n")
    assert text.TextPlayer(text.program([sys.executable, str(exact)]))(mancala.new_game("kalah(3,3)")) == 2
    # A function's reply is held to the same cap, counted in UTF-8 bytes.
    game = mancala.new_game("kalah(3,3)")
    for long in ("Move: 1 " + "x" * cap, "Move: 1 " + "é" * (cap // 2)):
        player = text.TextPlayer(lambda p, long=long: long)
        with pytest.raises(text.NoMoveError, match="longer than 65,536 bytes"):
            player(game)
        assert (player.unreadable, player.failed) == (1, 1)
    assert text.TextPlayer(lambda p: "Move: 1 " + "x" * (cap - 8))(game) == 1


def test_runs_of_whitespace_read_as_one():
    """Runs of whitespace are read as one (a newline when the run holds one), which keeps
    the reading linear in the reply's length: `move` then thousands of spaces took seconds
    (cubic in the run), and 64 KiB of them hours."""
    game = mancala.new_game("standard")
    assert text.parse_move(game, "Move:" + " " * 5000 + "4") == 4
    assert text.parse_move(game, "I will\n \n\n sow house \t  2.") == 2
    assert text.parse_move(game, "Answer: 3\n\n\n\nAnswer:    5") == 5
    with pytest.raises(text.NoMoveError):
        text.parse_move(game, "move" + " " * 20_000 + "x")
    with pytest.raises(text.AmbiguousMoveError):
        text.parse_move(game, "Move: 1   or    2")


# A house's number is written with the digits 0-9, as the `mancala` command reads a move
# (`malformed move` for any other): the other decimal digits Python's `int()` and
# `str.isdigit` take, Arabic-Indic ٣ (U+0663) and full-width ３ (U+FF13), name no house. They
# were read as house 3.
@pytest.mark.parametrize("three", ["\u0663", "\uff13"])
def test_a_house_number_is_read_in_the_digits_0_to_9_only(three):
    game = mancala.new_game("standard")
    said = "the reply names no move: {} is a number in digits other than 0-9, not a house's number"
    for reply, token in [
        (f"Move: {three}", three),
        (f"I will sow house {three}.", three),
        (f"house {three}", three),
        (f"Move: S{three}", f"S{three}"),
        (f"Move: 1{three}", f"1{three}"),
        (three, three),
        (f"I looked at house 2.\nMove: {three}", three),
    ]:
        with pytest.raises(text.NoMoveError) as e:
            text.parse_move(game, reply)
        assert str(e.value) == said.format(token), reply
    # Beside a house's number in the digits 0-9, such a number is skipped, as a year is.
    assert text.parse_move(game, f"{three} seeds, so 2") == 2
    # A Bao la Kete pit is written with them too (F1..F8): F٦> is no pit.
    with pytest.raises(text.IllegalReplyError, match="there is no pit F"):
        text.parse_move(mancala.new_game("bao-la-kete"), f"Move: F{chr(ord(three) + 3)}>")
    # The command line: a reply, and a move of --moves, as the `mancala` command reads them.
    done = _cli("parse", f"Move: {three}")
    assert (done.returncode, done.stderr) == (1, f"mancala.text: no move: {said.format(three)}\n")
    done = _cli("prompt", "--moves", three)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert f"malformed move `{three}`" in done.stderr


def test_the_command_line_parse_reads_standard_input_to_the_cap():
    """`parse` read its standard input whole, however long; it reads one byte past
    text.MAX_REPLY_BYTES at most, and a longer reply is refused in one line as
    text.TextPlayer refuses it (no move, exit 1), without waiting for the input's end."""
    import subprocess

    cap = text.MAX_REPLY_BYTES
    message = "mancala.text: no move: the reply is longer than 65,536 bytes, the most a reply is read to: not read\n"
    proc = subprocess.Popen(
        [sys.executable, "-m", "mancala.text", "parse", "--rules", "kalah(3,3)"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdin is not None
        proc.stdin.write(b"Move: 2 " + b"x" * cap)
        proc.stdin.flush()
        # The input is left open: the command answers from the bytes it has read.
        status = proc.wait(timeout=120)
    finally:
        proc.kill()
        out, err = proc.communicate()
    assert (status, out, err.decode()) == (1, b"", message)
    # The same cap for a reply given as the argument (its size known); a reply of the cap
    # is read.
    done = _cli("parse", "--rules", "kalah(3,3)", "Move: 2 " + "x" * cap)
    assert (done.returncode, done.stderr) == (1, message.replace("to: not", "to (it is 65,544 bytes): not"))
    assert _cli("parse", "--rules", "kalah(3,3)", stdin="Move: 2" + " " * (cap - 7)).stdout == "2\n"
    assert _cli("parse", "--rules", "kalah(3,3)", "Move: 2" + " " * (cap - 7)).stdout == "2\n"


def test_the_command_line_parse_without_standard_input():
    """`parse` with its standard input closed (`<&-`: Python's sys.stdin is None) ended in
    a traceback (AttributeError); it says in one line that there is no reply, exit 1."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "mancala.text", "parse", "--rules", "kalah(4,3)"],
        capture_output=True, text=True, timeout=300,
        # The child's standard input closed before Python starts.
        preexec_fn=lambda: os.close(0),
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "mancala.text: no move: standard input is closed: there is no reply to read\n"


def test_the_command_line_parse_with_unreadable_standard_input(tmp_path: Path) -> None:
    """`parse` whose standard input cannot be read (a file opened for writing only: the
    read fails with EBADF) says so in one line in the `mancala` command's words, `reading
    standard input: Bad file descriptor (os error 9)`, exit 1 (it said `no move: standard
    input cannot be read (Bad file descriptor)`, as if the reply were at fault)."""
    import errno
    import subprocess

    with open(tmp_path / "write-only", "wb") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "mancala.text", "parse", "--rules", "kalah(4,3)"],
            stdin=stdin, capture_output=True, text=True, timeout=300,
        )
    reason = f"{os.strerror(errno.EBADF)} (os error {errno.EBADF})"
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"mancala.text: reading standard input: {reason}\n"


def test_a_reply_over_the_cap_is_said_once():
    """The refusal of a reply over the cap said its size twice when only "more than the cap"
    was known (`longer than 65,536 bytes (more than 65,536 bytes; ...)`)."""
    game = mancala.new_game("kalah(3,3)")
    cap = text.MAX_REPLY_BYTES
    with pytest.raises(text.NoMoveError) as e:
        text.TextPlayer(lambda p: "x" * (cap + 1))(game)
    assert str(e.value) == (
        "the reply is longer than 65,536 bytes, the most a reply is read to (it is at least 65,537 bytes): not read"
    )
    with pytest.raises(text.NoMoveError) as e:
        text.TextPlayer(lambda p: "é" * (cap // 2 + 1))(game)
    assert str(e.value).endswith("read to (it is 65,538 bytes): not read")
    assert str(e.value).count("65,536") == 1


# A number joined to a digit by a mark outside ASCII: the Arabic decimal separator ٫
# (U+066B), the Arabic thousands separator ٬ (U+066C), a middle dot · (U+00B7), a
# right single quote (`1’000`) or a full-width comma. `Move: 2٫5` was read as house 2.
@pytest.mark.parametrize(
    "number,kind",
    [
        ("2\u066b5", "a decimal"),
        ("3\u066b0", "a decimal"),
        ("2\u066c5", "digits joined by a mark"),
        ("2\u00b75", "digits joined by a mark"),
        ("1\u2019000", "digits joined by a mark"),
        ("2\uff0c5", "digits joined by a mark"),
        ("2\u00b75\u00b76", "digits joined by a mark"),
    ],
)
def test_digits_joined_by_a_mark_outside_ascii_are_no_house(number, kind):
    game = mancala.new_game("kalah(4,3)")
    said = f"the reply names no move: {number} is {kind}, not a house's number"
    for reply in (f"Move: {number}", f"I will sow house {number}.", f"house {number}", f"{number} house"):
        with pytest.raises(text.NoMoveError) as e:
            text.parse_move(game, reply)
        assert str(e.value) == said, reply
    # The last tier skips it (as it skips 2.5), no part of it read as a house.
    with pytest.raises(text.NoMoveError) as e:
        text.parse_move(game, f"Maybe {number}.")
    assert str(e.value) == "the reply names no move"
    assert text.parse_move(game, f"{number} seeds, so 3") == 3
    done = _cli("parse", "--rules", "kalah(4,3)", f"Move: {number}")
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"mancala.text: no move: {said}\n")


def test_the_arabic_thousands_separator_joins_groups_of_three():
    """U+066C joins groups of three digits as a comma does (`1,000`): a whole number, no
    house; the ASCII marks read as before."""
    game = mancala.new_game("kalah(4,3)")
    with pytest.raises(text.IllegalReplyError) as e:
        text.parse_move(game, "Move: 2\u066c500")
    assert e.value.move == 2500
    with pytest.raises(text.NoMoveError, match="2.5 is a decimal"):
        text.parse_move(game, "Move: 2.5")
    with pytest.raises(text.AmbiguousMoveError):
        text.parse_move(game, "Move: 2,3")
    with pytest.raises(text.AmbiguousMoveError):
        text.parse_move(game, "Move: 2/3")
    assert text.parse_move(game, "Move: 2 \u00b7 3 seeds land") == 2


@pytest.mark.parametrize("three", ["\u0663", "\uff13"])
def test_a_bare_label_in_other_digits_is_explained(three):
    """`S٣` alone said only "the reply names no move", where `Move: S٣` said why."""
    for rules in ("oware", "kalah(4,3)"):
        game = mancala.new_game(rules)
        for label in (f"S{three}", f"n{three}"):
            with pytest.raises(text.NoMoveError) as e:
                text.parse_move(game, f"I think {label}.")
            assert str(e.value) == (
                f"the reply names no move: {label} is a number in digits other than 0-9, not a house's number"
            )
    done = _cli("parse", "--rules", "oware", f"S{three}")
    assert (done.returncode, done.stderr) == (
        1,
        f"mancala.text: no move: the reply names no move: S{three} is a number in digits other than 0-9, "
        "not a house's number\n",
    )


def test_the_command_line_moves_are_split_as_the_mancala_command_splits_them():
    """`--moves '3,,1'` was read as 3 then 1, which `mancala replay` refuses; and a move that
    cannot be played was said without its number (`move 2: ...`)."""
    for moves, said in [
        ("3,,1", "--moves: an empty move after move 1 (a comma with no move after it)"),
        ("3,", "--moves: an empty move after move 1 (a comma with no move after it)"),
        ("3 1,", "--moves: an empty move after move 2 (a comma with no move after it)"),
        (",3", "--moves: a comma before the first move"),
        (" , ", "--moves: a comma before the first move"),
        ("3 \u0663", "--moves: move 2: malformed move `\u0663`: expected a house number or `swap`"),
        ("3,x", "--moves: move 2: malformed move `x`: expected a house number or `swap`"),
    ]:
        for command in (["prompt"], ["parse", "Move: 1"]):
            done = _cli(*command, "--rules", "kalah(4,3)", "--moves", moves)
            assert (done.returncode, done.stdout, done.stderr) == (2, "", f"mancala.text: {said}\n"), moves
    # A move list the command takes: commas and any spaces between the moves, or none.
    game = mancala.new_game("kalah(4,3)")
    game.play(3)
    game.play(1)
    for moves in ("3, 1", "3 1", " 3\t,\u00a01 "):
        assert _cli("prompt", "--rules", "kalah(4,3)", "--moves", moves).stdout == text.prompt(game) + "\n"
    start = _cli("prompt", "--rules", "kalah(4,3)", "--moves", "  ")
    assert start.stdout == text.prompt(mancala.new_game("kalah(4,3)")) + "\n"


_LAST_LISTED_PROGRAM = (
    "import re, sys\n"
    "moves = re.search(r'Your legal moves: (.*)\\.', sys.stdin.read()).group(1).split(', ')\n"
    "print('Move:', moves[-1])\n"
)


#: A program of the line protocol (`docs/line-protocol.md`, "Grading a program") that plays
#: the last legal move, as _LAST_LISTED_PROGRAM does from a prompt.
_LAST_LEGAL_LINE_PROGRAM = (
    "import sys, mancala\n"
    "rules, game = 'standard', None\n"
    "for line in sys.stdin:\n"
    "    words = line.split()\n"
    "    if not words: continue\n"
    "    if words[0] == 'quit': break\n"
    "    if words[0] == 'rules': rules = line.split(None, 1)[1].strip(); print('ok', flush=True)\n"
    "    elif words[0] == 'position':\n"
    "        game = mancala.new_game(rules, position=line.split(None, 1)[1].strip()); print('ok', flush=True)\n"
    "    elif words[0] == 'go': print('bestmove', game.legal_moves()[-1], flush=True)\n"
)


def test_the_command_line_grade_report_is_mancala_grade_s_line_for_line(tmp_path, cli):
    """The text report of `python -m mancala.text grade` is `mancala grade`'s for the same
    moves on the same set, line for line ("optimal    66.7 %", "mean loss  0.840 seeds",
    "worst loss 3 seeds", the rules, the table by seeds, the worst positions), but for the
    player's name (each names its own program) and the text player's counters after it; the
    JSON report keeps the full numbers."""
    import json
    import subprocess

    script = tmp_path / "player.py"
    script.write_text(_LAST_LISTED_PROGRAM)
    line_script = tmp_path / "line_player.py"
    line_script.write_text(_LAST_LEGAL_LINE_PROGRAM)
    args = ["grade", "--program", f"{sys.executable} {script}", "--rules", "kalah(3,3)", "--generate", "6",
            "--seed", "7"]
    done = _cli(*args)
    assert done.returncode == 0, done.stderr
    rust = subprocess.run(
        [str(cli.path), "grade", "--generate", "--rules", "kalah(3,3)", "--count", "6", "--seed", "7",
         "--", sys.executable, str(line_script)],
        capture_output=True, text=True, timeout=300,
    )
    assert rust.returncode == 0, rust.stderr
    ours, theirs = done.stdout.splitlines(), rust.stdout.splitlines()
    assert ours[0] == f"player     {sys.executable} {script}"
    assert theirs[0].startswith("player     ")
    assert ours[1:len(theirs)] == theirs[1:]
    expected = text.grade(last_listed, mancala.generate_positions("kalah(3,3)", 6, seed=7), seed=7)
    assert ours[len(theirs):] == [
        f"asked      {expected.asked}",
        f"illegal    {expected.illegal}",
        f"unreadable {expected.unreadable}",
    ]
    # Not a set without a loss: the lines of the figures are there to compare.
    assert expected.total_loss > 0 and "worst positions:" in theirs
    got = json.loads(_cli(*args, "--json").stdout)
    assert (got["optimal"], got["mean_loss"], got["rules"]) == (expected.optimal, expected.mean_loss, "kalah(3,3)")


def test_the_command_line_grade_report_of_an_oware_set_names_its_database(tmp_path, cli):
    """`python -m mancala.text grade` on an Oware set had no `database` line where `mancala
    grade` has one: the database it builds for the set, levels 0 to the set's largest seeds
    in the houses (4 here), is now named as `mancala grade --no-cache` names it, line for
    line, and in the JSON report; the report of `mancala.grade` carries it (`database`), the
    database given when one is, none for a Kalah set."""
    import json
    import subprocess

    # 2 and 4 seeds in the houses, 48 in all; the other player's houses empty after South's
    # move but for a seed: both are still to be played.
    positions = ["0,0,0,0,0,1,23,1,0,0,0,0,0,23 S", "0,0,0,0,2,1,22,1,0,0,0,0,0,22 S"]
    set_file = tmp_path / "awari.txt"
    set_file.write_text("# rules: awari\n" + "\n".join(positions) + "\n", encoding="utf-8")
    script = tmp_path / "player.py"
    script.write_text(_LAST_LISTED_PROGRAM)
    line_script = tmp_path / "line_player.py"
    line_script.write_text(_LAST_LEGAL_LINE_PROGRAM)
    built = "built in memory for this run (levels 0..=4, not kept)"
    done = _cli("grade", "--program", f"{sys.executable} {script}", "--set", str(set_file))
    assert done.returncode == 0, done.stderr
    rust = subprocess.run(
        [str(cli.path), "grade", "--file", str(set_file), "--no-cache", "--", sys.executable, str(line_script)],
        capture_output=True, text=True, timeout=300,
    )
    assert rust.returncode == 0, rust.stderr
    ours, theirs = done.stdout.splitlines(), rust.stdout.splitlines()
    assert f"database   {built}" in theirs
    assert ours[1:len(theirs)] == theirs[1:]
    assert [line.split()[0] for line in ours[len(theirs):]] == ["asked", "illegal", "unreadable"]
    got = json.loads(_cli("grade", "--program", f"{sys.executable} {script}", "--set", str(set_file),
                          "--json").stdout)
    assert got["database"] == built and "caveat" not in got
    assert mancala.grade(1, str(set_file)).database == built
    db = mancala.Database.build("awari", 6, threads=1)
    assert mancala.grade(1, str(set_file), database=db).database == "the database given (levels 0..=6)"
    kalah = [mancala.Kalah("kalah(3,3)", p) for p in KALAH_SET]
    assert mancala.grade(1, kalah).database is None


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full to write to")
@pytest.mark.parametrize("command", ["prompt", "parse", "grade", "grade --json"])
def test_a_failed_write_is_said_and_exits_1_as_the_mancala_command(command, tmp_path, cli):
    """A write to standard output that fails (a full disk) is one line on standard error with
    the words of the `mancala` command and exit status 1, for every subcommand; 2 is for bad
    arguments."""
    import subprocess

    with open("/dev/full", "w") as full:
        rust = subprocess.run([str(cli.path), "perft", "--depth", "1"], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=300)
    assert rust.returncode == 1
    words = rust.stderr.strip().removeprefix("mancala: error: ")
    assert words.startswith("writing standard output: No space left on device")
    script = tmp_path / "player.py"
    script.write_text(_LAST_LISTED_PROGRAM)
    args = {
        "prompt": ["prompt", "--rules", "oware"],
        "parse": ["parse", "Move: 3"],
        "grade": ["grade", "--program", f"{sys.executable} {script}", "--rules", "kalah(3,3)", "--generate", "2"],
    }[command.split()[0]] + command.split()[1:]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "mancala.text", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=300)
    assert (done.returncode, done.stderr) == (1, f"mancala.text: {words}\n")
