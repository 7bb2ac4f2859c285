"""`mancala.Database`: the one database class of every game (docs/python.md), its kinds `Egdb`
(Kalah) and `AwariDb` (Oware), and the older names kept one release with a
`DeprecationWarning`. Kalah values are checked against the exact solver (a search,
independent of the retrograde build), Oware values on boards worked out by hand from the
rules (OW-n.m of docs/rules/oware.md)."""

from __future__ import annotations

import errno
import random
from pathlib import Path

import pytest

import mancala
from mancala import AwariDb, Database, DatabaseError, DatabaseExistsError, Egdb, Engine, Kalah, Oware


@pytest.fixture(scope="module")
def oware_db() -> Database:
    return Database.build("awari", 8, threads=1)


@pytest.fixture(scope="module")
def kalah_db() -> Database:
    return Database.build("kalah(3,3)", 8, threads=1, encoding="packed")


def test_build_gives_the_kind_of_the_game(oware_db: Database, kalah_db: Database) -> None:
    assert isinstance(oware_db, AwariDb) and isinstance(oware_db, Database)
    assert isinstance(kalah_db, Egdb) and isinstance(kalah_db, Database)
    assert (oware_db.game, oware_db.rules, oware_db.max_seeds) == ("Oware", "awari", 8)
    # Sum over n = 0..8 of C(n+11,11) - C(n+5,11) boards (OW-11.1), one byte each.
    assert (oware_db.entries, oware_db.encoding, oware_db.memory_bytes) == (125879, "byte", 125879)
    assert (kalah_db.game, kalah_db.rules, kalah_db.max_seeds) == ("Kalah", "kalah(3,3)", 8)
    # C(8 + 6, 6) positions; packed: ceil(log2(8 + 2)) = 4 bits an entry, 8 bytes of padding.
    assert (kalah_db.entries, kalah_db.encoding, kalah_db.bits_per_entry) == (3003, "packed", 4)
    assert kalah_db.memory_bytes == (3003 * 4 + 7) // 8 + 8
    assert kalah_db.description == "kalah(3,·), K = 8"


def test_oware_values_worked_out_by_hand(oware_db: Database) -> None:
    # OW-11.3: South's only seed in S6 sows N1 (1 -> 2), captured; nothing is left: +2.
    g = Oware("awari", position="0,0,0,0,0,1,23,1,0,0,0,0,0,23 S")
    assert oware_db.value(g) == 2
    assert oware_db.move_values(g) == {6: 2}
    # Nine seeds in the houses: not held.
    g = Oware("awari", position="2,2,2,0,0,0,19,1,1,1,0,0,0,20 S")
    assert oware_db.value(g) is None and oware_db.move_values(g) is None
    # Another rule set, another game: refused, naming why.
    with pytest.raises(DatabaseError):
        oware_db.value(Oware("oware", position="0,0,0,0,0,1,23,1,0,0,0,0,0,23 S"))
    with pytest.raises(DatabaseError, match="not those of a Kalah game"):
        oware_db.value(Kalah("kalah(3,3)"))


@pytest.mark.parametrize(
    ("rules", "database", "value"),
    [
        # S6 sows N1 (1 -> 2) and leaves North no seed: a grand slam. `all` captures the 2.
        ("awari+grand_slam=all", "awari+grand_slam=all", 2),
        # `none` captures nothing, nor `leave_last` (the chain is North's house 1 alone, which
        # is left); North's 2 seeds cannot reach South: North has no move, keeps his row: -2.
        ("awari+grand_slam=none", "awari+grand_slam=none", -2),
        ("oware+majority=off+cycle_score=split", "awari+grand_slam=none", -2),
        ("awari+grand_slam=leave_last", "awari+grand_slam=leave_last", -2),
    ],
)
def test_every_oware_rule_set_builds_its_own_database(
    rules: str, database: str, value: int, oware_db: Database
) -> None:
    # OW-11.3's two-seed board, worked out by hand under each grand-slam rule (docs/rules/oware.md).
    db = Database.build(rules, 2, threads=1)
    assert isinstance(db, AwariDb)
    assert (db.game, db.max_seeds, db.description) == ("Oware", 2, f"{database}, levels 0..=2")
    g = Oware(rules, position="0,0,0,0,0,1,23,1,0,0,0,0,0,23 S")
    assert (db.value(g), db.move_values(g)) == (value, {6: value})
    # The Awari database (+2 here) holds other values: it refuses, naming the rule.
    with pytest.raises(DatabaseError, match="grand_slam="):
        oware_db.value(g)


