"""Text play for language models: a prompt for a position, a move read out of a free-text
reply, and grading of a text player against exact values.

* :func:`prompt` — the rules in brief, the board drawn, the legal moves and the answer format,
  filled into a template (:data:`TEMPLATE`) that a caller may replace;
* :func:`parse_move` — reads a move out of a reply (``"I will sow house 4."``) or raises a
  :class:`ReplyError` that says why not: :class:`NoMoveError` (none found),
  :class:`AmbiguousMoveError` (several), :class:`IllegalReplyError` (one, not legal here);
* :class:`TextPlayer` — a function ``str -> str`` (a model, a person, a script) or a program
  (:func:`program`) turned into a player ``Game -> move`` that re-asks after an unreadable or
  illegal reply as often as its ``retries`` allow, and counts every such reply;
* :func:`grade` — :func:`mancala.grade` of a text player: the same report (optimal moves,
  seeds lost against the exact values), plus the counts of illegal and unreadable replies.

No model is downloaded or called here: a text player is any callable. The reading of replies
is documented in ``docs/python.md`` ("Text play").
"""

from __future__ import annotations

import math
import os
import re
import shlex
import string
import subprocess
import threading
from dataclasses import dataclass, field
from time import monotonic as _monotonic
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import Game, Kalah, Oware, Side, Togyz
from ._mancala import grade as _grade
from .errors import MancalaError
from .results import GradeReport

__all__ = [
    "TEMPLATE",
    "TEXT_TIME",
    "MAX_REPLY_BYTES",
    "FIELDS",
    "RULES",
    "rules_brief",
    "check_template",
    "prompt",
    "parse_move",
    "ReplyError",
    "NoMoveError",
    "AmbiguousMoveError",
    "IllegalReplyError",
    "TextPlayer",
    "program",
    "grade",
    "TextGradeReport",
]

Move = Union[int, str]

#: The seconds a text player may take a move in :func:`grade` (and ``python -m mancala.text
#: grade --time``) unless told otherwise: 60. A language model, or a program that calls one,
#: answers in seconds; :func:`mancala.grade`'s default of 1 s fits an engine, not them.
TEXT_TIME = 60.0

#: The most bytes of a reply a text player's reply is read to (UTF-8): 65,536 (64 KiB). A
#: longer reply is an unreadable one (:class:`NoMoveError`, ``the reply is longer than
#: 65,536 bytes``), not read: :func:`program` stops reading the program's output past it and
#: stops the program, and :class:`TextPlayer` refuses a longer ``str`` before
#: :func:`parse_move` reads it (which takes about 0.4 s a megabyte). A language model's reply
#: with its reasoning fits in it many times over.
MAX_REPLY_BYTES = 65_536

#: The default prompt. The fields: ``game`` (the game's name), ``rules`` (the rule-set text),
#: ``side`` (``South`` or ``North``, the player to move), ``rules_brief`` (:func:`rules_brief`: the
#: rules of the game's rule set), ``board`` (the board drawn as ``mancala show`` draws it), ``moves`` (the legal
#: moves, comma-separated) and ``answer`` (how to answer).
TEMPLATE = """You are playing {game} (rule set {rules}) as {side}.

Rules in brief:
{rules_brief}

The board ({side} to move):
{board}

Your legal moves: {moves}.

{answer}"""

#: The fields a template may use (:data:`TEMPLATE`).
FIELDS = ("game", "rules", "side", "rules_brief", "board", "moves", "answer")


def check_template(template: Optional[str]) -> None:
    """Checks a prompt template (``None`` stands for :data:`TEMPLATE`) before any use: it
    must be a ``str`` whose ``{…}`` fields are among :data:`FIELDS` (by name, with any
    conversion or format spec a ``str`` takes; ``{{`` and ``}}`` are braces). Returns
    ``None``; raises ``TypeError`` for a template that is not a ``str`` and ``ValueError``
    naming the first unknown field (or saying what else is wrong with the braces, a field
    inside a format spec, a width too large)."""
    if template is None:
        return
    if not isinstance(template, str):
        raise TypeError(f"a template is a str, not {type(template).__name__}")
    formatter = string.Formatter()

    def names(text: str) -> List[str]:
        found: List[str] = []
        for _, name, spec, _ in formatter.parse(text):
            if name is not None:
                found.append(name)
            if spec and any(n is not None for _, n, _, _ in formatter.parse(spec)):
                # A field's format spec is filled from the position (`{board:{rules}}`).
                raise ValueError(f"a field inside the format spec of {{{name}}}")
        return found

    try:
        used = names(template)
    except ValueError as e:
        raise ValueError(f"template: {e}") from None
    for name in used:
        if name not in FIELDS:
            shown = "{" + name + "}"
            raise ValueError(
                f"template: unknown field {shown}; the fields are "
                + ", ".join("{" + f + "}" for f in FIELDS)
            )
    try:
        template.format(**{f: "" for f in FIELDS})
    except (ValueError, KeyError, IndexError, AttributeError) as e:
        raise ValueError(f"template: {e}") from None
    except (MemoryError, OverflowError):
        raise ValueError("template: a format spec asks for more room than there is") from None


def _options(rules: str, defaults: Dict[str, Dict[str, str]]) -> Dict[str, str]:
    """The options of an Oware or Togyz Kumalak rule-set text as the library prints it
    (``head[(h,s)]{+name=value}``): the head's defaults, then the options given."""
    head, *given = [part.strip() for part in rules.lower().split("+")]
    head = head.split("(")[0].strip()
    options = dict(defaults.get(head, next(iter(defaults.values()))))
    for part in given:
        name, _, value = part.partition("=")
        options[name.strip()] = value.strip()
    return options


#: The options of the named Oware rule sets (docs/rules/oware.md, OW-7).
_OWARE_DEFAULTS = {
    "oware": {
        "grand_slam": "none", "majority": "stop", "repetition": "3",
        "cycle_score": "own_row", "move_limit": "off",
    },
    "awari": {
        "grand_slam": "unless_only", "majority": "off", "repetition": "3",
        "cycle_score": "split", "move_limit": "off",
    },
    "oware-openspiel": {
        "grand_slam": "none", "majority": "collect", "repetition": "2",
        "cycle_score": "own_row", "move_limit": "1000",
    },
}
#: The options of the named Togyz Kumalak rule sets (docs/rules/togyz-kumalak.md, TK-7).
_TOGYZ_DEFAULTS = {
    "togyz-kumalak": {
        "tuzdyk": "on", "tuzdyk_last": "forbidden", "majority": "stop",
        "empty_row": "on_turn", "move_limit": "off",
    },
    "togyz-ludii": {
        "tuzdyk": "on", "tuzdyk_last": "allowed", "majority": "off",
        "empty_row": "after_move", "move_limit": "off",
    },
    "bestemshe": {
        "tuzdyk": "off", "tuzdyk_last": "forbidden", "majority": "stop",
        "empty_row": "on_turn", "move_limit": "off",
    },
}


def _row(houses: int, nearest: bool = True) -> str:
    """A player's row as the briefs name it: ``"the row of houses nearest to him (numbered
    1 to 6 from his own left)"``, or for a row of one house ``"the single house nearest to
    him (house 1)"``; ``nearest=False`` says ``"a row of houses ..."``/``"a single house
    ..."`` without ``nearest to him``."""
    if houses == 1:
        return ("the single house nearest to him" if nearest else "a single house") + " (house 1)"
    row = "the row of houses nearest to him" if nearest else "a row of houses"
    return f"{row} (numbered 1 to {houses} from his own left)"


def _kalah_brief(options: Sequence[str], houses: int = 6) -> str:
    """Kalah's rules in brief under ``options`` (:attr:`Kalah.options`; docs/rules/kalah.md)."""
    o = set(options)
    text = [
        f"Each player owns {_row(houses)} "
        "and the store on his right. A move lifts every seed of one of your houses and sows them "
        "one by one anticlockwise into the following houses and your own store, skipping the "
        "opponent's store."
    ]
    if "no_first_move_bonus" in o:
        text.append("If the last seed lands in your store you move again, except after the "
                    "very first move of the game.")
    else:
        text.append("If the last seed lands in your store you move again.")
    if "empty_capture" in o:
        text.append("If it lands in an empty house of yours, you capture it and the seeds of "
                    "the opposite house, even when the opposite house is empty.")
    else:
        text.append("If it lands in an empty house of yours and the opposite house holds seeds, "
                    "you capture it and them; when the opposite house is empty, nothing is "
                    "captured.")
    if "pie_rule" in o:
        text.append("After South's first turn, North may once answer swap instead of sowing: "
                    "the players exchange sides, and the player who opened is to move.")
    if "end_when_no_move" in o:
        end = "The game ends when the player to move has no seed in his houses"
    else:
        end = "When either player's row is empty the game ends"
    if "discard_remaining" in o:
        end += ", and the seeds left in the houses count for nobody."
    else:
        end += ", and each player adds the seeds left in his houses to his store."
    text.append(end)
    text.append("Most seeds in the store wins.")
    return " ".join(text)


