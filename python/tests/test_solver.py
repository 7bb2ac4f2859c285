"""The solver, databases and engine through Python: published values, consistency between
solve and analyse, limits, databases, the engine."""

from __future__ import annotations

import math
import os
import random

import pytest

import mancala
from mancala import DatabaseError, Egdb, Engine, Kalah, SolveError, Solver

# Irving, Donkers & Uiterwijk, "Solving Kalah", ICGA Journal 23(3), 2000 (empty capture);
# Rawlings 2015 (both capture rules): the first player's winning margin from the start.
PUBLISHED = [
    ("kalah(6,1)+empty_capture", 2),
    ("kalah(6,1)", 2),
    ("kalah(6,2)+empty_capture", 10),
    ("kalah(6,2)", 6),
    ("kalah(6,3)+empty_capture", 2),
    ("kalah(6,3)", 2),
]


@pytest.mark.parametrize("rules,value", PUBLISHED)
def test_published_values(rules, value):
    s = mancala.solve(rules, threads=2, tt_mb=32)
    assert s.exact and s.value == value and s.lower == s.upper == value
    # From the start the stores are empty: the final margin is the value.
    assert s.score == value
    assert s.best_moves and s.nodes > 0 and s.seconds >= 0


def replay_pv(rules: str, pv) -> Kalah:
    g = Kalah(rules)
    for mv in pv:
        g.play(mv)
    return g


@pytest.mark.parametrize("rules", ["kalah(6,2)", "kalah(4,3)+pie_rule", "kalah(5,2)+empty_capture"])
def test_solution_analysis_and_pv_agree(rules):
    s = mancala.solve(rules, threads=1)
    a = mancala.analyse(rules, threads=1)
    assert a.exact and [m.move for m in a.moves] == Kalah(rules).legal_moves()
    assert max(m.value for m in a.moves) == s.value
    assert sorted(a.best_moves, key=str) == sorted(s.best_moves, key=str)
    # The principal variation is a whole game whose final margin is the score.
    end = replay_pv(rules, s.pv)
    assert end.is_over() and end.score() == s.score


def test_solving_a_game_object_and_a_position():
    g = Kalah("kalah(6,3)")
    g.play(5)
    s = mancala.solve(g, threads=1)
    t = mancala.solve("kalah(6,3)", position=g.notation(), threads=1)
    assert (s.value, s.score, s.best_moves, s.pv) == (t.value, t.score, t.best_moves, t.pv)
    # South's 5 sows S6, its store and N1 (no extra turn): North is to move, and the values
    # are North's. When 5 is a best move South still wins by 2 in all, 1 of it already
    # stored: North's future store difference is -1 and its final margin -2.
    assert 5 in mancala.solve("kalah(6,3)").best_moves
    assert (s.value, s.score) == (-1, -2)


def test_finished_game_and_swap_choice():
    over = Kalah("standard", position="0,0,0,0,0,0,21,0,0,0,0,0,0,27 -")
    s = mancala.solve(over)
    assert s.exact and s.value == 0 and s.score == -6 and s.best_moves == []
    g = Kalah("kalah(4,3)+pie_rule")
    g.play(1)
    s = mancala.solve(g)
    assert s.swap is not None and s.swap.stay_value is not None
    assert s.value == max(s.swap.swap_value, s.swap.stay_value)
    assert ("swap" in s.best_moves) == (s.swap.swap_value >= s.swap.stay_value)


def test_a_node_limit_gives_bounds():
    s = mancala.solve("kalah(6,3)", max_nodes=20_000, threads=1)
    assert not s.exact and s.best_moves == [] and s.pv == [] and s.swap is None
    assert s.lower <= 2 <= s.upper and s.value == s.lower


def test_a_reused_solver():
    solver = Solver(threads=1, tt_mb=16)
    values = [solver.solve(Kalah(r)).value for r, _ in PUBLISHED[:4]]
    assert values == [v for _, v in PUBLISHED[:4]]