def test_kalah_values_are_the_exact_solvers(kalah_db: Database) -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 20:
        houses = [rng.randrange(3) for _ in range(6)]
        if sum(houses) > 8 or not any(houses[:3]) or not any(houses[3:]):
            continue
        south = rng.randrange(18 - sum(houses) + 1)
        north = 18 - sum(houses) - south
        text = ",".join(map(str, houses[:3] + [south] + houses[3:] + [north])) + " S"
        g = Kalah("kalah(3,3)", position=text)
        assert kalah_db.value(g) == mancala.solve(g).value, text
        expected = {m.move: m.value for m in mancala.analyse(g).moves}
        assert kalah_db.move_values(g) == expected, text
        checked += 1
    # Kalah(4,·) is not served.
    with pytest.raises(DatabaseError):
        kalah_db.value(Kalah("kalah(4,3)"))


def test_files_open_by_their_header_and_convert_back(tmp_path: Path, oware_db: Database, kalah_db: Database) -> None:
    for db, kind in ((oware_db, AwariDb), (kalah_db, Egdb)):
        path = tmp_path / f"{db.game}.egdb"
        db.save(path)
        opened = Database.open(path)
        assert isinstance(opened, kind)
        assert (opened.game, opened.rules, opened.max_seeds, opened.entries, opened.encoding) == (
            db.game, db.rules, db.max_seeds, db.entries, db.encoding,
        )
        # The other encoding and back: the same file.
        other = "byte" if db.encoding == "packed" else "packed"
        back = opened.convert(other).convert(db.encoding)
        assert isinstance(back, kind)
        # A file of its own for each game: a save keeps another database.
        back.save(tmp_path / f"{db.game}.back.egdb")
        assert (tmp_path / f"{db.game}.back.egdb").read_bytes() == path.read_bytes()
    with pytest.raises(DatabaseError):
        Database.open(tmp_path / "missing.egdb")


def test_a_save_keeps_another_database_unless_told_to_overwrite(tmp_path: Path, oware_db: Database) -> None:
    path = tmp_path / "awari.n3.egdb"
    three = Database.build("awari", 3, threads=1)
    three.save(path)
    kept = path.read_bytes()
    three.save(path)  # the same database: saved again
    assert path.read_bytes() == kept
    # Another N: refused, naming the file and what it holds; the file as it was.
    with pytest.raises(
        DatabaseError,
        match=r"awari\.n3\.egdb: already exists and holds another database \(awari, levels 0\.\.=3, byte encoding\): not written over with awari, levels 0\.\.=8, byte encoding",
    ):
        oware_db.save(path)
    assert path.read_bytes() == kept
    # A file that is no database is kept too.
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    with pytest.raises(DatabaseError, match="cannot be told to hold that database"):
        three.save(notes)
    assert notes.read_text() == "my notes\n"
    # The refusal has its own class, still a DatabaseError and a FileExistsError; a file
    # that cannot be written (no such folder) is a DatabaseError of another class.
    with pytest.raises(DatabaseExistsError) as refused:
        three.save(notes)
    assert isinstance(refused.value, DatabaseError)
    assert isinstance(refused.value, FileExistsError)
    # As FileExistsError(errno.EEXIST, message, path) would be made, its str the message.
    assert refused.value.errno == errno.EEXIST
    assert refused.value.filename == str(notes)
    assert str(refused.value) == refused.value.strerror
    assert str(refused.value).startswith(f"{notes}: already exists and ")
    assert "[Errno" not in str(refused.value) and "\n" not in str(refused.value)
    with pytest.raises(DatabaseError) as unwritable:
        three.save(tmp_path / "no-such-folder" / "awari.n3.egdb")
    assert not isinstance(unwritable.value, DatabaseExistsError)
    # Told to overwrite: written over.
    oware_db.save(path, overwrite=True)
    assert Database.open(path).max_seeds == 8
    three.save(notes, overwrite=True)
    assert Database.open(notes).max_seeds == 3


