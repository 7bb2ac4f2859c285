"""JSON states (`Game.to_dict`, `to_json`, `mancala.from_dict`): a property test over
seeded random games of every game of `GAME_KINDS`, the fields against values derived
independently from the game, and the refusals."""

from __future__ import annotations

import json
import random

import pytest

import mancala
from mancala import from_dict, from_json, new_game

RULES = [rules for _, _, rules in mancala.GAME_KINDS] + ["kalah(4,3)+pie_rule", "awari", "kalah(6,4)+empty_capture"]

KEYS = {
    "schema", "game", "rules", "start", "moves", "position", "side_to_move", "houses",
    "stores", "extra", "legal_moves", "over", "winner", "score",
}


def random_games(rules, count, seed):
    """`count` games of `rules`, each after a random number of random legal moves (some to
    the end)."""
    rng = random.Random(seed)
    for _ in range(count):
        g = new_game(rules)
        for _ in range(rng.randrange(0, 300)):
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rng.choice(moves))
        yield g


@pytest.mark.parametrize("rules", RULES)
def test_round_trips(rules):
    for g in random_games(rules, 12, seed=len(rules)):
        d = g.to_dict()
        assert set(d) == KEYS
        assert d["schema"] == 1
        text = g.to_json()
        assert json.loads(text) == d  # JSON-ready: nothing lost in the text
        back = from_dict(json.loads(text))
        assert back == g and type(back) is type(g)
        assert back.to_dict() == d
        assert from_json(g.to_json(indent=2)) == g
        assert mancala.Game.from_dict(d) == g
        # The derived fields say what the game says.
        assert d["game"] == g.kind and d["rules"] == g.rules
        assert d["moves"] == g.moves and d["legal_moves"] == g.legal_moves()
        assert d["position"] == g.notation() and d["over"] == g.is_over()
        stm = g.side_to_move
        assert d["side_to_move"] == (None if stm is None else str(stm))


def _seeds(d):
    houses = d["houses"]
    total = 0
    for side in ("South", "North"):
        h = houses[side]
        total += sum(h) if isinstance(h, list) else sum(h["front"]) + sum(h["back"])
        total += d["stores"][side]
    return total


@pytest.mark.parametrize("rules", RULES)
def test_every_seed_is_in_houses_or_stores(rules):
    # Seeds are neither made nor lost: the houses and stores of both sides hold the start's.
    start = _seeds(new_game(rules).to_dict())
    for g in random_games(rules, 6, seed=7):
        assert _seeds(g.to_dict()) == start


def test_kalah_fields():
    g = mancala.Kalah("standard")
    g.play(3)
    d = g.to_dict()
    assert d["houses"] == {"South": [4, 4, 0, 5, 5, 5], "North": [4] * 6}
    assert d["stores"] == {"South": 1, "North": 0}
    assert d["side_to_move"] == "South" and d["moves"] == [3]
    assert d["winner"] is None and d["score"] == 1 and not d["over"]
    h = mancala.Kalah("standard", position="0,0,0,0,0,1,20,0,0,0,0,0,2,25 S")
    h.play(6)
    d = h.to_dict()
    assert d["over"] and d["winner"] == "North" and d["score"] == -6 and d["legal_moves"] == []
    assert d["start"] == "0,0,0,0,0,1,20,0,0,0,0,0,2,25 S"


def test_history_survives():
    # Oware's repetition rule counts positions since the start: the record is replayed.
    for g in random_games("oware", 4, seed=3):
        back = from_dict(g.to_dict())
        assert back.moves == g.moves and back.is_over() == g.is_over()