def _oware_brief(rules: str, houses: int = 6) -> str:
    """Oware's rules in brief under the rule set ``rules`` (docs/rules/oware.md)."""
    o = _options(rules, _OWARE_DEFAULTS)
    text = [
        f"Each player owns {_row(houses)}. "
        "A move lifts every seed of one of your houses and sows them one by one anticlockwise, "
        "skipping the house sown from. If the last seed makes a house of the opponent hold 2 or "
        "3 seeds, you capture it, and the houses before it on the opponent's side while they "
        "hold 2 or 3."
    ]
    slam = {
        "none": "A move that would capture every seed of the opponent's row (a grand slam) is "
        "allowed but captures nothing.",
        "all": "A move that captures every seed of the opponent's row (a grand slam) is allowed "
        "and captures them all.",
        "forbidden": "A move that would capture every seed of the opponent's row (a grand slam) "
        "is not allowed.",
        "leave_last": "A move that would capture every seed of the opponent's row (a grand slam) "
        "captures all but his house 1, whose seeds stay.",
        "unless_only": "A move that leaves the opponent's row empty (a grand slam, or not "
        "feeding an empty row) is not allowed unless every move of yours does so; then a grand "
        "slam captures them all.",
    }
    text.append(slam.get(o["grand_slam"], ""))
    if o["grand_slam"] != "unless_only":
        text.append("If the opponent's row is empty you must sow seeds into it; if no move "
                    "does, the game ends.")
    if o["majority"] == "stop":
        text.append("The game ends as soon as a player has captured more than half the seeds "
                    "(or both exactly half); the seeds left count for nobody.")
    elif o["majority"] == "collect":
        text.append("The game ends as soon as a player has captured more than half the seeds "
                    "(or both exactly half), and each player adds the seeds in his row to his "
                    "store.")
    else:
        text.append("The game does not end when a player has captured more than half the "
                    "seeds; play goes on.")
    if o["repetition"] != "off":
        n = o["repetition"]
        times = "is repeated" if n == "2" else f"occurs for the {_nth(n)} time"
        if o["cycle_score"] == "split":
            text.append(f"When a position {times}, the game ends and the seeds left are "
                        "shared equally.")
        else:
            text.append(f"When a position {times}, the game ends and each player takes the "
                        "seeds in his row.")
    if o["move_limit"] != "off":
        text.append(f"The game ends after {o['move_limit']} moves, each player taking the "
                    "seeds in his row.")
    text.append("When the player to move has no legal move, the game ends and each player "
                "takes the seeds in his row. Whoever has more seeds wins.")
    return " ".join(t for t in text if t)


def _nth(n: str) -> str:
    return {"2": "second", "3": "third", "4": "fourth", "5": "fifth", "6": "sixth",
            "7": "seventh", "8": "eighth", "9": "ninth"}.get(n, n + "th")


def _togyz_brief(rules: str, houses: int = 9) -> str:
    """Togyz Kumalak's rules in brief under the rule set ``rules``
    (docs/rules/togyz-kumalak.md)."""
    o = _options(rules, _TOGYZ_DEFAULTS)
    text = [
        f"Each player owns {_row(houses, nearest=False)} and a kazan. "
        "A move lifts every kumalak of one of your houses; the first goes back into that house "
        "(a lone kumalak goes on to the next house) and the others one by one anticlockwise. If "
        "the last one makes a house of the opponent even, you capture it."
    ]
    if o["tuzdyk"] == "on":
        last = "" if o["tuzdyk_last"] == "allowed" else " (not his last house)"
        text.append(
            f"If it makes exactly 3 in a house of the opponent{last}, that house becomes your "
            "tuzdyk, once a game, unless he has a tuzdyk of the same number: its 3 kumalaks "
            "and every one sown into it later go to your kazan."
        )
    if o["empty_row"] == "after_move":
        text.append("When a player, to move or having just moved, has no kumalak in his row, "
                    "the game ends and each player adds his row to his kazan.")
    else:
        text.append("When the player to move has no kumalak in his row, the game ends and "
                    "each player adds his row to his kazan.")
    if o["majority"] == "stop":
        text.append("The game ends as soon as a kazan holds more than half the kumalaks "
                    "(or both exactly half); the kumalaks left count for nobody.")
    if o["move_limit"] != "off":
        text.append(f"The game ends after {o['move_limit']} moves, each player adding his row "
                    "to his kazan.")
    text.append("Whoever has more kumalaks in his kazan wins.")
    return " ".join(text)


_BAO_BRIEF = (
    "Bao la Kete is played on four rows of eight pits; each player owns the two rows "
    "nearest to him (front row F1-F8, back row B1-B8). Moves sow seeds from a pit in a "
    "direction (> clockwise, < anticlockwise); captures take the opponent's front-row "
    "seeds facing your own. A move is written like F6> or B2<, with extra letters when the "
    "rules ask for a choice. A player who cannot move, or has no seeds in his front row, loses."
)


def _check_game(game: Any) -> None:
    """Raises ``TypeError`` naming the type unless ``game`` is a game of this package (a
    :class:`mancala.Game`: ``Kalah``, ``Bao``, ``Oware``, ``Togyz``)."""
    if not isinstance(game, Game):
        raise TypeError(
            "game must be a mancala game (Kalah, Bao, Oware, Togyz), "
            f"not {type(game).__name__}"
        )


def rules_brief(game: Game) -> str:
    """The rules in brief of ``game``'s own rule set (its options: a Kalah game's
    :attr:`Kalah.options`, an Oware or Togyz Kumalak game's :attr:`Game.rules`), as the
    prompt's ``{rules_brief}`` field states them; ``""`` for a game it has no text for. For
    Bao la Kete, one text for every rule set (the moves listed in the prompt follow the
    rule set's options). ``TypeError`` when ``game`` is not a game of this package."""
    _check_game(game)
    if isinstance(game, Kalah):
        return _kalah_brief(game.options, game.houses)
    if isinstance(game, Oware):
        return _oware_brief(game.rules, game.houses)
    if isinstance(game, Togyz):
        return _togyz_brief(game.rules, game.houses)
    if game.kind == "Bao la Kete":
        return _BAO_BRIEF
    return ""


#: The rules in brief of each game's default rule set (``standard``, ``oware``,
#: ``bao-la-kete``, ``togyz-kumalak``), by :attr:`Game.kind`. The prompt states the rules of
#: the game's own rule set: :func:`rules_brief`.
RULES: Dict[str, str] = {
    "Kalah": _kalah_brief(()),
    "Oware": _oware_brief("oware"),
    "Bao la Kete": _BAO_BRIEF,
    "Togyz Kumalak": _togyz_brief("togyz-kumalak"),
}


#: How to answer, by the shape of the game's moves.
_ANSWER_HOUSE = (
    "Answer with the number of the house you sow, on the last line, as `Move: <number>`."
)
_ANSWER_KALAH_SWAP = (
    "Answer with the number of the house you sow, or `swap` to take your opponent's side, on "
    "the last line, as `Move: <number or swap>`."
)
_ANSWER_TEXT = "Answer with one of your legal moves exactly as written above, on the last line, as `Move: <move>`."


def prompt(game: Game, template: Optional[str] = None) -> str:
    """The prompt for the player to move in ``game``: ``template`` (default :data:`TEMPLATE`)
    with its fields filled in. A template may use any subset of the fields (:data:`FIELDS`).
    Raises ``TypeError`` for a template that is not a ``str`` or a ``game`` that is not a game
    of this package, ``ValueError`` for a template with an unknown field
    (:func:`check_template`) and for a finished game (no move to ask for)."""
    check_template(template)
    _check_game(game)
    side = game.side_to_move
    if side is None:
        raise ValueError("the game is over: there is no move to ask for")
    moves = game.legal_moves()
    if game.kind == "Bao la Kete":
        answer = _ANSWER_TEXT
    elif "swap" in moves:
        answer = _ANSWER_KALAH_SWAP
    else:
        answer = _ANSWER_HOUSE
    fields = {
        "game": game.kind,
        "rules": game.rules,
        "side": "South" if side == Side.SOUTH else "North",
        "rules_brief": rules_brief(game),
        "board": str(game),
        "moves": ", ".join(str(m) for m in moves),
        "answer": answer,
    }
    return (TEMPLATE if template is None else template).format(**fields)