def test_build_refusals() -> None:
    with pytest.raises(mancala.RulesError):
        Database.build("kalah(9,9)", 2)
    with pytest.raises(DatabaseError):
        Database.build("bao-la-kete", 2)
    # No database holds oware's values: said as the command says it.
    with pytest.raises(
        DatabaseError,
        match=r"^no database holds the values of oware, which has majority=stop, cycle_score=own_row$",
    ):
        Database.build("oware", 2)
    with pytest.raises(ValueError):
        Database.build("awari", 2, encoding="bits")


def test_an_engine_given_a_database_plays_exactly(oware_db: Database, kalah_db: Database) -> None:
    engine = Engine(database=[kalah_db, oware_db])
    r = engine.search(Oware("awari", position="0,0,0,0,0,1,23,1,0,0,0,0,0,23 S"), time_ms=1000, max_nodes=10_000)
    assert (r.move, r.exact, r.score_seeds) == (6, True, 2)
    with pytest.raises(TypeError):
        Engine(database="awari.egdb")  # type: ignore[arg-type]


def test_an_engine_takes_the_neighbour_database_as_its_evaluation(oware_db: Database) -> None:
    # Abapa (`oware`): no database holds its values; the Oware database of grand_slam=none
    # (its neighbour, oware+majority=off+cycle_score=split) is the engine's evaluation. At
    # depth 1 (level 1) each South move is scored by the database's value of the board it
    # leaves, for North, negated: 100 x -(North's store lead + value). Neither move captures
    # (each sows into South's own row), so no score is a decided result.
    neighbour = Database.build("oware+majority=off+cycle_score=split", 6, threads=1)
    position = "0,0,0,1,1,0,22,1,1,1,0,0,0,21 S"
    expected = {}
    for mv in (4, 5):
        child = Oware("oware", position=position)
        child.play(mv)
        board = child.notation()
        value = neighbour.value(Oware("oware+majority=off+cycle_score=split", position=board))
        assert value is not None
        expected[mv] = -100 * ((21 - 22) + value)
    engine = Engine(level=1)
    with pytest.raises(DatabaseError):
        Engine(database=neighbour).search(Oware("oware", position=position))
    engine.set_estimates(neighbour)
    r = engine.search(Oware("oware", position=position))
    assert r.score == max(expected.values()) and not r.exact
    assert expected[r.search_move] == r.score
    # The Awari database (grand_slam=unless_only) holds no estimates of Abapa: refused at
    # the search, naming it as the evaluation.
    engine.set_estimates(oware_db)
    with pytest.raises(DatabaseError, match="as the evaluation"):
        engine.search(Oware("oware", position=position))
    # None removes it: the engine's own heuristic (another score here), as an engine never
    # given one.
    heuristic = Engine(level=1).search(Oware("oware", position=position)).score
    engine.set_estimates(None)
    assert engine.search(Oware("oware", position=position)).score == heuristic != r.score
    with pytest.raises(TypeError, match="mancala.Database or None"):
        engine.set_estimates("oware.egdb")  # type: ignore[arg-type]


def test_grade_takes_a_database_of_the_sets_game(kalah_db: Database) -> None:
    with pytest.raises(DatabaseError, match="not of Kalah"):
        mancala.grade(1, [Oware("awari", position="0,0,0,0,0,1,23,1,0,0,0,0,0,23 S")], database=kalah_db)