def test_refusals():
    d = mancala.Kalah().to_dict()
    with pytest.raises(ValueError, match="schema"):
        from_dict({**d, "schema": 99})
    with pytest.raises(ValueError, match="moves"):
        from_dict({k: v for k, v in d.items() if k != "moves"})
    with pytest.raises(ValueError, match="position"):
        from_dict({**d, "moves": [3]})
    with pytest.raises(mancala.IllegalMoveError):
        from_dict({**d, "moves": [3, 3], "position": None})
    with pytest.raises(mancala.RulesError):
        from_dict({**d, "rules": "kalah(99,4)"})
    # A state whose game is not the game of its rules is refused, not read as the rules'.
    togyz = mancala.Togyz().to_dict()
    with pytest.raises(ValueError, match="Togyz Kumalak, not of the state's game 'Kalah'"):
        from_dict({**togyz, "game": "Kalah"})
    with pytest.raises(TypeError):
        from_dict("not a dict")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        from_json("{")


@pytest.mark.parametrize(
    "key, value", [("position", 5), ("rules", 5), ("start", 5), ("game", 5), ("rules", None), ("start", None)]
)
def test_a_field_of_the_wrong_type_is_a_type_error_naming_it(key, value):
    # A wrong type is a TypeError naming the field and the type, on one line; never a
    # ValueError about a value that does not match (5 is no position at all).
    game = mancala.Kalah()
    game.play(3)
    d = game.to_dict()
    with pytest.raises(TypeError) as refused:
        from_dict({**d, key: value})
    assert str(refused.value).startswith(f"{key} must be ")
    assert str(refused.value).endswith(f", not {type(value).__name__} ({value!r})")
    assert "\n" not in str(refused.value)



@pytest.mark.parametrize("move", [True, None, 3.0, [3], {}])
def test_a_move_of_the_wrong_type_is_a_type_error_naming_its_place(move):
    # The moves are read one by one: the second here is of the wrong type, so the message
    # names moves[1], whatever the game would say of the value.
    game = mancala.Kalah()
    game.play(3)
    d = game.to_dict()
    with pytest.raises(TypeError) as refused:
        from_dict({**d, "moves": [3, move], "position": None})
    assert str(refused.value).startswith("moves[1] must be a move (an int or a str), not ")
    assert type(move).__name__ in str(refused.value)


def test_a_long_or_multiline_value_is_cut_in_the_message():
    game = mancala.Kalah()
    d = game.to_dict()
    long_text = ["x" * 100_000]
    with pytest.raises(TypeError) as refused:
        from_dict({**d, "rules": long_text})
    message = str(refused.value)
    assert "\n" not in message and len(message) < 200 and message.endswith("…)")
    with pytest.raises(TypeError) as refused:
        from_dict({**d, "start": ["a\nb"]})
    assert "\n" not in str(refused.value)


def test_json_nested_too_deep_is_a_value_error():
    with pytest.raises(ValueError, match="nested too deep"):
        from_json("[" * 100_000)

def test_optional_fields_and_wrong_values():
    game = mancala.Kalah()
    game.play(3)
    d = game.to_dict()
    # `game` and `position` are only checked: null or absent, the state is read all the same.
    for key in ("game", "position"):
        assert from_dict({**d, key: None}) == game
        assert from_dict({k: v for k, v in d.items() if k != key}) == game
    # A wrong value of the right type stays a ValueError, and so does a missing required field.
    with pytest.raises(ValueError, match="^the moves reach .*, not the state's position '5'$"):
        from_dict({**d, "position": "5"})
    for key in ("schema", "rules", "start", "moves"):
        with pytest.raises(ValueError, match=f"^the state has no '{key}' field$"):
            from_dict({k: v for k, v in d.items() if k != key})


def _tampered(d):
    """Each derived field of the state ``d`` with a value its game cannot have: the field,
    the part of it that differs, the value written there and the game's value."""
    other_side = {"South": "North", "North": "South", None: "South"}
    houses = json.loads(json.dumps(d["houses"]))
    south = houses["South"]
    row = south if isinstance(south, list) else south["front"]
    row[0] += 1
    part = "houses.South[0]" if isinstance(south, list) else "houses.South.front[0]"
    stores = {**d["stores"], "North": d["stores"]["North"] + 1}
    return [
        ("score", "score", d["score"] + 1, d["score"]),
        ("over", "over", not d["over"], d["over"]),
        ("side_to_move", "side_to_move", other_side[d["side_to_move"]], d["side_to_move"]),
        ("winner", "winner", other_side[d["winner"]], d["winner"]),
        ("houses", part, row[0], row[0] - 1),
        ("stores", "stores.North", stores["North"], d["stores"]["North"]),
        ("legal_moves", "legal_moves", d["legal_moves"] + [999], d["legal_moves"]),
        ("extra", "extra", {**d["extra"], "more": 1}, d["extra"]),
    ]