class ReplyError(MancalaError, ValueError):
    """A reply from which no single legal move can be read; ``reason`` is ``"none"``,
    ``"several"`` or ``"illegal"``, ``reply`` the text (whole)."""

    reason = ""

    def __init__(self, message: str, reply: str) -> None:
        super().__init__(message)
        self.reply = reply

    def __reduce__(self) -> Any:
        # Pickled with every argument of its class (an exception pickles only its message
        # by default, which these classes cannot be made from again), so that the error
        # crosses a process pool as it is.
        return (type(self), (str(self), self.reply, *self._extra()), self.__dict__)

    def _extra(self) -> Tuple[Any, ...]:
        """The arguments of the class after ``message`` and ``reply``."""
        return ()


class NoMoveError(ReplyError):
    """The reply names no move."""

    reason = "none"


class AmbiguousMoveError(ReplyError):
    """The reply names several different moves; ``candidates`` lists them."""

    reason = "several"

    def __init__(self, message: str, reply: str, candidates: Sequence[Move]) -> None:
        super().__init__(message, reply)
        self.candidates = list(candidates)

    def _extra(self) -> Tuple[Any, ...]:
        return (self.candidates,)


class IllegalReplyError(ReplyError):
    """The reply names one move, which is not legal in the position; ``move`` is it and the
    message gives the rules' reason."""

    reason = "illegal"

    def __init__(self, message: str, reply: str, move: Move) -> None:
        super().__init__(message, reply)
        self.move = move

    def _extra(self) -> Tuple[Any, ...]:
        return (self.move,)


def _too_long(size: Optional[str], cap: int, reply: str) -> NoMoveError:
    """The :class:`NoMoveError` of a reply over ``cap`` bytes: ``the reply is longer than
    65,536 bytes, the most a reply is read to: not read``, with ``(it is 70,000 bytes)``
    before the colon when its ``size`` is known (a text: ``70,000``, ``at least 70,000``;
    ``None`` when the reply was read no further than one byte past the cap). Its ``reply``
    is the first 200 characters of ``reply``."""
    known = "" if size is None else f" (it is {size} bytes)"
    return NoMoveError(
        f"the reply is longer than {cap:,} bytes, the most a reply is read to{known}: not read",
        reply[:200],
    )


def _utf8(data: bytes) -> str:
    """``data`` (a reply's bytes) as text, its newlines as text mode reads them (``\\r\\n``
    and ``\\r`` are ``\\n``); :class:`NoMoveError` saying where when it is not UTF-8 (``the
    reply is not UTF-8 (byte 0xff at 6)``, the offset counted in bytes from 0), the error's
    ``reply`` the text with each bad byte replaced by U+FFFD."""
    try:
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as e:
        raise NoMoveError(
            f"the reply is not UTF-8 (byte 0x{data[e.start]:02x} at {e.start})", data.decode("utf-8", "replace")
        ) from None


_NUMBER_WORDS = {
    w: i + 1
    for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split())
}
_ORDINALS = {
    w: i + 1
    for i, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
    )
}
_WORDS = "|".join(sorted(list(_NUMBER_WORDS) + list(_ORDINALS), key=len, reverse=True))
#: The words that multiply a number (`one hundred`, `5 thousand`), with the power of ten
#: each multiplies by.
_MULTIPLIERS = {"hundred": 2, "thousand": 3, "million": 6, "billion": 9, "trillion": 12}
_MULTIPLIER = r"(?:" + "|".join(_MULTIPLIERS) + r")(?:s|th)?\b"
#: The characters that join groups of three digits in one number (`1,000`, `1_000`, or a
#: no-break or thin space): a comma, an underscore, a no-break or thin space, the Arabic
#: thousands separator U+066C (`2٬500`). Not a plain space, which separates words:
#: `Move: 2 100 times better` names house 2.
_GROUP_MARK = "[,_\u00a0\u2009\u202f\u066c]"
#: The decimal separators: a period (`3.5`) and the Arabic decimal separator U+066B (`3٫5`).
_DECIMAL_MARK = "[.\u066b]"
#: A character that, between two digits, makes them one number that is no house's number
#: (`2·5`, `2٬5`, `1’000`): any character outside ASCII that is neither a letter, a digit nor
#: a space, except a dash (a range: `7–9`). The ASCII marks keep their own meanings (`3.5`
#: a decimal, `4,5` and `4/5` two moves, `7-9` a range).
_JOINER = r"[^\x00-\x7f\w\s\u2010-\u2015]"
#: A range between two numbers: a hyphen or a dash between them with no space (`7-9`,
#: `7–9`), or `to` or `through` (`3 to 5`). A dash with spaces around it starts a remark,
#: not a range: `Move: 6 – 4 seeds land in my store` names house 6.
_RANGE = r"(?:[-\u2010-\u2015]|[ \t]+(?:to|through)[ \t]+)"
#: What continues a number into another one: a decimal part (`3.5`, `3٫5`), a group of three
#: digits (`1,000`), a multiplier word (`one hundred`), a range to a number (`7-9`), another
#: mark and a digit (`2·5`: :data:`_JOINER`).
_CONTINUED = (
    r"(?:" + _DECIMAL_MARK + r"\d|" + _JOINER + r"\d|" + _GROUP_MARK + r"\d{3}(?!\d)|[ \t]+" + _MULTIPLIER + r"|" + _RANGE
    + r"(?:\d|(?:" + _WORDS + r")\b))"
)


def _numeral(words: bool = True) -> str:
    """The one pattern every tier reads a number with (``words``: a number word too, else
    digits only): digits (a minus sign before them, not after a letter or digit, makes a
    negative number, read so that it can be refused), in groups of three after the first
    (``1,000``, ``1_000``, or a no-break or thin space between them), with an ordinal's
    ending (``4th``), or a number word
    (``four``, ``fourth``); then what makes it another number than a house's
    (:func:`_number_value`): multiplier words (``one hundred``), a decimal part (``3.5``), a
    range to a number (``7-9``). It never ends where the number goes on: no part of
    ``3.5``, ``7-9``, ``1,000`` or ``five hundred`` is read as a number of its own."""
    core = r"(?:(?<![\w.])-)?\d+(?:" + _GROUP_MARK + r"\d{3}(?!\d))*(?:st|nd|rd|th)?"
    if words:
        core = r"(?:" + core + r"|(?:" + _WORDS + r")\b)"
    return (
        core
        + r"(?:" + _DECIMAL_MARK + r"\d+|(?:[ \t]+" + _MULTIPLIER + r")+|" + _RANGE + r"(?:-?\d+|(?:" + _WORDS + r")\b)"
        + r"|(?:" + _JOINER + r"\d+)+)?"
        + r"(?!" + _CONTINUED + r")"
    )