def test_older_names_still_work_and_warn(tmp_path: Path, oware_db: Database, kalah_db: Database) -> None:
    with pytest.warns(DeprecationWarning, match="Database.build"):
        old = AwariDb.build(8, threads=1)  # type: ignore[deprecated]
    g = Oware("awari", position="0,0,0,0,0,1,23,1,0,0,0,0,0,23 S")
    assert (old.value(g), old.move_values(g)) == (2, {6: 2})
    with pytest.warns(DeprecationWarning, match="Database.entries"):
        assert old.boards == oware_db.entries
    old.save(tmp_path / "awari.egdb")
    with pytest.warns(DeprecationWarning, match="Database.open"):
        assert AwariDb.open(tmp_path / "awari.egdb").max_seeds == 8  # type: ignore[deprecated]
    kalah_db.save(tmp_path / "kalah.egdb")
    with pytest.warns(DeprecationWarning, match="Database.open"):
        egdb = Egdb.open(tmp_path / "kalah.egdb")  # type: ignore[deprecated]
    k = Kalah("kalah(3,3)", position="1,0,0,8,0,0,1,8 S")
    assert egdb.value(k) == kalah_db.value(k) is not None
    with pytest.warns(DeprecationWarning, match="Engine.database"):
        Engine(egdb=egdb)


def test_an_oware_databases_repr_names_its_rule_set():
    abapa = mancala.Database.build("oware+majority=off+cycle_score=split", 2, threads=1)
    assert repr(abapa) == "AwariDb(rules='awari+grand_slam=none', max_seeds=2)"
    assert repr(mancala.Database.build("awari", 2, threads=1)) == "AwariDb(rules='awari', max_seeds=2)"


def test_the_compact_encoding_answers_as_the_byte_one(tmp_path):
    """An Oware database converted to the compact encoding (docs/awari.md) gives every value
    the one-byte database gives, reads back from its file, and a Kalah database refuses it."""
    db = mancala.Database.build("awari", 8, threads=1)
    compact = db.convert("compact")
    assert compact.encoding == "compact" and compact.entries == db.entries
    compact.save(tmp_path / "awari.n8.compact.egdb")
    reread = Database.open(tmp_path / "awari.n8.compact.egdb")
    assert reread.encoding == "compact"
    rng = random.Random(3)
    compared = 0
    for _ in range(200):
        g = Oware("awari")
        while not g.is_over() and sum(g.board) - g.store(0) - g.store(1) > 8:
            g.play(rng.choice(g.legal_moves()))
        if g.is_over():
            continue
        assert compact.value(g) == db.value(g) == reread.value(g)
        assert compact.move_values(g) == db.move_values(g)
        compared += 1
    assert compared > 150
    kalah = mancala.Database.build("kalah(4,3)", 4, threads=1)
    with pytest.raises(DatabaseError):
        kalah.convert("compact")


def test_paths_are_str_bytes_or_path_like(kalah_db: Database, tmp_path: Path) -> None:
    """Every path argument takes what Python's `open()` takes: `str`, `bytes` (decoded with
    `os.fsdecode`) and `os.PathLike`; another type is a `TypeError` naming them."""
    import os

    name = tmp_path / "k3.egdb"
    kalah_db.save(os.fsencode(name))
    assert name.exists()
    for path in (str(name), os.fsencode(name), name):
        db = Database.open(path)
        assert (db.rules, db.max_seeds, db.entries) == ("kalah(3,3)", 8, 3003)
    assert Egdb.find(os.fsencode(tmp_path), "kalah(3,3)").max_seeds == 8
    with pytest.warns(DeprecationWarning):
        assert Egdb.open(os.fsencode(name)).max_seeds == 8
    # A path object giving bytes, as `open()` takes it.
    class BytesPath:
        def __fspath__(self) -> bytes:
            return os.fsencode(name)

    assert Database.open(BytesPath()).entries == 3003
    with open(os.fsencode(name), "rb") as f:  # what Python itself does with the same bytes
        assert len(f.read()) > 0
    for bad in (3, None, ["k3.egdb"]):
        with pytest.raises(TypeError, match="str, bytes or os.PathLike"):
            Database.open(bad)
    # A missing file named by bytes is the library's error, naming the file.
    with pytest.raises(DatabaseError, match="missing.egdb"):
        Database.open(os.fsencode(tmp_path / "missing.egdb"))
    # `egdb=` of `solve` (a folder, searched as `Egdb.find` does): the value without one.
    assert mancala.solve("kalah(3,3)", egdb=os.fsencode(tmp_path)).value == mancala.solve("kalah(3,3)").value