def test_kalah_databases_given_another_games_rules_say_where_its_database_is(tmp_path):
    # The Kalah database functions pointed an Oware rule set to the game class mancala.Oware;
    # an Oware database is made with mancala.Database, and the other games have none.
    oware = "names an Oware rule set, not a Kalah one: the Oware databases are mancala.Database.build"
    for call in (
        lambda: mancala.build_egdb("awari", 4),
        lambda: Egdb.find(tmp_path, "oware"),
        lambda: Egdb.cached("awari", max_seeds=4, folder=tmp_path),
    ):
        with pytest.raises(mancala.RulesError, match=oware):
            call()
    with pytest.raises(mancala.RulesError, match="names a Togyz Kumalak rule set, not a Kalah one: Togyz Kumalak has no database of exact values"):
        mancala.build_egdb("togyz-kumalak", 4)
    assert list(tmp_path.iterdir()) == []
    # A Kalah database serves no rule set of another game; a malformed one is still refused.
    db = mancala.build_egdb("kalah(2,2)", 4)
    assert db.serves("kalah(2,3)") and not db.serves("awari") and not db.serves("bao-la-kete")
    with pytest.raises(mancala.RulesError, match="malformed rule set"):
        db.serves("kalha(2,2)")


def test_database_build_save_open_and_use(tmp_path):
    path = tmp_path / "k6.egdb"
    reports = []
    db = mancala.build_egdb("kalah(6,3)", 8, path, threads=2, progress=reports.append, interval=0.0)
    assert db.houses == 6 and db.max_seeds == 8 and db.serves("standard") and not db.serves("kalah(6,3)+empty_capture")
    # C(K + 2m, 2m) entries: C(20, 12).
    assert db.entries == 125970
    assert path.exists()
    again = mancala.Database.open(path)
    assert again.description == db.description == "kalah(6,·), K = 8"
    found = Egdb.find(tmp_path, "kalah(6,5)")
    assert found.max_seeds == 8
    # Every report is a snapshot with done <= total (maybe none: the build is quick).
    assert all(0 <= r.done <= r.total == db.entries for r in reports)
    # The same value with the database, by path (folder) and by object.
    plain = mancala.solve("kalah(6,3)", threads=1)
    by_folder = mancala.solve("kalah(6,3)", egdb=tmp_path, threads=1)
    by_object = Solver(threads=1, egdb=again).solve(Kalah("kalah(6,3)"))
    assert plain.value == by_folder.value == by_object.value == 2
    # The database values a small endgame as the solver does.
    g = Kalah("standard", position="1,0,2,0,0,1,20,0,1,0,0,2,1,20 S")
    assert db.value(g) == mancala.solve(g).value
    assert db.value(Kalah("standard")) is None  # 48 seeds: more than K


def test_the_cache_builds_once_then_reads(tmp_path, monkeypatch):
    db = Egdb.cached("kalah(4,3)", max_seeds=6, folder=tmp_path)
    # The command's file name for the rules' m and value-relevant options.
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["kalah4.k6.egdb"]
    mtime = (tmp_path / files[0]).stat().st_mtime_ns
    again = Egdb.cached("kalah(4,5)", max_seeds=6, folder=tmp_path)  # same m, any n
    assert (tmp_path / files[0]).stat().st_mtime_ns == mtime
    assert again.description == db.description == "kalah(4,·), K = 6"
    # The same entries as a database built directly: compare on a few endgames.
    direct = mancala.build_egdb("kalah(4,3)", 6)
    rng = random.Random(3)
    for _ in range(50):
        g = Kalah("kalah(4,3)")
        while not g.is_over():
            g.play(rng.choice(g.legal_moves()))
            if not g.is_over():
                assert again.value(g) == direct.value(g)
    # A damaged file is rebuilt, never used.
    path = tmp_path / files[0]
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    Egdb.cached("kalah(4,3)", max_seeds=6, folder=tmp_path)
    assert mancala.Database.open(path).entries == db.entries
    # $MANCALA_CACHE_DIR names the folder when none is given; K from the rules: 2mn = 4.
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path / "env"))
    small = Egdb.cached("kalah(2,1)")
    assert small.max_seeds == 4 and (tmp_path / "env" / "kalah2.k4.egdb").exists()