#: A number in digits or words (:func:`_numeral`).
_DIGITS = _numeral()
_NUMBER = r"(" + _DIGITS + r")"
_HOUSE_WORD = r"(?:house|pit|hole|cup|bowl|otau|number|no\.|#)"
#: A move token after a marked answer: swap, a Bao la Kete move, a number.
_TOKEN = r"(?:swap|[a-z]\d{1,3}[<>]?[lr]?[+.]?(?!" + _DECIMAL_MARK + r"\d|" + _JOINER + r"\d)|" + _DIGITS + r")(?![\w<>+])"
#: An answer the reply marks as its answer: `Move: 4`, `Answer: house 4`, `I will sow 4`.
_EXPLICIT = re.compile(
    r"(?:final\s+answer|answer|move|choice|decision|i(?:\s+will|'ll|\s+shall|\s+would)?\s+"
    r"(?:play|sow|choose|pick|take|select|go\s+with|move)|let\s+me\s+(?:play|sow)|"
    r"i\s+choose\s+to\s+(?:play|sow))"
    r"\s*(?:is|:|=|-(?!\d)|→|->)?\s*(?:to\s+)?(?:sow\s+|play\s+)?(?:(?:from\s+)?(?:my\s+|the\s+)?"
    + _HOUSE_WORD
    + r"\s*)?"
    + r"(?P<tok>"
    + _TOKEN
    + r")",
    re.IGNORECASE,
)
#: The answer format the prompt asks for, `Move: 4` (or `Final answer: house 4`, or a line
#: that starts `Answer: 4`): where a reply has it, its last one decides, whatever the
#: reasoning before or after names (`the opponent's answer: 2` inside a line is reasoning).
_FINAL = re.compile(
    r"(?:(?<![\w-])(?:final\s+answer|move)|^[ \t>#-]*answer)\s*:\s*(?:(?:my\s+|the\s+)?"
    + _HOUSE_WORD
    + r"\s*)?"
    + r"(?P<tok>"
    + _TOKEN
    + r")",
    re.IGNORECASE | re.MULTILINE,
)
#: A further move joined to a marked answer: `Move: 4 or 5`, `Move: 4/5`, `I play 4 and 5`
#: (after `and` or a comma, a move that ends a phrase: `Move: 4, 2 seeds land` names 4).
_MORE = re.compile(
    r"\s*(?:(?:,\s*)?(?:or|/|\|)\s*(?:(?:house|pit)\s*)?(?P<any>" + _TOKEN + r")|"
    r"(?:,|\band\b)\s*(?:(?:house|pit)\s*)?(?P<digits>swap\b|[a-z]\d{1,3}[<>]?[lr]?[+.]?(?![\w<>+]|" + _DECIMAL_MARK + r"\d|" + _JOINER + r"\d)|"
    + _numeral(words=False)
    + r"(?!\w))(?=[ \t]*(?:$|\n|[.,;:!?)]|or\b|and\b)))",
    re.IGNORECASE,
)
#: A number attached to a house word: `house 4`, `pit #4`, `the fourth house`, `the 4th house`.
_HOUSE_NUMBER = re.compile(
    _HOUSE_WORD + r"\s*" + _NUMBER + r"\b|(?<![\w.\u066b-])(?<!\d" + _JOINER + r")" + _NUMBER + r"\s+" + _HOUSE_WORD, re.IGNORECASE
)
#: A number standing alone, in digits (:func:`_numeral`): the bare tier reads one of at most
#: three digits, so that a year or a count of positions in a reply's reasoning is not read as
#: a house, and skips every other (`2026`, `3.5`, `1,000`, `7-9`).
_BARE_NUMBER = re.compile(r"(?<![\w.\u066b])(?<!\d" + _JOINER + r")(" + _numeral(words=False) + r")(?!\w)")
_BARE_HOUSE = re.compile(r"-?[0-9]{1,3}")
_SWAP = re.compile(r"\bswap\b", re.IGNORECASE)
_BAO_MOVE = re.compile(r"(?<![A-Za-z0-9])([FBfb][1-8][<>]?[LRlr]?[+.]?)(?![A-Za-z0-9<>+])")
#: A Bao la Kete move in a marked answer: a pit of any number, so that one out of the rows
#: (`Move: F9>`) is read, and refused as no pit, as a house number out of range is.
_BAO_MARKED = re.compile(r"[FBfb]\d{1,3}[<>]?[LRlr]?[+.]?")
#: The pit of a Bao la Kete move text: a pit of the rows is one digit 1..8 (F1..F8, B1..B8).
_BAO_PIT = re.compile(r"[FB]\d+")
#: A move the reply says it does not play: `don't swap`, `no swap`, `I won't swap`, `Move: not
#: 2`, `do not play house 2`, `I don't want to swap`. Such a mention names no move.
_NEGATED = re.compile(
    r"(?:(?:\bnot|\bnever|n['’]t|\bcannot)\b"
    r"(?:\s+(?:want|wish|need|going|plan|intend|like|to|play|sow|choose|pick|take|select|move|"
    r"make|go|with|be|the|a|my|from|house|pit|hole|number|i)\b){0,4}\s*[#:]?\s*"
    r"(?:swap\b|[FBfb]\d{1,3}[<>]?[LRlr]?[+.]?(?![\w<>+])|-?" + _DIGITS + r"(?!\w))|\bno\s+swap\b)",
    re.IGNORECASE,
)


def _whole(digits: str) -> int:
    """The whole number ``digits`` writes (``-?`` and digits), of any length: ``int()``
    refuses a text of more than 4300 digits (Python 3.11 on), so a longer one is read in
    parts."""
    negative = digits.startswith("-")
    digits = digits.lstrip("-")
    value = 0
    for i in range(0, len(digits), 4000):
        part = digits[i : i + 4000]
        value = value * 10 ** len(part) + int(part)
    return -value if negative else value


def _shown_number(value: int) -> str:
    """``value`` written out for a message, or, beyond 58 digits, by its size (``a number
    of at least 5000 digits``): Python refuses to write one of more than 4300 digits, and a
    long one would fill the message."""
    if value.bit_length() <= 190:
        return str(value)
    # At least 2**(bits - 1): the digits of that power of two.
    digits = math.floor((value.bit_length() - 1) * math.log10(2)) + 1
    return f"{'a negative' if value < 0 else 'a'} number of at least {digits} digits"


class _NotAHouse(str):
    """A number a reply names that is no house's number whatever the board (the text of
    it, as written): a decimal (``3.5``, ``3٫5``), a range (``7-9``), digits joined by
    another mark outside ASCII (``2·5``: :data:`_JOINED`), or a number in other digits than
    0-9 (:data:`_FOREIGN`); ``kind`` says which."""

    kind = ""


#: The kind of :class:`_NotAHouse` of a number written in decimal digits other than 0-9
#: (Arabic-Indic ``٣``, full-width ``３``: digits to ``int()`` and ``str.isdigit``). A house's
#: number is written with 0-9 alone, as the ``mancala`` command and the notation read it.
_FOREIGN = "a number in digits other than 0-9"
#: The kind of :class:`_NotAHouse` of digits joined by a mark other than those of a decimal,
#: a group of three digits or a range (:data:`_JOINER`: `2·5`, `2٬5`).
_JOINED = "digits joined by a mark"


def _not_a_house(text: str, kind: str) -> _NotAHouse:
    """``text`` as a :class:`_NotAHouse` of ``kind``."""
    number = _NotAHouse(text.strip())
    number.kind = kind
    return number


def _number_value(token: str) -> Union[int, _NotAHouse, None]:
    """The value of a number read by :func:`_numeral`, the one place a number's text is
    turned into a value: the whole number it writes (``4``, ``4th``, ``four``, ``fourth``,
    ``-4``; ``1,000`` and ``one hundred`` are 1000 and 100, no house's numbers, refused as
    illegal), a :class:`_NotAHouse` for a decimal, a range, digits joined by another mark
    (``2·5``) or a number in other digits than 0-9 (``٣``, ``３``), ``None`` for another
    token."""
    t = token.lower().strip()
    m = re.fullmatch(
        r"(?P<n>-?\d+(?:" + _GROUP_MARK + r"\d{3})*)(?:st|nd|rd|th)?(?P<rest>.*)|(?P<w>" + _WORDS + r")(?P<wrest>.*)",
        t,
        re.DOTALL,
    )
    if m is None:
        return None
    if m.group("n") is not None:
        digits = re.sub(_GROUP_MARK, "", m.group("n"))
        if not digits.isascii():
            return _not_a_house(token, _FOREIGN)
        value = _whole(digits)
        rest = m.group("rest")
    else:
        word = m.group("w")
        value = _NUMBER_WORDS.get(word, _ORDINALS.get(word, 0))
        rest = m.group("wrest")
    if not rest:
        return value
    if re.match(_DECIMAL_MARK, rest):
        return _not_a_house(token, "a decimal")
    multipliers = re.findall(r"[ \t]+(" + "|".join(_MULTIPLIERS) + r")(?:s|th)?", rest)
    if multipliers and re.fullmatch(r"(?:[ \t]+" + _MULTIPLIER + r")+", rest):
        scale: int = 10 ** sum(_MULTIPLIERS[word] for word in multipliers)
        return value * scale
    if re.match(_JOINER, rest):
        return _not_a_house(token, _JOINED)
    return _not_a_house(token, "a range")


#: A run of two or more whitespace characters (:func:`_clean`).
_SPACE_RUN = re.compile(r"\s{2,}")


def _clean(reply: str) -> str:
    """The reply without Markdown emphasis and code marks (`**4**`, `` `4` ``, `_4_`; an
    underscore between two digits stays, joining digit groups), its minus
    signs written ``-``, and every move it says it does not play (:data:`_NEGATED`); each run
    of two or more whitespace characters is one (a newline when the run holds one, else a
    space), which reads the same and keeps the time of the patterns linear in the reply's
    length (a run of spaces between two optional parts of a pattern was read again for each
    way of splitting it: cubic in the run's length)."""
    reply = _SPACE_RUN.sub(lambda m: "\n" if "\n" in m.group() else " ", reply)
    # An underscore between two digits joins digit groups (`1_000`); elsewhere it is emphasis.
    text = re.sub(r"[*`~]+|(?<!\d)_+|_+(?!\d)", " ", reply).replace("\u2212", "-")
    return _NEGATED.sub(" ", text)