def test_an_engine_refuses_two_databases_of_one_game():
    # The engine keeps one database a game: the second Kalah database replaced the first
    # without a word.
    six = mancala.Database.build("kalah(6,4)", 2)
    four = mancala.Database.build("kalah(4,3)", 2)
    awari = mancala.Database.build("awari", 2)
    with pytest.raises(ValueError, match=r"^database: two databases of Kalah; the engine keeps one a game"):
        mancala.Engine(database=[six, four])
    with pytest.raises(ValueError, match=r"two databases of Oware"):
        mancala.Engine(database=(awari, six, mancala.Database.build("awari", 3)))
    # One of each game is what the sequence is for.
    engine = mancala.Engine(level=3, database=[six, awari])
    assert engine.search(mancala.Kalah("kalah(6,1)"), time_ms=50).move in range(1, 7)


def test_two_databases_of_one_game_are_refused_with_advice_that_serves_that_game(tmp_path: Path) -> None:
    # Two Awari databases of other levels: the message sent Oware users to Egdb.find, which
    # refuses an Oware rule set.
    path = tmp_path / "awari.db"
    mancala.Database.build("awari", 2).save(path)
    once, again = Database.open(path), Database.build("awari", 3)
    with pytest.raises(ValueError) as refused:
        Engine(database=[once, again])
    message = str(refused.value)
    assert message.startswith("database: two databases of Oware; the engine keeps one a game: ")
    # Both serve awari: the advice is the larger one (Database.find picks it from a folder).
    assert "Egdb.find" not in message and "both serve awari: give the one with the larger max_seeds" in message
    with pytest.raises(mancala.RulesError):
        Egdb.find(tmp_path, once.rules)
    # What it says to do: one of them, the one whose rules are played.
    position = "0,0,0,0,0,1,1,0,0,0,0,0,0,0 S"
    assert Engine(database=[once]).search(Oware(once.rules, position=position), time_ms=100).exact
    # Kalah: the advice names Database.find, which picks the database of a rule set.
    six, four = mancala.Database.build("kalah(6,4)", 2), mancala.Database.build("kalah(4,3)", 2)
    with pytest.raises(ValueError, match=r"Database\.find\(folder, rules\)"):
        Engine(database=[six, four])


def test_the_deprecated_egdb_counts_with_the_databases_when_the_engine_is_made() -> None:
    # It was left out of the check: the engine was made, and every search raised
    # DatabaseError.
    six, four = mancala.Database.build("kalah(6,4)", 2), mancala.Database.build("kalah(4,3)", 2)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match=r"^database: two databases of Kalah"):
        Engine(database=four, egdb=six)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match=r"^database: two databases of Kalah"):
        Engine(database=[four], egdb=six)
    # The same object both ways counts once.
    with pytest.warns(DeprecationWarning):
        engine = Engine(level=3, database=[six], egdb=six)
    assert engine.search(mancala.Kalah("kalah(6,1)"), time_ms=50).move in range(1, 7)


def test_an_engine_given_the_same_database_twice_keeps_it_once(oware_db: Database, kalah_db: Database) -> None:
    # It was refused as "two databases of Oware": the same object cannot disagree with
    # itself, so it serves its game as it does given once (the position and its exact value
    # are those of `test_an_engine_given_a_database_plays_exactly`).
    position = "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S"
    for database in ([oware_db, oware_db], (kalah_db, oware_db, kalah_db, oware_db)):
        r = Engine(database=database).search(Oware("awari", position=position), time_ms=1000, max_nodes=10_000)
        assert (r.move, r.exact, r.score_seeds) == (6, True, 2)


@pytest.mark.parametrize(
    "database, message",
    [
        ([None], "database[0] must be a mancala.Database, not NoneType"),
        (["awari.egdb"], "database[0] must be a mancala.Database, not str"),
        ((1.5,), "database[0] must be a mancala.Database, not float"),
    ],
)
def test_an_engine_names_the_element_of_a_sequence_that_is_no_database(database, message, kalah_db: Database) -> None:
    # `[db, None]` was refused as "not list", which it is: the element is what is wrong.
    with pytest.raises(TypeError) as refused:
        Engine(database=database)
    assert str(refused.value) == message
    with pytest.raises(TypeError) as refused:
        Engine(database=[kalah_db, *database])
    assert str(refused.value) == message.replace("database[0]", "database[1]")
    # Anything that is neither a database nor a sequence keeps its message.
    with pytest.raises(TypeError, match=r"^database must be a mancala.Database or a sequence of them, not int$"):
        Engine(database=3)  # type: ignore[arg-type]