@pytest.mark.parametrize("rules", RULES)
def test_derived_fields_are_checked_with_or_without_the_position(rules):
    for g in random_games(rules, 4, seed=len(rules) + 7):
        d = json.loads(g.to_json())
        without = {k: v for k, v in d.items() if k != "position"}
        # Every derived field agrees: read back, with or without the position, and with any
        # of them left out.
        assert from_dict(without) == g
        assert from_dict({k: v for k, v in without.items() if k not in ("score", "houses")}) == g
        for key, part, theirs, ours in _tampered(d):
            for state in (without, d):
                with pytest.raises(ValueError) as refused:
                    from_dict({**state, key: theirs} if key == part else {**state, key: _set(state, part, theirs)})
                message = str(refused.value)
                assert "\n" not in message
                assert message == f"the moves reach {part} {ours!r}, not the state's {part} {theirs!r}"


def _set(state, part, value):
    """The field of ``state`` that holds ``part`` (``houses.South[0]``, ``stores.North``),
    copied with ``value`` there."""
    key, _, rest = part.partition(".")
    field = json.loads(json.dumps(state[key]))
    if rest.endswith("[0]"):
        side, _, row = rest[:-3].partition(".")
        target = field[side] if not row else field[side][row]
        target[0] = value
    else:
        field[rest] = value
    return field


def test_a_derived_field_given_wrong_without_a_position_was_ignored_before():
    # The reproduction: a Kalah game after house 3 (an extra turn, South still to move),
    # its position left out and its score, a house and the side to move edited.
    game = mancala.Kalah("kalah(6,4)")
    game.play(3)
    d = game.to_dict()
    del d["position"]
    for key, value, field in [
        ("score", 99, "score 1, not the state's score 99"),
        ("side_to_move", "North", "side_to_move 'South', not the state's side_to_move 'North'"),
    ]:
        with pytest.raises(ValueError, match=f"^the moves reach {field}$"):
            from_dict({**d, key: value})


def test_numpy_values_of_the_derived_fields_count_as_their_python_values():
    # A state whose numbers came through NumPy (an RL pipeline's arrays): the same values,
    # read back; a different one still refused, naming it as Python writes it.
    np = pytest.importorskip("numpy")
    game = mancala.Kalah("kalah(6,4)")
    game.play(3)
    d = game.to_dict()
    south = d["houses"]["South"]
    state = {
        **d,
        "score": np.int64(d["score"]),
        "over": np.bool_(d["over"]),
        "houses": {**d["houses"], "South": np.array(south, dtype=np.uint8)},
    }
    assert from_dict(state) == game
    del state["position"]
    assert from_dict(state) == game
    with pytest.raises(ValueError, match=r"^the moves reach score 1, not the state's score 2$"):
        from_dict({**state, "score": np.int64(2)})
    wrong = np.array(south, dtype=np.uint8)
    wrong[0] += 1
    with pytest.raises(
        ValueError, match=rf"^the moves reach houses.South\[0\] {south[0]}, not the state's houses.South\[0\] {south[0] + 1}$"
    ):
        from_dict({**state, "houses": {**d["houses"], "South": wrong}})