def _explicit_tokens(text: str, final: bool = False) -> List[str]:
    """The move tokens of every marked answer, with the moves joined to it by `or`, `/`,
    `and` or a comma; with ``final``, those of the last answer in the prompt's format
    (`Move: 4`) alone."""
    tokens: List[str] = []
    marks = list((_FINAL if final else _EXPLICIT).finditer(text))
    for m in marks[-1:] if final else marks:
        tokens.append(m.group("tok"))
        end = m.end()
        while True:
            more = _MORE.match(text, end)
            if more is None:
                break
            tokens.append(more.group("any") or more.group("digits"))
            end = more.end()
    return tokens


#: A house by the label the prompt's board gives it: `S3` (South's house 3), `N1`.
_LABEL = re.compile(r"([sn])(\d{1,3})", re.IGNORECASE)
#: A board label standing alone in a reply (:data:`_LABEL`), as a word of its own.
_BARE_LABEL = re.compile(r"(?<!\w)([sn])(\d{1,3})(?!\w)", re.IGNORECASE)


def _house_candidates(text: str, tier: str, side: str) -> List[Move]:
    """The moves of one tier of a Kalah, Oware or Togyz Kumalak reply; ``side`` is the letter
    of the side to move (``"S"``, ``"N"``): an answer naming a house by its board label is
    that house when the label is the side's (`Move: S3` is 3), else the label itself (a house
    of the other row, refused as illegal)."""
    found: List[Move] = []
    if tier in ("final", "explicit"):
        for tok in _explicit_tokens(text, tier == "final"):
            label = _LABEL.fullmatch(tok)
            if tok.lower() == "swap":
                found.append("swap")
            elif label is not None and not label.group(2).isascii():
                found.append(_not_a_house(tok, _FOREIGN))
            elif label is not None:
                own = label.group(1).upper() == side
                found.append(int(label.group(2)) if own else tok.upper())
            else:
                v = _number_value(tok)
                if v is not None:
                    found.append(v)
    elif tier == "house":
        for m in _HOUSE_NUMBER.finditer(text):
            tok = m.group(1) or m.group(2)
            v = _number_value(tok)
            if v is not None:
                found.append(v)
    else:
        # Digits alone: a house's number of at most three digits 0-9; any other number skipped.
        found.extend(int(m.group(1)) for m in _BARE_NUMBER.finditer(text) if _BARE_HOUSE.fullmatch(m.group(1)))
        if _SWAP.search(text):
            found.append("swap")
    return found


def _bao_candidates(text: str, tier: str) -> List[Move]:
    if tier in ("final", "explicit"):
        return [t.upper() for t in _explicit_tokens(text, tier == "final") if _BAO_MARKED.fullmatch(t)]
    if tier == "house":
        return []
    return [m.group(1).upper() for m in _BAO_MOVE.finditer(text)]


def _bao_sentence_end(move: Move, legal: Sequence[Move]) -> Move:
    """A Bao la Kete move read with a trailing ``.``: the stop choice when the move with it
    is legal, else the end of the sentence (`Move: F7<.` is ``F7<``)."""
    if isinstance(move, str) and move.endswith(".") and move not in legal:
        return move[:-1]
    return move


def parse_move(game: Game, reply: str) -> Move:
    """The move ``reply`` names for the player to move in ``game``.

    The reply is read in four tiers, the first that names any move deciding: the last answer
    in the prompt's format (``Move: 4``, ``Answer: 4``, ``Final answer: house 4``), whatever
    the reasoning before or after it names (``If I play 1 ... Move: 3`` names 3); else every
    marked answer (``I will sow house 4``, ``my final answer is 4``); else
    numbers attached to a house word (``house 4``, ``pit #4``, ``the fourth house``); else any
    whole number in digits (or move text, in Bao la Kete) standing alone, and ``swap`` in
    Kalah. Markdown emphasis is ignored, letter case too. Within the deciding tier every
    move named must be the same one; moves joined to a marked answer by ``or``, ``/``,
    ``and`` or a comma are named too (``Move: 4 or 5`` names 4 and 5). A move the reply says
    it does not play (``don't swap``, ``no swap``, ``Move: not 2``) names nothing. A number
    with a minus sign (``-4``) is read as that negative number, so refused as illegal. A
    number is read whole, in every tier: with a multiplier word or in
    groups of three digits (``Move: one hundred``, ``Move: 1,000``) it is that whole number,
    illegal as no house (the Arabic thousands separator ``٬`` joins groups too); a decimal
    or a range (``Move: 3.5``, ``Move: 3٫5``, ``Move: 7-9``), or digits joined by any other
    mark outside ASCII that is no letter, digit, space or dash (``Move: 2·5``, ``2٬5``,
    ``1’000``), is no house's number: a tier that names one names no move, and the last
    tier skips it. Digits are 0-9, as the ``mancala`` command reads a move: a number in
    other decimal digits, which ``int()`` takes (Arabic-Indic ``٣``, full-width ``３``,
    ``Move: S٣``), is no house's number alike (and a reply naming no other, or a board
    label such as ``S٣`` alone, says so). A Bao la Kete
    marked answer naming a pit outside the rows (``Move: F9>``) is illegal alike. A
    period after a Bao la Kete move ends the sentence unless the move with the stop choice
    ``.`` is the legal one.

    Raises :class:`NoMoveError` when no tier names a move, :class:`AmbiguousMoveError` when
    the deciding tier names different moves, :class:`IllegalReplyError` when it names one move
    that is not legal here (a house that does not exist, is empty, ...), and ``ValueError`` for
    a finished game. ``TypeError`` when ``reply`` is not a ``str`` or ``game`` not a game of
    this package."""
    _check_game(game)
    if not isinstance(reply, str):
        raise TypeError(f"a reply is a str, not {type(reply).__name__}")
    if game.is_over():
        raise ValueError("the game is over: no move can be played")
    try:
        reply.encode("utf-8")
    except UnicodeEncodeError as e:
        # A lone surrogate: text decoded with errors="surrogateescape" from bytes that are
        # not UTF-8 (U+DC80..U+DCFF stand for the bytes 0x80..0xff).
        code = ord(reply[e.start])
        byte = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
        raise NoMoveError(f"the reply is not UTF-8 ({byte} at character {e.start})", reply) from None
    text = _clean(reply)
    legal = game.legal_moves()
    bao = game.kind == "Bao la Kete"
    for tier in ("final", "explicit", "house", "bare"):
        side = game.side_to_move.letter if game.side_to_move is not None else "S"
        found = _bao_candidates(text, tier) if bao else _house_candidates(text, tier, side)
        if bao:
            found = [_bao_sentence_end(m, legal) for m in found]
        if not isinstance(game, Kalah):
            found = [m for m in found if m != "swap"]
        if not found:
            continue
        distinct: List[Move] = []
        for m in found:
            if m not in distinct:
                distinct.append(m)
        if len(distinct) > 1:
            shown = ", ".join(_shown_number(m) if isinstance(m, int) else m for m in distinct)
            raise AmbiguousMoveError(f"the reply names several moves ({shown})", reply, distinct)
        (move,) = distinct
        if isinstance(move, _NotAHouse):
            raise NoMoveError(f"the reply names no move: {move} is {move.kind}, not a house's number", reply)
        if move not in legal:
            houses = getattr(game, "houses", None)
            if isinstance(move, int) and isinstance(houses, int) and not 1 <= move <= houses:
                shown = _shown_number(move)
                none = f"there is no house {shown}" if shown[0] in "-0123456789" else f"no house has {shown}"
                why = f"{none}: the houses are numbered 1 to {houses}" if houses > 1 else f"{none}: the only house is house 1"
            elif bao and isinstance(move, str) and not re.match(r"[FB][1-8](?!\d)", move):
                pit = _BAO_PIT.match(move)
                shown = pit.group() if pit is not None else move
                why = f"there is no pit {shown}: the pits are F1 to F8 and B1 to B8"
            elif not bao and isinstance(move, str) and _LABEL.fullmatch(move):
                rows = {"S": "South", "N": "North"}
                why = f"{move} is a house of {rows[move[0]]}'s row, and {rows[side]} is to move"
            else:
                trial = game.copy()
                try:
                    trial.play(move)
                    why = "not a legal move here"
                except MancalaError as e:
                    why = str(e)
                except (TypeError, ValueError, OverflowError) as e:
                    why = str(e)
            named = _shown_number(move) if isinstance(move, int) else move
            raise IllegalReplyError(f"the reply names {named}, which is illegal: {why}", reply, move)
        return move
    # A number the last tier skipped for its digits is said: a reply of ٣ alone is not
    # read as house 3, nor a board label in those digits (`S٣`) as one of South's houses.
    for number in _BARE_NUMBER.finditer(text):
        v = _number_value(number.group(1))
        if isinstance(v, _NotAHouse) and v.kind == _FOREIGN:
            raise NoMoveError(f"the reply names no move: {v} is {v.kind}, not a house's number", reply)
    if not bao:
        for label in _BARE_LABEL.finditer(text):
            if not label.group(2).isascii():
                raise NoMoveError(
                    f"the reply names no move: {label.group()} is {_FOREIGN}, not a house's number", reply
                )
    raise NoMoveError("the reply names no move", reply)


