"""Game states as plain data: :func:`to_dict` / :func:`to_json` give a JSON-ready
``dict`` of any game (schema in ``docs/python.md``, "JSON states"), and :func:`from_dict`
/ :func:`from_json` make the game back, its history included (the record replays the moves
from the start, so rules that depend on the history, such as Oware's repetition rule, count
as they did)."""

from __future__ import annotations

import json
import math
import operator
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import _mancala
from ._mancala import Bao, Game, Kalah, Oware, Side, Togyz

#: The version of the schema :func:`to_dict` writes; :func:`from_dict` reads this one.
SCHEMA_VERSION = 1

_SIDES = (Side.SOUTH, Side.NORTH)


def _side(side: Any) -> Any:
    return None if side is None else str(side)


def _row_board(game: Any) -> Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any]]:
    """Kalah and Oware: houses 1..h of each side (from its owner's left) and the stores."""
    b = [int(v) for v in game.board]
    h = len(b) // 2 - 1
    houses = {"South": b[:h], "North": b[h + 1 : 2 * h + 1]}
    stores = {"South": b[h], "North": b[2 * h + 1]}
    return houses, stores, {}


def _kalah(game: Any) -> Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any]]:
    houses, stores, _ = _row_board(game)
    return houses, stores, {"swap_offered": bool(game.swap_offered), "swapped": bool(game.swapped)}


def _bao(game: Any) -> Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any]]:
    board = game.board
    houses = {
        str(s): {"front": [int(v) for v in board[int(s)][0]], "back": [int(v) for v in board[int(s)][1]]}
        for s in _SIDES
    }
    reserves = game.reserves
    stores = {str(s): int(reserves[int(s)]) for s in _SIDES}
    kuu = game.kuu_stands
    reserved = game.reserved
    extra = {
        "kuu_stands": {"South": bool(kuu[0]), "North": bool(kuu[1])},
        "reserved": None if reserved is None else {"side": str(reserved[0]), "pit": int(reserved[1])},
        "block_turns_left": int(game.block_turns_left),
    }
    return houses, stores, extra


def _togyz(game: Any) -> Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any]]:
    """Togyz Kumalak: houses and kazans as Oware's, and the tuzdyk each side owns (the
    number of a house of the other row, ``None`` before one is made)."""
    houses, stores, _ = _row_board(game)
    return houses, stores, {"tuzdyks": {str(s): game.tuzdyk(s) for s in _SIDES}}


#: Each game's class: its houses by side, its stores (Bao la Kete: the reserves) by side,
#: and what else its position holds. A game missing here is refused by :func:`to_dict`.
BOARDS: Dict[type, Callable[[Any], Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any]]]] = {
    Kalah: _kalah,
    Bao: _bao,
    Oware: _row_board,
    Togyz: _togyz,
}


def to_dict(game: Game) -> Dict[str, Any]:
    """The state of ``game`` as a JSON-ready ``dict`` (schema version
    :data:`SCHEMA_VERSION`, ``docs/python.md``): ``schema``, ``game`` (the game's name),
    ``rules``, ``start`` and ``position`` (notation), ``moves`` (every move since the
    start), ``side_to_move`` (``"South"``, ``"North"``, ``None`` once over), ``houses`` and
    ``stores`` by side, ``extra`` (what else the game's position holds), ``legal_moves``,
    ``over``, ``winner`` (``"South"``, ``"North"``, ``None``) and ``score`` (South minus
    North, as :meth:`Game.score`). Raises ``TypeError`` for an object that is no game."""
    board = BOARDS.get(type(game))
    if board is None:
        raise TypeError(f"to_dict takes a game (Kalah, Bao, Oware, ...), not {type(game).__name__}")
    houses, stores, extra = board(game)
    over = game.is_over()
    return {
        "schema": SCHEMA_VERSION,
        "game": game.kind,
        "rules": game.rules,
        "start": game.start_notation(),
        "moves": list(game.moves),
        "position": game.notation(),
        "side_to_move": _side(game.side_to_move),
        "houses": houses,
        "stores": stores,
        "extra": extra,
        "legal_moves": list(game.legal_moves()),
        "over": over,
        "winner": _side(game.winner()) if over else None,
        "score": int(game.score()),
    }


#: The most spaces :func:`to_json` indents by: far beyond any use, and small enough that
#: the text stays small (an indent of 10**8 spaces a line would take gigabytes, one above
#: ``sys.maxsize`` raised ``OverflowError``).
MAX_INDENT = 1000