@pytest.mark.parametrize(
    "rules, field, value, message",
    [
        ("standard", "score", "1", "score must be an int, not str ('1')"),
        ("standard", "over", 0, "over must be a bool, not int (0)"),
        ("standard", "winner", 1, "winner must be a str or null, not int (1)"),
        ("standard", "side_to_move", ["South"], "side_to_move must be a str or null, not list (['South'])"),
        ("standard", "houses", {"South": "4,4,0,5,5,5", "North": [4] * 6},
         "houses.South must be a list, not str ('4,4,0,5,5,5')"),
        ("standard", "stores", {"South": None, "North": 0}, "stores.South must be an int, not NoneType (None)"),
        ("standard", "legal_moves", [[1]], "legal_moves[0] must be a move (an int or a str), not list ([1])"),
        ("standard", "extra", {"swap_offered": "no", "swapped": False},
         "extra.swap_offered must be a bool, not str ('no')"),
        ("standard", "extra", None, "extra must be a dict, not NoneType (None)"),
        ("togyz-kumalak", "extra", {"tuzdyks": {"South": "3", "North": None}},
         "extra.tuzdyks.South must be an int or null, not str ('3')"),
        ("bao-la-kete", "houses", {"South": [0] * 16, "North": [0] * 16},
         "houses.South must be a dict, not list ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])"),
    ],
)
def test_a_derived_field_of_the_wrong_type_is_a_type_error_naming_it(rules, field, value, message):
    # A string where a number is wanted (or any other JSON type than the one `to_dict`
    # writes there) was a ValueError, "the moves reach score 1, not the state's score '1'":
    # a wrong type is a TypeError naming the part of the field, as for the other fields.
    game = new_game(rules)
    d = game.to_dict()
    for state in (d, {k: v for k, v in d.items() if k != "position"}):
        with pytest.raises(TypeError) as refused:
            from_dict({**state, field: value})
        assert str(refused.value) == message


def test_derived_types_are_checked_before_derived_values():
    # `score` comes before `winner`: a wrong value there does not hide a wrong type after it.
    d = mancala.Kalah().to_dict()
    with pytest.raises(TypeError, match=r"^winner must be a str or null, not int \(1\)$"):
        from_dict({**d, "score": 99, "winner": 1})
    # Of the right type, a wrong value stays a ValueError: null where the game has a side,
    # a side where it has null, an int of another value, a move list of another length.
    for field, value in (("side_to_move", None), ("winner", "North"), ("score", 7), ("legal_moves", [1])):
        with pytest.raises(ValueError, match=f"^the moves reach {field}"):
            from_dict({**d, field: value})
    # null is a value of the tuzdyks, and an int of the right value is read back.
    togyz = mancala.Togyz().to_dict()
    assert from_dict({**togyz, "extra": {"tuzdyks": {"South": None, "North": None}}}) == mancala.Togyz()
    with pytest.raises(ValueError, match=r"^the moves reach extra.tuzdyks.South None, not the state's extra.tuzdyks.South 3$"):
        from_dict({**togyz, "extra": {"tuzdyks": {"South": 3, "North": None}}})


def test_numpy_integers_are_integers_in_schema_and_moves():
    # "moves[0] must be a move (an int or a str), not int64" and "schema must be an
    # integer, not int64", while the derived fields took NumPy integers.
    np = pytest.importorskip("numpy")
    game = mancala.Kalah()
    game.play(3)
    d = game.to_dict()
    assert from_dict({**d, "schema": np.int64(d["schema"]), "moves": [np.int64(3)]}) == game
    assert from_dict({**d, "moves": [np.int32(3)]}) == game
    with pytest.raises(TypeError, match=r"^schema must be an integer, not bool"):
        from_dict({**d, "schema": np.bool_(True)})
    with pytest.raises(TypeError, match=r"^moves\[0\] must be a move \(an int or a str\), not float"):
        from_dict({**d, "moves": [np.float64(3.0)]})


def test_a_value_nested_too_deep_in_any_field_gets_a_one_line_message():
    # repr() of it raised RecursionError out of from_dict (from_json refuses such text).
    game = mancala.Kalah()
    game.play(3)
    d = game.to_dict()
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for key in list(d):
        for value in (deep, [deep]):
            with pytest.raises((TypeError, ValueError)) as refused:
                from_dict({**d, key: value})
            message = str(refused.value)
            assert "\n" not in message and len(message) < 200, (key, message)
            assert "nested too deep" in message, (key, message)