@dataclass
class TextPlayer:
    """A text player: ``reply`` (``str -> str``: the prompt in, the reply out) asked for each
    position with :func:`prompt` (``template``), its reply read by :func:`parse_move`. After an
    unreadable or illegal reply it is asked again, at most ``retries`` more times, with the
    prompt followed by a line saying what was wrong; when no reply gives a legal move the
    last :class:`ReplyError` is raised (a grader then counts the position as failed).
    A ``template`` that is not a ``str`` is a ``TypeError``, one with an unknown field a
    ``ValueError`` (:func:`check_template`), when the player is made.

    Calling it (``player(game)``) returns a move; a :class:`ReplyError` that ``reply``
    itself raises (:func:`program` for output that is not UTF-8) counts as such a reply,
    and so does a reply longer than :data:`MAX_REPLY_BYTES` in UTF-8 (a
    :class:`NoMoveError`, ``the reply is longer than 65,536 bytes``; it is not read). The
    counters say what happened over every call: ``asked`` (prompts sent, retries included),
    ``illegal`` (replies naming an illegal move), ``unreadable`` (replies naming no move or several), ``failed`` (positions with no
    legal move read after every retry).

    ``time``: the seconds the replies to one position may take in all; once they have
    passed no further reply is asked for (the last :class:`ReplyError` is raised), so that a
    slow player is not asked again and again for a move whose time is over. ``None`` (the
    default) sets no limit of its own; :func:`grade` gives it the grade's ``time``."""

    reply: Callable[[str], str]
    retries: int = 0
    template: Optional[str] = None
    time: Optional[float] = None
    asked: int = 0
    illegal: int = 0
    unreadable: int = 0
    failed: int = 0
    errors: List[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_template(self.template)
        if isinstance(self.retries, bool) or not isinstance(self.retries, int) or self.retries < 0:
            raise ValueError(f"retries must be a whole number of at least 0, not {self.retries!r}")
        if not callable(self.reply):
            raise TypeError("reply must be a function str -> str")
        if self.time is not None and (
            isinstance(self.time, bool)
            or not isinstance(self.time, (int, float))
            or not math.isfinite(self.time)
            or self.time <= 0
        ):
            raise ValueError(f"time must be None or a finite number of seconds above 0, not {self.time!r}")

    @property
    def __name__(self) -> str:
        """The player's name in a grading report: ``text player`` and the name of ``reply``
        (a function's name, or a :func:`program`'s command line)."""
        return f"text player {getattr(self.reply, '__name__', type(self.reply).__name__)}"

    def __call__(self, game: Game) -> Move:
        text = prompt(game, self.template)
        ask = text
        last: Optional[ReplyError] = None
        start = _monotonic()
        for attempt in range(self.retries + 1):
            if attempt > 0 and self.time is not None and _monotonic() - start >= self.time:
                break
            self.asked += 1
            try:
                # `reply` may itself refuse what it got (a program's output that is not
                # UTF-8: program()), as parse_move refuses a reply.
                answer = self.reply(ask)
                if not isinstance(answer, str):
                    raise TypeError(f"a text player's reply is a str, not {type(answer).__name__}")
                # A reply over the cap is not read (parse_move's time grows with its size):
                # a character is at least one byte, so a long str is refused uncounted.
                if len(answer) > MAX_REPLY_BYTES:
                    raise _too_long(f"at least {len(answer):,}", MAX_REPLY_BYTES, answer)
                size = len(answer.encode("utf-8", "surrogatepass"))
                if size > MAX_REPLY_BYTES:
                    raise _too_long(f"{size:,}", MAX_REPLY_BYTES, answer)
                return parse_move(game, answer)
            except ReplyError as e:
                last = e
                if isinstance(e, IllegalReplyError):
                    self.illegal += 1
                else:
                    self.unreadable += 1
                ask = f"{text}\n\nYour reply could not be played: {e}. Answer again."
        self.failed += 1
        assert last is not None
        self.errors.append(str(last))
        raise last


def program(command: Sequence[str], timeout: float = 60.0) -> Callable[[str], str]:
    """A text player's ``reply`` that runs ``command`` (a list of ``str``) once a prompt: the
    prompt on its standard input (UTF-8), its standard output the reply. A program that exits
    with a non-zero status or runs longer than ``timeout`` seconds raises ``RuntimeError``;
    one whose output is not UTF-8 raises :class:`NoMoveError` (``the reply is not UTF-8
    (byte 0xff at 6)``, the byte's offset from 0), and so does one whose output is longer
    than :data:`MAX_REPLY_BYTES` (``the reply is longer than 65,536 bytes``: the output is
    read no further and the program is stopped), which a :class:`TextPlayer` counts as an
    unreadable reply. The function's ``__name__`` is the command line (a grading report names the player by it).
    ``TypeError`` for a ``command`` that is not a non-empty list of ``str`` or a ``timeout``
    that is not a number, ``ValueError`` for a ``timeout`` that is not finite and above 0."""
    if isinstance(command, str) or not all(isinstance(c, str) for c in command) or not command:
        raise TypeError("command is a non-empty list of str, e.g. ['python3', 'player.py']")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"timeout must be a number of seconds, not {type(timeout).__name__}")
    if not math.isfinite(timeout) or timeout <= 0:
        raise ValueError(f"timeout must be a finite number of seconds above 0, not {timeout!r}")
    argv = list(command)

    def reply(text: str) -> str:
        data = text.encode("utf-8")
        deadline = _monotonic() + timeout
        # The standard error is never read (nor kept: a program may write much to it).
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        got = bytearray()

        def feed() -> None:
            # The prompt, in a thread of its own: a program that writes before it has read
            # the whole prompt cannot block it.
            try:
                assert proc.stdin is not None
                proc.stdin.write(data)
                proc.stdin.close()
            except OSError:
                pass

        def read() -> None:
            # The output up to one byte past the cap, and no further: each read takes what
            # the pipe holds (the file's buffer is never used).
            assert proc.stdout is not None
            fd = proc.stdout.fileno()
            while len(got) <= MAX_REPLY_BYTES:
                chunk = os.read(fd, MAX_REPLY_BYTES + 1 - len(got))
                if not chunk:
                    return
                got.extend(chunk)

        def stop() -> None:
            proc.kill()
            proc.wait()

        threads = [threading.Thread(target=f, daemon=True) for f in (feed, read)]
        for t in threads:
            t.start()
        threads[1].join(timeout)
        if threads[1].is_alive():
            stop()
            raise RuntimeError(f"{argv[0]} gave no reply within {timeout} s")
        if len(got) > MAX_REPLY_BYTES:
            stop()
            raise _too_long(None, MAX_REPLY_BYTES, bytes(got).decode("utf-8", "replace"))
        try:
            proc.wait(max(0.0, deadline - _monotonic()))
        except subprocess.TimeoutExpired:
            stop()
            raise RuntimeError(f"{argv[0]} gave no reply within {timeout} s") from None
        threads[0].join()
        if proc.returncode != 0:
            raise RuntimeError(f"{argv[0]} exited with status {proc.returncode}")
        # Read as bytes and decoded here: output that is not UTF-8 is an unreadable reply,
        # not a UnicodeDecodeError.
        return _utf8(bytes(got))

    # A grading report names the player by it (TextPlayer's name).
    reply.__name__ = shlex.join(argv)
    return reply


@dataclass
class TextGradeReport:
    """:func:`grade`'s result: ``report`` (the :class:`mancala.GradeReport` of the moves
    played), and the text player's counters (:class:`TextPlayer`): ``asked``, ``illegal``,
    ``unreadable``; ``failed`` counts the positions where the player gave no legal move
    (the report's ``failures``: none read after the retries, or a reply that raised)."""

    report: GradeReport
    asked: int
    illegal: int
    unreadable: int
    failed: int

    def __getattr__(self, name: str) -> Any:
        # The report's fields (optimal, mean_loss, ...) read through.
        return getattr(self.__dict__["report"], name)