def test_an_engine_takes_a_sequence_of_databases_and_refuses_other_collections_whole(kalah_db: Database) -> None:
    # b'abc' was read element by element ("database[0] must be a mancala.Database, not
    # int") while a str was refused whole; sets, dicts and generators were taken though the
    # docs say "sequence".
    import collections

    for bad in (b"abc", bytearray(b"abc"), memoryview(b"abc"), "abc", {kalah_db}, frozenset([kalah_db]),
                {kalah_db: 1}, (d for d in [kalah_db]), iter([kalah_db])):
        with pytest.raises(TypeError) as refused:
            Engine(database=bad)
        assert str(refused.value) == f"database must be a mancala.Database or a sequence of them, not {type(bad).__name__}"
    # Sequences: a list, a tuple, any collections.abc.Sequence.
    position = "1,0,0,8,0,1,1,7 N"  # three seeds in the houses: the database's
    for good in ([kalah_db], (kalah_db,), collections.deque([kalah_db])):
        assert Engine(database=good).search(Kalah(kalah_db.rules, position=position), time_ms=100).exact


def test_a_save_to_an_empty_path_says_it_is_empty(kalah_db: Database, tmp_path: Path) -> None:
    """An empty path says so (it said "the path has no file name in UTF-8"); a socket at
    the path is refused, not replaced by the database."""
    import socket

    with pytest.raises(DatabaseError, match=r"^\(an empty path\): the path is empty$"):
        kalah_db.save("")
    path = tmp_path / "k3.egdb"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        with pytest.raises(DatabaseError, match=r"not a regular file, which a save does not replace$"):
            kalah_db.save(path)
        assert path.is_socket()


def test_two_databases_serving_the_same_rules_and_seeds_count_once(tmp_path: Path) -> None:
    # Two objects opened on one file (or built alike) were refused as "two databases of
    # Oware": they serve the same values, so the engine keeps one, as for one object given
    # twice, and search as the engine given one of them does.
    path = tmp_path / "awari.db"
    mancala.Database.build("awari", 2).save(path)
    once, again = Database.open(path), Database.open(path)
    built = mancala.Database.build("awari", 2, encoding="packed")
    assert once is not again and (once.game, once.rules, once.max_seeds) == (again.game, again.rules, again.max_seeds)
    # A board of one seed a side (N = 2 holds it), South having captured one: the final
    # margin is that seed plus the database's value of the rest.
    position = "0,0,0,0,0,1,1,1,0,0,0,0,0,0 S"
    rest = once.value(Oware("awari", position=position))
    assert rest is not None
    alone = Engine(database=once).search(Oware("awari", position=position), time_ms=1000)
    assert alone.exact and alone.score_seeds == 1 + rest
    for database in ([once, again], (again, built, once)):
        r = Engine(database=database).search(Oware("awari", position=position), time_ms=1000)
        assert (r.move, r.exact, r.score_seeds) == (alone.move, True, 1 + rest)
    # Kalah alike: two opened on one file, one of the same rules built again.
    kalah = tmp_path / "k.egdb"
    mancala.Database.build("kalah(4,3)", 4).save(kalah)
    Engine(database=[Database.open(kalah), Database.open(kalah), mancala.Database.build("kalah(4,3)", 4)])
    with pytest.warns(DeprecationWarning):
        Engine(database=Database.open(kalah), egdb=Egdb.find(tmp_path, "kalah(4,3)"))
    # The same rules with other seeds still differ: one of them must be chosen.
    with pytest.raises(ValueError, match=r"^database: two databases of Kalah"):
        Engine(database=[Database.open(kalah), mancala.Database.build("kalah(4,3)", 3)])