def to_json(game: Game, indent: Optional[int] = None) -> str:
    """:func:`to_dict` as JSON text, on one line or indented by ``indent`` spaces (``None``
    or an integer from 0 to :data:`MAX_INDENT`, 1000). Raises ``ValueError`` naming
    ``indent`` for one out of that range, ``TypeError`` for a bool or a non-integer."""
    if indent is not None:
        if isinstance(indent, bool):
            raise TypeError(f"indent must be None or an integer, not a bool ({indent!r})")
        try:
            indent = operator.index(indent)
        except TypeError:
            raise TypeError(f"indent must be None or an integer, not {type(indent).__name__} ({indent!r})") from None
        if indent < 0:
            raise ValueError(f"indent must be None or at least 0, got {indent}")
        if indent > MAX_INDENT:
            raise ValueError(f"indent must be None or at most {MAX_INDENT}, got {indent}")
    return json.dumps(to_dict(game), indent=indent)


#: The most bits of an integer a message writes out (2**190 has 58 digits); a longer one is
#: shown by its size, as Python refuses to write one of more than 4300 digits and a shorter
#: one would still fill the message.
SHOWN_BITS = 190


def _shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` on one line and at most ``limit`` characters (cut with "…"), for
    messages; never raises. An ``int`` beyond :data:`SHOWN_BITS` bits is shown by its size
    (``an integer of at least 5000 digits``) without writing it out, a value nested too deep
    for ``repr`` (a list in a list, 100000 deep) as ``a list nested too deep to show``, one
    whose ``repr`` raises as ``a <type> that repr() cannot show``."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > SHOWN_BITS:
        # At least 2**(bits - 1): the digits of that power of two.
        digits = math.floor((value.bit_length() - 1) * math.log10(2)) + 1
        return f"{'a negative' if value < 0 else 'an'} integer of at least {digits} digits"
    try:
        text = repr(value).replace("\n", "\\n")
    except RecursionError:
        text = f"a {type(value).__name__} nested too deep to show"
    except Exception:
        text = f"a {type(value).__name__} that repr() cannot show"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _text(data: Dict[str, Any], key: str, what: str) -> str:
    """The required field ``key`` of a state, a ``str`` (``what`` it holds, for the
    message). Raises ``ValueError`` when it is absent, ``TypeError`` naming the key for a
    value of another type (``None`` included)."""
    if key not in data:
        raise ValueError(f"the state has no {key!r} field")
    value = data[key]
    if not isinstance(value, str):
        raise TypeError(f"{key} must be {what} (a str), not {type(value).__name__} ({_shown(value)})")
    return value


def _optional_text(data: Dict[str, Any], key: str, what: str) -> Optional[str]:
    """The optional field ``key`` of a state: ``None`` when it is absent or ``None``, else a
    ``str`` (``what`` it holds, for the message). Raises ``TypeError`` naming the key for a
    value of another type."""
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{key} must be {what} (a str) or null, not {type(value).__name__} ({_shown(value)})")
    return value


#: The fields of a state that :func:`to_dict` derives from the game reached, which
#: :func:`from_dict` checks against it when they are given (``game`` and ``position`` are
#: checked too, with their own messages).
DERIVED = ("side_to_move", "houses", "stores", "extra", "legal_moves", "over", "winner", "score")


def _plain(value: Any) -> Any:
    """A NumPy scalar or array as the Python value JSON has (``np.int64(3)`` is ``3``,
    ``np.bool_(True)`` is ``True``, an array its nested list); any other value unchanged."""
    tolist = getattr(value, "tolist", None)
    if callable(tolist) and type(value).__module__ == "numpy":
        return tolist()
    return value


def _same(given: Any, reached: Any) -> bool:
    """Whether a field's ``given`` value is the value ``reached`` as JSON has it: equal, a
    bool only equal to a bool (``1`` is not ``True``), a float to nothing (``3.0`` is not
    ``3``), lists and tuples alike, NumPy scalars
    and arrays as their Python values."""
    given = _plain(given)
    if isinstance(given, bool) or isinstance(reached, bool):
        return isinstance(given, bool) and isinstance(reached, bool) and given == reached
    if isinstance(given, dict) and isinstance(reached, dict):
        return given.keys() == reached.keys() and all(_same(given[k], reached[k]) for k in given)
    if isinstance(given, (list, tuple)) and isinstance(reached, (list, tuple)):
        return len(given) == len(reached) and all(_same(a, b) for a, b in zip(given, reached))
    return type(given) in (int, str, type(None)) and given == reached


#: The parts of the derived fields that may be ``None`` (JSON ``null``), with the type of
#: their other values: any other part of a derived field holds one JSON type only.
NULLABLE = {
    "side_to_move": "a str",
    "winner": "a str",
    "extra.reserved": "a dict",
    "extra.tuzdyks.South": "an int",
    "extra.tuzdyks.North": "an int",
}


def _json_type(value: Any) -> str:
    """The JSON type of ``value`` in the words of a message: ``"a bool"``, ``"an int"``
    (a NumPy integer too), ``"a float"`` (``3.0`` does not stand for ``3``: every number
    :func:`to_dict` writes is an int), ``"a str"``, ``"null"``, ``"a list"`` (a tuple too),
    ``"a dict"``, else the name of its Python type."""
    value = _plain(value)
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, int):
        return "an int"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a str"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a dict"
    return type(value).__name__


def _wrong_type(path: str, given: Any, reached: Any) -> Optional[Tuple[str, Any, str]]:
    """The first part under ``path`` (``houses.South``, ``legal_moves[2]``) where ``given``
    is of another JSON type than ``reached``, the value :func:`to_dict` gives there, with the
    value given (a NumPy array as given, a NumPy scalar as its Python value) and the type
    wanted in words; ``None`` when every part has its type (the values may still differ).
    A part of :data:`NULLABLE` may be ``null`` or of its type; a legal move an int or a
    str. Dicts are compared over the keys both have (a different set
    of keys is a value that differs); every item of a list given is checked, those beyond
    the length of ``reached`` too (a legal move as any move, an item of a list whose items
    share one type as that type), so a wrong type is named before a different length."""
    given, as_given = _plain(given), given
    if getattr(as_given, "ndim", 0) == 0:
        # A NumPy scalar is named as the Python value it holds (`float`, not `float64`).
        as_given = given
    theirs, ours = _json_type(given), _json_type(reached)
    if path.startswith("legal_moves["):
        # A move is an int or a str, as in `moves`: a float (`1.0`) is no move.
        move = theirs in ("an int", "a str")
        return None if move else (path, as_given, "a move (an int or a str)")
    if path in NULLABLE:
        wanted = ("null", NULLABLE[path])
        return None if theirs in wanted else (path, as_given, f"{NULLABLE[path]} or null")
    if theirs != ours:
        return path, as_given, ours
    if isinstance(given, dict):
        for key in reached:
            if key in given:
                wrong = _wrong_type(f"{path}.{key}", given[key], reached[key])
                if wrong is not None:
                    return wrong
    elif isinstance(given, (list, tuple)):
        # Every item given, those beyond the length reached too: a legal move's type is
        # its own (any move), an item of a list whose items share one type (the houses of
        # a row) has that type.
        alike = {_json_type(b) for b in reached}
        for i, a in enumerate(given):
            if i < len(reached):
                b = reached[i]
            elif path == "legal_moves" or len(alike) == 1:
                b = reached[-1] if reached else None
            else:
                break
            wrong = _wrong_type(f"{path}[{i}]", a, b)
            if wrong is not None:
                return wrong
    return None


def _first_difference(path: str, given: Any, reached: Any) -> Tuple[str, Any, Any]:
    """The deepest field under ``path`` where ``given`` and ``reached`` differ (``houses.South``,
    ``legal_moves[2]``), with both values there."""
    given = _plain(given)
    if isinstance(given, dict) and isinstance(reached, dict) and given.keys() == reached.keys():
        for k in reached:
            if not _same(given[k], reached[k]):
                return _first_difference(f"{path}.{k}", given[k], reached[k])
    if (
        isinstance(given, (list, tuple))
        and isinstance(reached, (list, tuple))
        and len(given) == len(reached)
    ):
        for i, (a, b) in enumerate(zip(given, reached)):
            if not _same(a, b):
                return _first_difference(f"{path}[{i}]", a, b)
    return path, given, reached


def _moves(moves: Any) -> List[Any]:
    """The ``moves`` field of a state as a list of ints and strs, every element's type
    checked before any move is played: a list or a tuple of moves (ints, strs, NumPy
    integers and strings, as their Python values), or a one-dimensional NumPy array of
    integers (an empty one of any dtype: ``np.array([])`` is of floats). Raises
    ``TypeError`` naming the field for anything else (an array of another dtype or shape
    included), or naming the first element that is no move (``moves[1]``; a bool, a float
    or ``None``)."""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(moves, np.ndarray):
        # An array of moves is one of house numbers (an array of strs is not read as
        # moves: its dtype cuts the texts to one length).
        if moves.ndim != 1 or (moves.dtype.kind not in "iu" and moves.size > 0):
            dimensions = "1 dimension" if moves.ndim == 1 else f"{moves.ndim} dimensions"
            raise TypeError(
                f"moves must be a list of moves or a one-dimensional array of integers, not an "
                f"array of {moves.dtype} of {dimensions} ({_shown(moves)})"
            )
        return list(moves.tolist())
    if not isinstance(moves, (list, tuple)):
        raise TypeError(f"moves must be a list of moves, not {type(moves).__name__} ({_shown(moves)})")
    played: List[Any] = []
    for i, mv in enumerate(moves):
        mv = _plain(mv)
        if isinstance(mv, bool) or not isinstance(mv, (int, str)):
            raise TypeError(f"moves[{i}] must be a move (an int or a str), not {type(mv).__name__} ({_shown(mv)})")
        played.append(mv)
    return played


def from_dict(data: Dict[str, Any]) -> Game:
    """The game a :func:`to_dict` ``dict`` describes: its ``rules`` from its ``start``
    after its ``moves``. The other fields are derived, and only checked when given (any of
    them may be left out): the game of the rules must be ``game``, the position reached must
    be ``position``, and each of :data:`DERIVED` (``side_to_move``, ``houses``, ``stores``,
    ``extra``, ``legal_moves``, ``over``, ``winner``, ``score``) must be what :func:`to_dict`
    gives of the game reached, with or without ``position``. Raises ``ValueError`` for
    another schema version, a missing field, or a game, position or derived field that does
    not match (one line naming the field, down to the part that differs, such as
    ``houses.South``, and both values); ``TypeError`` naming the field for one of the
    wrong type: a ``schema`` that is not an integer (a bool or a float included; a NumPy
    integer is one, as in the derived fields), ``rules`` or ``start`` that are not strings,
    ``game`` or ``position`` that are neither strings nor ``None``, ``moves`` that are not a
    list (or a tuple, or a one-dimensional NumPy array of integers) or hold something else
    than ints and strs (NumPy's included), every move's type checked before any is played, or
    a derived field, or a part of one, of
    another JSON type than :func:`to_dict` gives there (``"score": "1"``, a list for
    ``houses.South`` of Bao la Kete, ``1`` for ``over``; ``null`` only where :data:`NULLABLE`
    allows it; a float in any integer field, ``"score": 0.0`` or ``9.0`` for a house, as
    in ``schema``; a legal move is an int or a str), named down to that part, all
    derived fields' types checked before any
    value; ``RulesError``, ``NotationError`` or ``IllegalMoveError`` for what the game
    refuses. A value nested too deep for ``repr`` (a list in a list, 100000 deep) is named
    in the message by its type (``a list nested too deep to show``); should the state be
    nested too deep for anything else, ``ValueError`` "the state is nested too deep to
    read", as :func:`from_json` says."""
    try:
        return _from_dict(data)
    except RecursionError:
        raise ValueError("the state is nested too deep to read") from None


def _from_dict(data: Dict[str, Any]) -> Game:
    """:func:`from_dict` without its guard against ``RecursionError``."""
    if not isinstance(data, dict):
        raise TypeError(f"from_dict takes a dict, not {type(data).__name__}")
    if "schema" not in data:
        raise ValueError("the state has no 'schema' field")
    # A NumPy integer is the int it holds, as in the derived fields.
    version = _plain(data["schema"])
    if isinstance(version, bool) or not isinstance(version, int):
        raise TypeError(f"schema must be an integer, not {type(version).__name__} ({_shown(version)})")
    if version != SCHEMA_VERSION:
        raise ValueError(f"schema version {_shown(version)} is not one this package reads ({SCHEMA_VERSION})")
    # Every field read is checked before any is used: a wrong type is named as such, never
    # reported as a value that does not match.
    rules = _text(data, "rules", "a rule set")
    start = _text(data, "start", "a position in notation")
    if "moves" not in data:
        raise ValueError("the state has no 'moves' field")
    moves = _moves(data["moves"])
    kind = _optional_text(data, "game", "a game's name")
    position = _optional_text(data, "position", "a position in notation")
    cls = getattr(_mancala, _mancala.game_class(rules))
    game: Game = cls(rules, position=start)
    if kind is not None and kind != game.kind:
        raise ValueError(f"the rules {rules!r} are of {game.kind}, not of the state's game {kind!r}")
    for mv in moves:
        game.play(mv)
    if position is not None and position != game.notation():
        raise ValueError(f"the moves reach {game.notation()!r}, not the state's position {position!r}")
    given = [key for key in DERIVED if key in data]
    if given:
        reached = to_dict(game)
        # Every derived field's type first: a wrong type is named as such, never reported
        # as a value that does not match.
        for key in given:
            wrong = _wrong_type(key, data[key], reached[key])
            if wrong is not None:
                field, value, wanted = wrong
                raise TypeError(f"{field} must be {wanted}, not {type(value).__name__} ({_shown(value)})")
        for key in given:
            if not _same(data[key], reached[key]):
                field, theirs, ours = _first_difference(key, data[key], reached[key])
                raise ValueError(
                    f"the moves reach {field} {_shown(ours, 200)}, not the state's {field} {_shown(theirs, 200)}"
                )
    return game


def from_json(text: str) -> Game:
    """The game of a :func:`to_json` text, as :func:`from_dict` (and its errors; ``ValueError``
    for text that is not JSON, or nested too deep to read)."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError("the state's JSON is nested too deep to read") from None
    return from_dict(data)