def grade(
    player: Union[TextPlayer, Callable[[str], str]],
    positions: Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", Iterable[Kalah], Iterable[Oware], None] = None,
    *,
    retries: int = 0,
    template: Optional[str] = None,
    time: float = TEXT_TIME,
    **options: Any,
) -> TextGradeReport:
    """Grades a text player (a :class:`TextPlayer`, or a function ``str -> str`` made into
    one with ``retries`` and ``template``) on ``positions`` with :func:`mancala.grade` (the
    same ``options``: ``solver``, ``database``, ``grace``, ``take``, ...). ``time`` is the
    seconds a move may take, every retry included (default :data:`TEXT_TIME`, 60 s: a
    language model answers in seconds, not in :func:`mancala.grade`'s 1 s); a move that takes
    longer than ``time`` plus ``grace`` (default 0.5 s) is a failure. A position whose
    replies give no legal move is scored as the worst legal move and listed in the report's
    ``failures``, as for any player. No retry starts once ``time`` has passed since the
    move's first prompt (the player's own ``time`` when it has one). Raises ``TypeError`` (a ``template`` that is not a
    ``str``) or ``ValueError`` (a ``template`` with an unknown field, see :func:`prompt`)
    before any player is asked, and what :func:`mancala.grade` raises (``ValueError`` for a
    ``time`` under 0.001 s)."""
    check_template(template)
    tp = player if isinstance(player, TextPlayer) else TextPlayer(player, retries, template)
    check_template(tp.template)
    # No retry starts once the move's time is over (a player's own limit is kept).
    own_time = tp.time
    if own_time is None and isinstance(time, (int, float)) and not isinstance(time, bool) and time > 0:
        tp.time = float(time)
    try:
        report = _grade(tp, positions, time=time, **options)
    finally:
        tp.time = own_time
    # Every position the player failed: no legal move read, or its reply raised (a program
    # that cannot start or exits with an error).
    return TextGradeReport(report, tp.asked, tp.illegal, tp.unreadable, len(report.failures))


# --- The command line: `python -m mancala.text` -------------------------------------------

_USAGE = """python -m mancala.text prompt --rules R [--position P] [--moves M] [--template FILE]
python -m mancala.text parse  --rules R [--position P] [--moves M] [REPLY | -]
python -m mancala.text grade  --program "CMD ARG…" (--set FILE | --rules R --generate N)
                              [--seed S] [--retries K] [--template FILE] [--time T]
                              [--take N] [--json]"""


_RULES_HELP = "the rule set (default: standard, Kalah with 6 houses of 4 seeds)"


#: The characters the ``mancala`` command splits a move list at, besides commas: Unicode's
#: White_Space (Rust's ``char::is_whitespace``; ``str.split()`` also splits at U+001C-U+001F).
_MOVE_SPACE = re.compile("[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")


def _move_texts(moves: str) -> List[str]:
    """The move texts of ``--moves``, read as the ``mancala`` command reads a move list:
    separated by spaces, tabs or commas, with a move on each side of every comma; none for
    a blank text. Raises ``ValueError`` for an empty move (``--moves: a comma before the
    first move``, ``--moves: an empty move after move 1 (a comma with no move after it)``)."""
    texts: List[str] = []
    if not _MOVE_SPACE.sub("", moves):
        return texts
    for piece in moves.split(","):
        words = [w for w in _MOVE_SPACE.split(piece) if w]
        if not words:
            if not texts:
                raise ValueError("--moves: a comma before the first move")
            raise ValueError(f"--moves: an empty move after move {len(texts)} (a comma with no move after it)")
        texts.extend(words)
    return texts


def _game_of(rules: str, position: Optional[str], moves: Optional[str]) -> Game:
    """The game of ``rules`` at ``position`` after ``moves`` (``--moves``, :func:`_move_texts`).
    Raises what :func:`mancala.new_game` raises, ``ValueError`` for an empty move, and
    ``ValueError`` ``--moves: move 2: …`` naming the move (counted from 1) that cannot be
    played and why, as the ``mancala`` command says it."""
    from . import new_game

    game = new_game(rules, position)
    for number, text in enumerate(_move_texts(moves or ""), start=1):
        try:
            # Digits 0-9 alone, as the `mancala` command reads a move: `int()` takes others too.
            game.play(int(text) if text.isascii() and text.isdigit() else text)
        except (MancalaError, ValueError, TypeError, OverflowError) as e:
            raise ValueError(f"--moves: move {number}: {e}") from None
    return game


def _report_dict(r: TextGradeReport) -> Dict[str, Any]:
    g = r.report
    caveat = {"caveat": g.caveat} if g.caveat is not None else {}
    database = {"database": g.database} if g.database is not None else {}
    return {
        "player": g.player,
        "positions": g.positions,
        "optimal": g.optimal,
        "mean_loss": g.mean_loss,
        "worst_loss": g.worst_loss,
        "total_loss": g.total_loss,
        "failed": r.failed,
        "asked": r.asked,
        "illegal": r.illegal,
        "unreadable": r.unreadable,
        **database,
        **caveat,
    }