def test_a_float_legal_move_is_a_type_error_as_a_float_move_is():
    # `legal_moves: [1.0, ...]` was taken as the moves 1, ...: a float is no move, in
    # `legal_moves` as in `moves`, from a dict or from JSON text, a NumPy float too.
    np = pytest.importorskip("numpy")
    d = mancala.Kalah().to_dict()
    floats = [float(m) for m in d["legal_moves"]]
    with pytest.raises(TypeError) as refused:
        from_dict({**d, "legal_moves": floats})
    assert str(refused.value) == "legal_moves[0] must be a move (an int or a str), not float (1.0)"
    with pytest.raises(TypeError) as refused:
        from_json(json.dumps({**d, "legal_moves": floats}))
    assert str(refused.value) == "legal_moves[0] must be a move (an int or a str), not float (1.0)"
    with pytest.raises(TypeError, match=r"^legal_moves\[1\] must be a move \(an int or a str\), not float \(2\.0\)$"):
        from_dict({**d, "legal_moves": [1, np.float64(2.0), *d["legal_moves"][2:]]})
    # NumPy integers are the ints they hold, as before.
    assert from_dict({**d, "legal_moves": [np.int64(m) for m in d["legal_moves"]]}) == mancala.Kalah()


def test_every_move_s_type_is_checked_before_any_move_is_played():
    # moves=[7, None] raised IllegalMoveError for house 7 before the TypeError for None.
    d = mancala.Kalah().to_dict()
    for read in (lambda s: from_dict(s), lambda s: from_json(json.dumps(s))):
        with pytest.raises(TypeError) as refused:
            read({**d, "moves": [7, None], "position": None})
        assert str(refused.value) == "moves[1] must be a move (an int or a str), not NoneType (None)"
    # Of the right types, house 7 is still the game's IllegalMoveError.
    with pytest.raises(mancala.IllegalMoveError):
        from_dict({**d, "moves": [7, 1], "position": None})


def test_a_one_dimensional_integer_array_is_a_list_of_moves():
    # np.array([3, 1]) was refused ("moves must be a list of moves, not ndarray") while
    # [np.int64(3), np.int64(1)] was read.
    np = pytest.importorskip("numpy")
    game = mancala.Kalah()
    game.play(3)
    game.play(1)
    d = game.to_dict()
    for dtype in (np.int64, np.int8, np.uint8, np.uint64):
        assert from_dict({**d, "moves": np.array([3, 1], dtype=dtype)}) == game
    assert from_dict({**d, "moves": [np.int64(3), np.int64(1)]}) == game
    # No move at all: `np.array([])` is of floats (NumPy's default dtype), and holds no float.
    assert from_dict({**mancala.Kalah().to_dict(), "moves": np.array([])}) == mancala.Kalah()
    # Another dtype or shape is refused whole, naming the field.
    for bad in (np.array([3.0, 1.0]), np.array([[3, 1]]), np.array(3), np.array(["3", "1"]), np.array([True, False])):
        with pytest.raises(TypeError) as refused:
            from_dict({**d, "moves": bad})
        # "1 dimension", "2 dimensions", "0 dimensions": the noun agrees with the number.
        dimensions = {0: "0 dimensions", 1: "1 dimension", 2: "2 dimensions"}[bad.ndim]
        assert str(refused.value).startswith(
            f"moves must be a list of moves or a one-dimensional array of integers, not an array of {bad.dtype} "
            f"of {dimensions} ("
        )


def test_a_numpy_array_of_the_wrong_type_is_named_as_an_array():
    # `tuzdyks.North=np.array([3])` was named "not list ([3])", the list NumPy makes of it.
    np = pytest.importorskip("numpy")
    d = mancala.Togyz().to_dict()
    with pytest.raises(TypeError) as refused:
        from_dict({**d, "extra": {"tuzdyks": {"South": None, "North": np.array([3])}}})
    assert str(refused.value) == "extra.tuzdyks.North must be an int or null, not ndarray (array([3]))"
    with pytest.raises(TypeError) as refused:
        from_dict({**d, "score": np.array([0])})
    assert str(refused.value) == "score must be an int, not ndarray (array([0]))"