def test_database_find_serves_every_game_by_its_rules(tmp_path: Path) -> None:
    # Egdb.find served Kalah only: an Oware database in a folder had no finder, though the
    # library finds one as the command's --egdb does (by the headers, the most seeds first).
    mancala.Database.build("awari", 2).save(tmp_path / "a.egdb")
    mancala.Database.build("awari", 3, encoding="packed").save(tmp_path / "b.egdb")
    # A name that says otherwise: the header is what counts.
    mancala.Database.build("kalah(4,3)", 4).save(tmp_path / "awari.n48.egdb")
    found = Database.find(tmp_path, "awari")
    assert isinstance(found, AwariDb)
    assert (found.game, found.rules, found.max_seeds, found.encoding) == ("Oware", "awari", 3, "packed")
    board = Oware("awari", position="0,0,0,0,0,1,0,2,0,0,0,0,0,0 S")
    assert found.value(board) == mancala.Database.build("awari", 3).value(board) is not None
    # Kalah: what Egdb.find gives, the same object kind.
    kalah = Database.find(tmp_path, "kalah(4,3)")
    assert isinstance(kalah, Egdb)
    by_egdb = Egdb.find(tmp_path, "kalah(4,3)")
    assert (kalah.rules, kalah.max_seeds, kalah.description) == (by_egdb.rules, by_egdb.max_seeds, by_egdb.description)
    # A file is opened as it is, and must serve the rules.
    assert Database.find(tmp_path / "a.egdb", "awari").max_seeds == 2
    with pytest.raises(DatabaseError):
        Database.find(tmp_path / "a.egdb", "kalah(4,3)")
    # A rule set no file serves: every file passed over is named.
    with pytest.raises(DatabaseError) as refused:
        Database.find(tmp_path, "kalah(6,4)")
    assert all(name in str(refused.value) for name in ("a.egdb", "b.egdb", "awari.n48.egdb"))
    # A game without databases, and a malformed rule set.
    with pytest.raises(DatabaseError):
        Database.find(tmp_path, "bao-la-kete")
    with pytest.raises(mancala.RulesError):
        Database.find(tmp_path, "kalah(4")
    # Egdb.find stays Kalah's.
    with pytest.raises(mancala.RulesError):
        Egdb.find(tmp_path, "awari")


def test_database_find_refuses_a_rule_set_no_database_serves_before_reading_the_folder(tmp_path: Path, cli) -> None:
    # Database.find(folder, "oware") read every file and said that no file in the folder
    # served oware, though no Oware database holds its values (the majority end and the
    # cycles to the own rows change them, OW rules): it says so now before the folder is
    # read, in the words of the command's `--rules oware --egdb folder`.
    mancala.Database.build("awari", 2).save(tmp_path / "a.egdb")
    mancala.Database.build("oware+majority=off+cycle_score=split", 2).save(tmp_path / "b.egdb")
    missing = tmp_path / "no such folder"
    for rules, differs in (
        ("oware", "majority=stop, cycle_score=own_row"),
        ("awari+move_limit=100", "move_limit=100"),
        ("oware-openspiel", None),
    ):
        said = cli.error("solve", "--rules", rules, "--egdb", str(tmp_path))
        first = said.removeprefix(f"--rules {rules}: ").split("; tip: ")[0]
        assert first.startswith("no database holds the values of "), said
        if differs is not None:
            assert first.endswith(f", which has {differs}"), said
        for folder in (tmp_path, missing, tmp_path / "a.egdb"):
            with pytest.raises(DatabaseError) as refused:
                Database.find(folder, rules)
            message = str(refused.value)
            assert message.split("; tip: ")[0] == first, message
            assert "a.egdb" not in message and "no such folder" not in message
            assert "awari and oware+majority=off+cycle_score=split" in message.split("; tip: ")[1]
    # A rule set a database serves is still found there.
    assert Database.find(tmp_path, "oware+majority=off+cycle_score=split").max_seeds == 2