def test_a_relative_cache_variable_is_ignored_with_a_warning(tmp_path, monkeypatch):
    # The XDG Base Directory specification holds relative paths in its variables invalid;
    # the command and the package ignore a relative MANCALA_CACHE_DIR alike.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("MANCALA_CACHE_DIR", "here")
    with pytest.warns(RuntimeWarning, match="MANCALA_CACHE_DIR=.*here.* is ignored: .*; the cache folder is .*xdg"):
        db = Egdb.cached("kalah(2,1)")
    assert db.max_seeds == 4
    assert not (tmp_path / "here").exists()
    assert (tmp_path / "xdg" / "mancala" / "kalah2.k4.egdb").exists()


def test_database_errors(tmp_path):
    with pytest.raises(DatabaseError, match="No such file"):
        mancala.Database.open(tmp_path / "missing.egdb")
    bad = tmp_path / "bad.egdb"
    bad.write_bytes(b"not a database at all")
    with pytest.raises(DatabaseError, match="bad magic"):
        mancala.Database.open(bad)
    db = mancala.build_egdb("kalah(4,2)", 4)
    with pytest.raises(DatabaseError, match="endgame database is for kalah\\(4"):
        Solver(egdb=db).solve(Kalah("kalah(5,2)"))
    with pytest.raises(DatabaseError, match="no endgame database"):
        Egdb.find(tmp_path, "standard")
    # A truncated file is refused, never used.
    good = tmp_path / "k4.egdb"
    db.save(good)
    data = good.read_bytes()
    good.write_bytes(data[: len(data) - 7])
    with pytest.raises(DatabaseError, match="truncated") as e:
        mancala.Database.open(good)
    # The message names the file it is about.
    assert str(e.value).startswith(str(good) + ": "), str(e.value)
    # One byte too many: said as such, not as a damaged header.
    good.write_bytes(data + b"\0")
    with pytest.raises(DatabaseError, match=r"too long.*\(1 byte after the last entry\)"):
        mancala.Database.open(good)


def test_a_progress_callback_that_raises_stops_the_build(tmp_path):
    def stop(progress):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        mancala.build_egdb("standard", 18, tmp_path / "x.egdb", progress=stop, interval=0.0)
    assert not (tmp_path / "x.egdb").exists()
    assert [p for p in os.listdir(tmp_path)] == []


def test_solver_errors():
    with pytest.raises(SolveError, match="too many to solve"):
        mancala.solve("kalah(7,18)")
    with pytest.raises(SolveError, match="Bao la Kete"):
        mancala.solve("bao-la-kete")
    with pytest.raises(ValueError, match="threads"):
        Solver(threads=0)
    with pytest.raises(ValueError, match="max_seconds"):
        Solver(max_seconds=-1)
    with pytest.raises(ValueError, match="tt_mb"):
        Solver(tt_mb=0)
    with pytest.raises(TypeError):
        mancala.solve(Kalah(), position="4,4,4,4,4,4,0,4,4,4,4,4,4,0 S")


def test_engine_moves_are_legal_and_exact_with_a_solve():
    g = Kalah("standard")
    for level in (1, 5, 10):
        e = Engine(level=level, tt_mb=4)
        r = e.search(g, time_ms=50)
        assert r.move in g.legal_moves() and r.depth >= 1 and r.nodes > 0
    # A small endgame: level 10 solves it exactly, as the solver does.
    end = Kalah("standard", position="1,0,2,0,0,1,20,0,1,0,0,2,1,20 S")
    r = Engine(level=10).search(end, time_ms=2000)
    s = mancala.solve(end)
    assert r.exact and r.score_seeds == s.value and r.move in s.best_moves
    b = mancala.Bao()
    assert mancala.best_move(b, time_ms=50, level=3) in b.legal_moves()


def test_engine_errors():
    with pytest.raises(mancala.EngineError, match="level 11 is out of range"):
        Engine(level=11)
    over = Kalah("standard", position="0,0,0,0,0,0,21,0,0,0,0,0,0,27 -")
    with pytest.raises(mancala.IllegalMoveError, match="game is over"):
        mancala.best_move(over)
    with pytest.raises(TypeError):
        Engine().search("standard")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="time_ms"):
        Engine().search(Kalah(), time_ms=-5)