def _time_joined(argv: List[str]) -> List[str]:
    """``argv`` with ``--time VALUE`` joined into ``--time=VALUE`` when VALUE starts with
    ``-`` and reads as a number (``-inf``, ``-1e999``): argparse takes such a token for an
    option, not a value, and would print its usage instead of grade's one-line refusal of a
    time out of range. Every other token is kept as it is."""
    out: List[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--time" and i + 1 < len(argv) and argv[i + 1].startswith("-"):
            try:
                float(argv[i + 1])
            except ValueError:
                pass
            else:
                out.append(f"--time={argv[i + 1]}")
                i += 2
                continue
        out.append(token)
        i += 1
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m mancala.text``: text play for programs. ``prompt`` prints the prompt of a
    position; ``parse`` prints the move read out of a reply (the argument, or standard input
    with ``-`` or none; UTF-8), or says on standard error why none was read (``no move``, a
    reply that is not UTF-8 included, and one longer than :data:`MAX_REPLY_BYTES`, of which
    standard input is read one byte past the cap and no further, and a standard input that
    is closed; ``ambiguous``, ``illegal``) with exit status 1; a standard input that cannot
    be read is ``reading standard input: Bad file descriptor (os error 9)``, exit status 1
    (a directory, ``< /``, is refused by Python itself before this module runs: ``Fatal
    Python error: init_sys_streams: <stdin> is a directory, cannot continue``, exit status
    1); ``--moves``
    reads moves as the ``mancala`` command does (separated by spaces, tabs or commas, a move
    on each side of every comma; a house's number in the digits 0-9 alone), an empty move or
    one that cannot be played (``--moves: move 2: …``) an error in the arguments; ``grade`` grades a program that reads a
    prompt on its standard input and writes its reply (:func:`program`) on a positions file
    or a generated set, and prints the report (``--json``: one JSON object). Errors in the
    arguments (``--time`` under 0.001 s), rules, positions or template: one line on standard
    error, exit status 2. When standard output is closed before all is written (``| head``),
    it stops quietly with exit status 141, as the ``mancala`` command does (128 + SIGPIPE,
    the status a shell reports for a command ended by SIGPIPE); when writing it fails
    otherwise (a full disk), it says ``mancala.text: writing standard output: No space left
    on device (os error 28)`` on standard error with exit status 1, as the ``mancala``
    command does. Either way standard output is then pointed at ``os.devnull``, as Python's
    "Note on SIGPIPE" (the ``signal`` module's documentation) does, so that Python's final
    flush raises nothing. Returns the exit status."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m mancala.text", usage=_USAGE, description=main.__doc__)
    sub = parser.add_subparsers(dest="command", required=True, prog="python -m mancala.text")
    for name in ("prompt", "parse"):
        p = sub.add_parser(name)
        p.add_argument("--rules", default="standard", help=_RULES_HELP)
        p.add_argument("--position")
        p.add_argument("--moves", help="moves played from the position first, comma- or space-separated")
        if name == "prompt":
            p.add_argument("--template", help="a file holding the template (fields as TEMPLATE's)")
        else:
            p.add_argument("reply", nargs="?", default="-")
    g = sub.add_parser("grade")
    g.add_argument("--program", required=True, help="the player's command, e.g. \"python3 player.py\"")
    g.add_argument("--set", help="a positions file (mancala grade's format)")
    g.add_argument("--rules", default="standard", help=_RULES_HELP + " (for --generate)")
    g.add_argument("--generate", type=int, help="grade on this many generated positions of --rules")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--retries", type=int, default=0)
    g.add_argument("--template")
    g.add_argument(
        "--time",
        type=float,
        default=TEXT_TIME,
        help="seconds a move may take, retries included (default %(default)s; at least 0.001): "
        "the program is stopped after it and the position counted as failed",
    )
    g.add_argument("--take", type=int)
    g.add_argument("--json", action="store_true")
    args = parser.parse_args(_time_joined(sys.argv[1:] if argv is None else list(argv)))

    def fail(message: str, status: int = 2) -> int:
        print(f"mancala.text: {message}", file=sys.stderr)
        return status

    def away() -> None:
        # What is left in the buffer cannot be written either: Python's final flush would
        # fail again (a message and exit status 120).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())

    try:
        return _run(args, fail)
    except _StdoutClosed:
        away()
        return 141
    except _StdoutFailed as e:
        away()
        return fail(f"writing standard output: {e}", 1)


class _StdoutClosed(Exception):
    """Standard output was closed by its reader (a ``BrokenPipeError`` writing it)."""


class _StdoutFailed(Exception):
    """Writing standard output failed otherwise (a full disk: ``> /dev/full``); the text is
    the system's reason as the ``mancala`` command words it: ``No space left on device (os
    error 28)``."""


def _out(text: object) -> None:
    """Prints ``text`` and flushes standard output, so that a failed write is found here,
    not at Python's exit: ``_StdoutClosed`` when the reader went away, ``_StdoutFailed``
    for any other error."""
    import sys

    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise _StdoutClosed() from None
    except OSError as e:
        raise _StdoutFailed(_os_reason(e)) from None


def _os_reason(e: Exception) -> str:
    """The system's reason for a failed read or write, as the ``mancala`` command words it:
    ``No space left on device (os error 28)``; the error's text when it carries no error
    number (a ``ValueError`` of a closed file)."""
    if isinstance(e, OSError) and e.strerror and e.errno:
        return f"{e.strerror} (os error {e.errno})"
    return str(e) or type(e).__name__


def _seeds(n: int) -> str:
    """``n`` seeds in words, as the ``mancala`` command counts them: ``1 seed``, ``3 seeds``."""
    return f"{n} seed" if n == 1 else f"{n} seeds"


def _report_lines(report: TextGradeReport, player: str, rules: str) -> List[str]:
    """The lines of the text report of ``grade``, in the layout of ``mancala grade``'s: the
    keys ``player``, ``rules``, ``positions``, ``optimal``, ``mean loss``, ``worst loss`` and
    ``failures`` in a column 10 wide (``optimal    66.7 %``: the share in per cent, one
    decimal; ``mean loss  0.840 seeds``: three decimals; ``worst loss 3 seeds``), a line a
    failure, the table of the loss by seeds on the board and the worst positions, then, for
    an Oware set, ``database`` (where the exact values come from) and ``caveat`` as
    ``mancala grade`` prints them, and the lines it has not (the text player's ``asked``,
    ``illegal`` and ``unreadable``) in the same column. The JSON report keeps the full
    numbers."""
    g = report.report
    lines = [f"player     {player}", f"rules      {rules}"]
    if g.rules_refused is not None:
        lines.append(f"           (the program refused `rules {rules}`: {g.rules_refused})")
    lines += [
        f"positions  {g.positions}",
        f"optimal    {100.0 * g.optimal:.1f} %",
        f"mean loss  {g.mean_loss:.3f} seeds",
        f"worst loss {_seeds(g.worst_loss)}",
        f"failures   {len(g.failures)} (each scored as the worst legal move)",
    ]
    lines += [f"  #{m.index:<4} {m.position}  {m.verdict}  loss {m.loss}" for m in g.failures]
    lines += ["", "| seeds on board | positions | optimal | mean loss | worst loss |", "|---|---:|---:|---:|---:|"]
    lines += [
        f"| {b.min_seeds}..={b.max_seeds} | {b.positions} | {100.0 * b.optimal:.1f} % | {b.mean_loss:.3f} | {b.worst_loss} |"
        for b in g.by_seeds
    ]
    if g.worst:
        lines += ["", "worst positions:"]
        for m in g.worst:
            played = "-" if m.move is None else str(m.move)
            best = " ".join(str(b) for b in m.best_moves)
            lines.append(f"  #{m.index:<4} {m.position}  played {played} (loss {m.loss}), best {best} ({m.best:+d})")
    extra: Dict[str, Any] = {"database": g.database} if g.database is not None else {}
    if g.caveat is not None:
        extra["caveat"] = g.caveat
    extra.update(asked=report.asked, illegal=report.illegal, unreadable=report.unreadable)
    lines += [f"{key:<10} {value}" for key, value in extra.items()]
    return lines


class _RulesSeen(TextPlayer):
    """A :class:`TextPlayer` that keeps the rule set of the first game it is asked to move in
    (``rules``: its text as the game writes it, ``kalah(6,4)``), the set's rule set."""

    rules: Optional[str] = None

    def __call__(self, game: Game) -> Move:
        if self.rules is None:
            self.rules = game.rules
        return super().__call__(game)


def _run(args: Any, fail: Callable[..., int]) -> int:
    """The command ``args`` of :func:`main` (parsed); ``fail`` reports an error. Returns the
    exit status; raises ``_StdoutClosed`` when standard output is closed."""
    import json
    import shutil
    import sys

    try:
        template = None
        if getattr(args, "template", None):
            with open(args.template, "rb") as f:
                data = f.read()
            try:
                template = data.decode("utf-8")
            except UnicodeDecodeError as e:
                return fail(f"--template {args.template}: not UTF-8 (byte 0x{data[e.start]:02x} at {e.start})")
        check_template(template)
        if args.command == "prompt":
            _out(prompt(_game_of(args.rules, args.position, args.moves), template))
            return 0
        if args.command == "parse":
            game = _game_of(args.rules, args.position, args.moves)
            try:
                # The reply's bytes (an argument's as the system gave them), read as UTF-8,
                # to one byte past the cap, as TextPlayer and program() read a reply.
                size: Optional[str] = None
                if args.reply == "-":
                    # Standard input closed (`<&-`: no file at all) or unreadable is no reply.
                    if sys.stdin is None:
                        return fail("no move: standard input is closed: there is no reply to read", 1)
                    try:
                        data = sys.stdin.buffer.read(MAX_REPLY_BYTES + 1)
                    except (OSError, ValueError) as e:
                        # As the `mancala` command says it (`reading standard input: Bad
                        # file descriptor (os error 9)`); not the reply's fault, so no `no move`.
                        return fail(f"reading standard input: {_os_reason(e)}", 1)
                else:
                    data = os.fsencode(args.reply)
                    size = f"{len(data):,}"
                if len(data) > MAX_REPLY_BYTES:
                    raise _too_long(size, MAX_REPLY_BYTES, data.decode("utf-8", "replace"))
                _out(parse_move(game, _utf8(data)))
            except IllegalReplyError as e:
                return fail(f"illegal: {e}", 1)
            except AmbiguousMoveError as e:
                return fail(f"ambiguous: {e}", 1)
            except NoMoveError as e:
                return fail(f"no move: {e}", 1)
            return 0
        if (args.set is None) == (args.generate is None):
            return fail("grade needs --set FILE or --generate N (one of them)")
        # As text.grade(time=...) refuses it, before any program runs.
        if not math.isfinite(args.time) or args.time < 1e-3 or args.time > 1e9:
            return fail(f"--time {args.time}: a move needs at least 0.001 s (and at most 1e9 s)")
        command = shlex.split(args.program)
        if not command:
            return fail("--program is empty")
        if shutil.which(command[0]) is None:
            return fail(f"--program: cannot run {command[0]!r}: no such program")
        from . import generate_positions

        positions: Any = args.set if args.set is not None else generate_positions(
            args.rules, args.generate, seed=args.seed
        )
        options: Dict[str, Any] = {"seed": args.seed}
        if args.take is not None:
            options["take"] = args.take
        player = _RulesSeen(program(command, timeout=args.time), args.retries, template)
        report = grade(player, positions, time=args.time, **options)
        # Every position is asked for a move: the first one's game says the set's rules.
        rules = player.rules if player.rules is not None else args.rules
        # The player is the program, not the callable that runs it.
        fields = {**_report_dict(report), "player": args.program, "rules": rules}
        if args.json:
            _out(json.dumps(fields))
        else:
            for line in _report_lines(report, args.program, rules):
                _out(line)
        return 0
    except (MancalaError, ValueError, TypeError, OSError, RuntimeError) as e:
        return fail(str(e).splitlines()[0] if str(e) else type(e).__name__)


if __name__ == "__main__":
    raise SystemExit(main())