def test_awari_db_find_serves_oware_only(tmp_path: Path) -> None:
    # AwariDb.find was Database.find inherited: AwariDb.find(folder, "kalah(4,3)") gave an
    # Egdb, while AwariDb.open refuses a Kalah file. It finds Oware databases only, and
    # refuses another game's rule set as AwariDb.open refuses a Kalah file.
    mancala.Database.build("kalah(4,3)", 4).save(tmp_path / "k.egdb")
    mancala.Database.build("awari", 2).save(tmp_path / "a.egdb")
    with pytest.warns(DeprecationWarning), pytest.raises(DatabaseError) as opened:
        AwariDb.open(tmp_path / "k.egdb")
    assert str(opened.value).endswith("a database of Kalah (rule set kalah(4,3)), not of Oware")
    for folder in (tmp_path, tmp_path / "k.egdb"):
        with pytest.raises(DatabaseError) as refused:
            AwariDb.find(folder, "kalah(4,3)")
        assert str(refused.value).startswith("kalah(4,3) is a rule set of Kalah, not of Oware; ")
        assert "Database.find" in str(refused.value)
    with pytest.raises(DatabaseError, match=r"^bao-la-kete is a rule set of Bao la Kete, not of Oware; "):
        AwariDb.find(tmp_path, "bao-la-kete")
    with pytest.raises(mancala.RulesError):
        AwariDb.find(tmp_path, "kalah(4")
    # An Oware rule set: the database Database.find gives, an AwariDb.
    found = AwariDb.find(tmp_path, "awari")
    assert isinstance(found, AwariDb)
    assert (found.game, found.rules, found.max_seeds) == ("Oware", "awari", 2)
    # An Oware rule set no database serves, refused as Database.find refuses it.
    with pytest.raises(DatabaseError, match=r"^no database holds the values of oware, which has "):
        AwariDb.find(tmp_path, "oware")


def test_the_advice_for_two_databases_serving_the_same_rules_is_the_larger(tmp_path: Path) -> None:
    # Two Kalah databases that both serve kalah(4,3) (K = 8 and K = 6) were answered "give
    # the one serving the rules played", which both do. The advice is the larger one, and
    # Database.find, which picks it from a folder; what both serve is named as the databases
    # describe it (every kalah(4,·), not only the rule set they were built with).
    k8, k6 = mancala.Database.build("kalah(4,3)", 8), mancala.Database.build("kalah(4,3)", 6)
    for pair in ([k8, k6], [k6, k8]):
        with pytest.raises(ValueError) as refused:
            Engine(database=pair)
        message = str(refused.value)
        assert message.startswith(
            "database: two databases of Kalah; the engine keeps one a game: both serve kalah(4,·): "
            "give the one with the larger max_seeds (Database.find(folder, rules) picks the database "
            "with the most seeds serving the rules from a folder) (given: "
        ), message
        assert "serving the rules played" not in message
    # What it says: Database.find picks K = 8 of the two, which the engine takes.
    k8.save(tmp_path / "k8.egdb")
    k6.save(tmp_path / "k6.egdb")
    picked = Database.find(tmp_path, "kalah(4,3)")
    assert picked.max_seeds == 8
    Engine(database=picked)
    # Two Oware databases alike (awari, N = 2 and 3): the same advice.
    with pytest.raises(ValueError, match=r"keeps one a game: both serve awari: give the one with the larger max_seeds"):
        Engine(database=[mancala.Database.build("awari", 2), mancala.Database.build("awari", 3)])
    # Databases of other rules: the one serving the rules played, then the larger of two
    # serving them. Kalah(6,·) and Kalah(4,·) serve other board sizes; awari
    # (grand_slam=unless_only) and grand_slam=none other grand-slam rules.
    with pytest.raises(ValueError) as refused:
        Engine(database=[mancala.Database.build("kalah(6,4)", 2), k6])
    assert (
        "give the one serving the rules played (a Kalah database serves one board size and one set "
        "of value-relevant options, such as the capture rule), "
        "of two serving them the one with the larger max_seeds (Database.find(folder, rules)"
    ) in str(refused.value)
    none = mancala.Database.build("oware+majority=off+cycle_score=split", 2)
    with pytest.raises(ValueError) as refused:
        Engine(database=[mancala.Database.build("awari", 2), none])
    assert (
        "give the one whose rules (Database.rules) are those played, of two serving them the one "
        "with the larger max_seeds (Database.find(folder, rules)"
    ) in str(refused.value)