def test_packed_databases_hold_the_same_values_in_fewer_bits(tmp_path):
    # m = 4: C(K + 8, 8) entries. The packed width holds the longest list of values a layer
    # allows: k + 1 shares of the seeds, and the 0 of a finished position in an odd layer, so
    # K + 1 codes for an even K and K + 2 for an odd one: ⌈log2(K + 2)⌉ bits.
    for k, bits in [(14, 4), (15, 5)]:
        entries = math.comb(k + 8, 8)
        byte = mancala.build_egdb("kalah(4,3)", k, threads=2)
        path = tmp_path / f"k{k}.packed.egdb"
        packed = mancala.build_egdb("kalah(4,3)", k, path, threads=2, encoding="packed")
        assert (byte.encoding, byte.bits_per_entry, byte.memory_bytes) == ("byte", 8, entries)
        assert packed.encoding == "packed" and packed.bits_per_entry == bits
        # The bit stream and its 8 bytes of padding.
        assert packed.memory_bytes == (entries * bits + 7) // 8 + 8
        assert packed.entries == byte.entries == entries
        assert packed.description == byte.description == f"kalah(4,·), K = {k}"
        # The file: header (36 bytes and the rule text) and the stream, without the padding.
        assert path.stat().st_size == 36 + len("kalah(4,3)") + (entries * bits + 7) // 8
        opened = mancala.Database.open(path)
        assert (opened.encoding, opened.bits_per_entry) == ("packed", bits)
        # Every encoding gives the solver's value of random endgames.
        rng = random.Random(k)
        for _ in range(40):
            g = Kalah("kalah(4,3)")
            while not g.is_over():
                g.play(rng.choice(g.legal_moves()))
                v = byte.value(g)
                assert packed.value(g) == opened.value(g) == v
                if v is not None and rng.random() < 0.05:
                    assert v == mancala.solve(g, threads=1, tt_mb=4).value
        # Converting gives the other encoding's build, byte for byte once saved.
        to_byte, to_packed = packed.convert("byte"), byte.convert("packed")
        assert (to_byte.encoding, to_byte.memory_bytes) == ("byte", entries)
        assert (to_packed.encoding, to_packed.memory_bytes) == ("packed", packed.memory_bytes)
        for db, built in [(to_byte, byte), (to_packed, packed), (byte.convert("byte"), byte)]:
            # The files of the last pair are replaced: told to overwrite.
            a, b = tmp_path / "a.egdb", tmp_path / "b.egdb"
            db.save(a, overwrite=True)
            built.save(b, overwrite=True)
            assert a.read_bytes() == b.read_bytes()


def test_unknown_database_encodings_are_refused():
    with pytest.raises(ValueError, match='^encoding must be "byte", "packed" or "compact" \\(Oware databases\\), got "nibble"$'):
        mancala.build_egdb("kalah(4,3)", 4, encoding="nibble")
    db = mancala.build_egdb("kalah(4,3)", 4)
    with pytest.raises(ValueError, match='^encoding must be "byte", "packed" or "compact" \\(Oware databases\\), got "Packed"$'):
        db.convert("Packed")
    with pytest.raises(TypeError):
        mancala.build_egdb("kalah(4,3)", 4, encoding=2)  # type: ignore[arg-type]


def test_k_above_the_seeds_of_the_game_is_refused(tmp_path):
    # Kalah(4,3) has 2·4·3 = 24 seeds: a larger K asks for positions that cannot occur. Both
    # ways of building refuse it at once, with the largest K allowed, and write nothing.
    for k in (25, 40):
        want = f"^K = {k} is more seeds than kalah\\(4,3\\) has: the largest K allowed is 24$"
        with pytest.raises(DatabaseError, match=want):
            mancala.build_egdb("kalah(4,3)", k, tmp_path / "k.egdb")
        with pytest.raises(DatabaseError, match=want):
            Egdb.cached("kalah(4,3)", max_seeds=k, folder=tmp_path / "cache")
    assert not (tmp_path / "k.egdb").exists()
    cache = tmp_path / "cache"
    assert not cache.exists() or list(cache.iterdir()) == []
