"""`mancala.AwariDb`: the Awari databases from Python (docs/awari.md), checked on boards worked
out by hand from the rules (OW-n.m of docs/rules/oware.md) and against the command line's
`mancala solve --rules awari --json` (which reads the board from the notation itself)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import mancala
from mancala import AwariDb, Database, Oware


@pytest.fixture(scope="module")
def db() -> AwariDb:
    return Database.build("awari", 8, threads=1)


def test_hand_checked_boards(db: AwariDb) -> None:
    # OW-11.3: South's only seed in S6 sows N1 (1 -> 2), captured; North's row is empty and
    # the move is South's only one, so legal (OW-5.3); nothing is left: +2.
    g = Oware("awari", position="0,0,0,0,0,1,23,1,0,0,0,0,0,23 S")
    assert db.value(g) == 2
    assert db.move_values(g) == {6: 2}
    # The mirror, North to move: N6 sows S1 (1 -> 2), captured: +2 for North.
    g = Oware("awari", position="1,0,0,0,0,0,23,0,0,0,0,0,1,23 N")
    assert db.value(g) == 2
    # S5 would leave North's empty row empty (eradicating) while S6 feeds it: only 6 is
    # legal (OW-5.3).
    g = Oware("awari", position="0,0,0,0,1,1,23,0,0,0,0,0,0,23 S")
    assert list(db.move_values(g)) == [6]


def test_more_seeds_than_held_and_finished_games(db: AwariDb) -> None:
    g = Oware("awari", position="2,2,2,0,0,0,19,1,1,1,0,0,0,20 S")  # 9 seeds in the houses
    assert db.value(g) is None
    assert db.move_values(g) is None
    assert db.max_seeds == 8
    assert db.entries == 125879  # levels 0..=8: sum of C(n+11,11) - C(n+5,11)


def test_other_rule_sets_are_refused(db: AwariDb) -> None:
    for rules in ("oware", "oware-openspiel"):
        with pytest.raises(mancala.DatabaseError):
            db.value(Oware(rules, position="0,0,0,0,0,1,23,1,0,0,0,0,0,23 S"))


def test_values_agree_with_the_command_line(db: AwariDb, cli) -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 25:
        seeds = rng.randint(2, 8)
        houses = [0] * 12
        for _ in range(seeds):
            houses[rng.randrange(12)] += 1
        south = rng.randint(0, 48 - seeds)
        side = rng.choice("SN")
        text = ",".join(map(str, houses[:6] + [south] + houses[6:] + [48 - seeds - south]))
        position = f"{text} {side}"
        try:
            g = Oware("awari", position=position)
        except mancala.MancalaError:
            continue  # a finished position
        if g.is_over():
            continue
        out = json.loads(
            cli.ok(
                "solve", "--rules", "awari", "--position", position, "--no-cache",
                "--max-seeds", "8", "--json",
            )
        )
        assert db.value(g) == out["value"], position
        assert db.move_values(g) == {int(m["move"]): m["value"] for m in out["moves"]}, position
        checked += 1


def test_save_and_open(db: AwariDb, tmp_path: Path) -> None:
    path = tmp_path / "awari.n8.egdb"
    db.save(path)
    back = Database.open(path)
    assert back.max_seeds == 8
    g = Oware("awari", position="0,0,0,0,0,1,23,1,0,0,0,0,0,23 S")
    assert back.value(g) == 2
    with pytest.raises(mancala.DatabaseError):
        Database.open(tmp_path / "missing.egdb")
    bad = tmp_path / "bad.egdb"
    bad.write_bytes(b"not a database")
    with pytest.raises(mancala.DatabaseError):
        Database.open(bad)
    # A damaged payload: refused with a message naming the file.
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged = tmp_path / "damaged.egdb"
    damaged.write_bytes(bytes(data))
    with pytest.raises(mancala.DatabaseError, match="checksum mismatch") as e:
        Database.open(damaged)
    assert str(e.value).startswith(str(damaged) + ": "), str(e.value)


def test_packed_convert_save_and_open(db: AwariDb, tmp_path: Path) -> None:
    # Levels 0..=8: 2·8 + 1 = 17 values at level 8, 5 bits a board.
    assert (db.encoding, db.bits_per_entry, db.memory_bytes) == ("byte", 8, 125879)
    packed = db.convert("packed")
    assert (packed.encoding, packed.bits_per_entry, packed.entries) == ("packed", 5, 125879)
    # ⌈125879 · 5 / 8⌉ = 78675 bytes of bit stream and 8 of padding.
    assert packed.memory_bytes == 78675 + 8
    path = tmp_path / "awari.n8.packed.egdb"
    packed.save(path)
    # The 41-byte header and the bit stream.
    assert path.stat().st_size == 41 + 78675
    back = Database.open(path)
    assert back.encoding == "packed"
    g = Oware("awari", position="0,0,0,0,0,1,23,1,0,0,0,0,0,23 S")
    assert back.value(g) == 2
    assert back.move_values(g) == {6: 2}
    one = tmp_path / "one.egdb"
    back.convert("byte").save(one)
    direct = tmp_path / "direct.egdb"
    db.save(direct)
    assert one.read_bytes() == direct.read_bytes()
    with pytest.raises(ValueError):
        db.convert("bits")


def test_compact_bits_and_memory_are_what_the_file_takes(db: AwariDb, tmp_path: Path, cli) -> None:
    # The compact codes have no fixed width: bits_per_entry is the payload's bits (the file
    # less its 41-byte header) over the 125879 boards, not 8.
    compact = db.convert("compact")
    path = tmp_path / "awari.n8.compact.egdb"
    compact.save(path)
    payload_bits = (path.stat().st_size - 41) * 8
    for d in (compact, Database.open(path)):
        assert d.encoding == "compact"
        assert isinstance(d.bits_per_entry, float)
        assert d.bits_per_entry == pytest.approx(payload_bits / 125879, rel=1e-12)
        assert 0 < d.bits_per_entry < 8
    # The memory, as `mancala egdb info` and `egdb verify` give it.
    info = cli.ok("egdb", "info", str(path))
    memory = int(info.split("in memory")[1].split()[0])
    assert Database.open(path).memory_bytes == compact.memory_bytes == memory
    # The fixed widths are whole numbers, as before.
    assert type(db.bits_per_entry) is int and type(db.convert("packed").bits_per_entry) is int


# The deprecated constructor's own argument checks (Database.build's: test_database.py).
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_build_refuses_too_many_seeds() -> None:
    with pytest.raises(ValueError):
        AwariDb.build(49)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_bad_arguments_name_the_argument_and_its_range() -> None:
    for n in (-1, 49, 2**40):
        with pytest.raises(ValueError, match=r"max_seeds must be in 0\.\.=48.*got " + str(n)):
            AwariDb.build(n)
    for t in (-1, 0, 100_000):
        with pytest.raises(ValueError, match=r"threads must be in 1\.\.=\d+.*got " + str(t)):
            AwariDb.build(4, threads=t)
    with pytest.raises(TypeError):
        AwariDb.build("4")  # type: ignore[arg-type]


def test_a_mistyped_rule_set_is_said_as_such() -> None:
    # Not "a Kalah rule set": no game has it, and the near name is suggested.
    with pytest.raises(mancala.RulesError, match="malformed rule set `awri`.*did you mean `awari`"):
        Oware("awri")
    with pytest.raises(mancala.RulesError, match="names an Oware rule set, not a Kalah one"):
        mancala.Kalah("awari")
    with pytest.raises(mancala.SolveError, match="mancala.Database of Oware"):
        mancala.solve("awari", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S")


def test_refusals_are_said_in_the_awari_terms(tmp_path: Path) -> None:
    # docs/awari.md: the Awari databases hold the boards of at most N seeds; a folder
    # without one names the database and its file, as the mancala command does.
    with pytest.raises(mancala.DatabaseError) as e:
        Database.build("awari", 49)
    assert str(e.value) == "N = 49 is more seeds than awari has: the largest N allowed is 48"
    with pytest.raises(mancala.DatabaseError) as e:
        Database.find(tmp_path, "awari")
    assert str(e.value) == (
        f"no Oware database for awari in {tmp_path}: looked for the Awari database, a file "
        "awari.n<N>.egdb (N the most seeds in the houses)"
    )