def test_a_float_in_an_integer_field_is_a_type_error():
    # `score=0.0`, `houses.South[0]=9.0` and `stores.South=10.0` were read as the ints they
    # equal, while `schema: 1.0` and `score: true` were refused: a float is refused in every
    # integer field, from a dict or from JSON text, a NumPy float too.
    np = pytest.importorskip("numpy")
    game = mancala.Kalah("kalah(6,9)")
    game.play(1)
    d = game.to_dict()
    # Kalah(6,9) after house 1: house 1 is empty, the other five hold 10, the store 1
    # (9 seeds sown: houses 2-6, the store, North's houses 1-3), North to move.
    assert d["houses"]["South"] == [0, 10, 10, 10, 10, 10] and d["stores"]["South"] == 1
    north = d["houses"]["North"]
    togyz = mancala.Togyz().to_dict()
    cases = [
        (d, "score", float(d["score"]), "score", "an int"),
        (d, "houses", {"South": [0.0] + d["houses"]["South"][1:], "North": north}, "houses.South[0]", "an int"),
        (d, "stores", {"South": 1.0, "North": 0}, "stores.South", "an int"),
        (d, "stores", {"South": 1, "North": np.float64(0.0)}, "stores.North", "an int"),
        (d, "houses", {"South": np.array(d["houses"]["South"], dtype=float), "North": north}, "houses.South[0]", "an int"),
        (togyz, "extra", {"tuzdyks": {"South": 3.0, "North": None}}, "extra.tuzdyks.South", "an int or null"),
    ]
    for state, key, value, field, wanted in cases:
        for read in (from_dict, lambda s: from_json(json.dumps(s, default=lambda a: a.tolist()))):
            with pytest.raises(TypeError) as refused:
                read({**state, key: value})
            shown = str(refused.value)
            assert shown.startswith(f"{field} must be {wanted}, not float ("), shown
    # NumPy integers are still ints, and the ints themselves are read back.
    assert from_dict({**d, "score": np.int64(d["score"]), "stores": {"South": np.int32(1), "North": 0}}) == game


def test_a_wrong_type_beyond_the_legal_moves_reached_is_a_type_error():
    # legal_moves=[1, 2, 3, None] was the TypeError for None, [1, 2, 3, 4, None] (one item
    # more than Kalah(4,3)'s four legal moves) the ValueError of another length: every
    # item's type is checked before the lengths and values are compared.
    d = mancala.Kalah("kalah(4,3)").to_dict()
    assert d["legal_moves"] == [1, 2, 3, 4]
    for given, place in (([1, 2, 3, None], 3), ([1, 2, 3, 4, None], 4), ([1, 2, 3, 4, 5, 6.0], 5)):
        for read in (lambda s: from_dict(s), lambda s: from_json(json.dumps(s))):
            with pytest.raises(TypeError) as refused:
                read({**d, "legal_moves": given})
            shown = repr(given[place])
            assert str(refused.value) == (
                f"legal_moves[{place}] must be a move (an int or a str), not {type(given[place]).__name__} ({shown})"
            )
    # Of the right types, one move too many is still the ValueError of a value that differs.
    with pytest.raises(ValueError, match=r"^the moves reach legal_moves "):
        from_dict({**d, "legal_moves": [1, 2, 3, 4, 5]})
    # The same for a row of houses given one house too many: a str there is no int.
    south = d["houses"]["South"]
    with pytest.raises(TypeError, match=r"^houses\.South\[4\] must be an int, not str \('3'\)$"):
        from_dict({**d, "houses": {"South": [*south, "3"], "North": d["houses"]["North"]}})
    # After the game is over there is no legal move: any item given is still a move or not.
    over = mancala.Kalah("kalah(1,1)")
    over.play(1)
    assert over.is_over() and over.to_dict()["legal_moves"] == []
    with pytest.raises(TypeError, match=r"^legal_moves\[0\] must be a move"):
        from_dict({**over.to_dict(), "legal_moves": [None]})
