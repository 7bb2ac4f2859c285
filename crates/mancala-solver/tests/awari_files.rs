//! Awari database files (`AwariDb::save`, `AwariDb::open`, `AwariDb::info`): the header laid
//! out as the format documents it, a save/open round trip giving the same value for every
//! board, and every damaged or mismatched file refused with its typed error: truncated, a
//! bit flipped in the payload or the header, a value outside −n..=n behind right checksums,
//! a Kalah file opened as Awari and an Awari file opened as Kalah.

mod scratch;

use std::time::Duration;

use mancala_core::kalah::KalahRules;
use mancala_core::GameKind;
use mancala_solver::awari::{bits_per_entry, AwariDb, AwariInfo, FILE_RULES};
use mancala_solver::egdb::{game_of_file, Encoding, Header};
use mancala_solver::{BuildOptions, Egdb, EgdbError};

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |r, i| r * (n - i) / (i + 1))
}

/// Boards of level n (OW-11.1): C(n+11,11) − C(n+5,11).
fn level(n: u64) -> u64 {
    binomial(n + 11, 11) - binomial(n + 5, 11)
}

/// N of the test database.
const N: u32 = 8;

/// The header's length: 36 bytes and the rule set `awari`.
const HEADER: usize = 36 + 5;

/// The bytes of a saved N = 8 database.
fn saved(db: &AwariDb) -> Vec<u8> {
    let path = scratch::file("saved.egdb");
    db.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    bytes
}

/// `bytes` written to a scratch file, opened as Awari.
fn open_bytes(name: &str, bytes: &[u8]) -> Result<AwariDb, EgdbError> {
    let path = scratch::file(name);
    std::fs::write(&path, bytes).unwrap();
    let r = AwariDb::open(&path);
    std::fs::remove_file(&path).unwrap();
    r
}

#[test]
fn header_layout_and_round_trip() {
    let db = AwariDb::build(N, 2).unwrap();
    let bytes = saved(&db);
    let entries: u64 = (0..=u64::from(N)).map(level).sum();
    assert_eq!(bytes.len() as u64, HEADER as u64 + entries);
    assert_eq!(&bytes[..8], b"MNCLEGDB");
    assert_eq!(&bytes[8..12], &[1, 0, 0, 0]); // format version 1
    assert_eq!(&bytes[12..16], &[6, N as u8, 0, 1]); // m, N, option bits, encoding 1
    assert_eq!(&bytes[16..24], &entries.to_le_bytes());
    assert_eq!(&bytes[28..32], &[5, 0, 0, 0]);
    assert_eq!(&bytes[32..37], FILE_RULES.as_bytes());
    assert_eq!(FILE_RULES, "awari");
    let crc = u32::from_le_bytes(bytes[37..41].try_into().unwrap());
    assert_eq!(crc, crc32fast::hash(&bytes[..37]));
    let pcrc = u32::from_le_bytes(bytes[24..28].try_into().unwrap());
    assert_eq!(pcrc, crc32fast::hash(&bytes[HEADER..]));
    // Level 0 is the empty board: the mover cannot move and the game is over with nothing
    // left (value 0, byte 128).
    assert_eq!(bytes[HEADER], 128);

    let path = scratch::file("round.egdb");
    db.save(&path).unwrap();
    assert_eq!(
        game_of_file(&path).unwrap(),
        (GameKind::Oware, "awari".to_string())
    );
    let info = AwariDb::info(&path).unwrap();
    assert_eq!(
        (info.max_seeds, info.entries, info.file_bytes),
        (N, entries, bytes.len() as u64)
    );
    let back = AwariDb::open(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(back.max_seeds(), N);
    assert_eq!(back.bytes(), db.bytes());
    for n in 0..=N {
        assert_eq!(back.level_stats(n), db.level_stats(n), "level {n}");
        for i in 0..level(u64::from(n)) {
            assert_eq!(
                back.value_at(n, i),
                db.value_at(n, i),
                "level {n} board {i}"
            );
        }
    }
    // The file's bytes are the values + 128, level after level.
    let mut at = HEADER;
    for n in 0..=N {
        for i in 0..level(u64::from(n)) {
            let v = db.value_at(n, i).unwrap();
            assert_eq!(i32::from(bytes[at]) - 128, v);
            at += 1;
        }
    }
}

#[test]
fn damaged_files_are_refused_with_their_error() {
    let db = AwariDb::build(N, 2).unwrap();
    let good = saved(&db);
    // Truncated: in the payload, in the header.
    for cut in [good.len() - 1, HEADER + 10, 20] {
        let r = open_bytes("cut.egdb", &good[..cut]);
        assert!(
            matches!(r, Err(EgdbError::Truncated { .. })),
            "cut at {cut}: {r:?}"
        );
    }
    // One bit flipped in the payload: the payload checksum.
    for at in [HEADER, HEADER + 1000, good.len() - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x04;
        let r = open_bytes("flip.egdb", &bad);
        assert!(matches!(r, Err(EgdbError::Checksum { .. })), "{at}: {r:?}");
    }
    // One bit flipped in the header after the magic and version: the header checksum.
    for at in 12..HEADER {
        let mut bad = good.clone();
        bad[at] ^= 0x01;
        let r = open_bytes("hflip.egdb", &bad);
        assert!(r.is_err(), "header byte {at}");
        assert!(
            matches!(
                r,
                Err(EgdbError::Header(_) | EgdbError::Truncated { .. } | EgdbError::TooLong { .. })
            ),
            "header byte {at}: {r:?}"
        );
    }
    let mut bad = good.clone();
    bad[0] ^= 0x01;
    assert!(matches!(
        open_bytes("magic.egdb", &bad),
        Err(EgdbError::BadMagic(_))
    ));
    // One byte more.
    let mut long = good.clone();
    long.push(128);
    assert!(matches!(
        open_bytes("long.egdb", &long),
        Err(EgdbError::TooLong { .. })
    ));
}

/// The rank, level and value of the [`EgdbError::BadEntry`] that `r` must be.
fn bad_entry(r: Result<AwariDb, EgdbError>) -> (u64, u32, i32) {
    match r {
        Err(EgdbError::BadEntry { rank, seeds, value }) => (rank, seeds, value),
        other => panic!("{other:?}"),
    }
}

/// `bytes` with its header re-encoded around `edit` and its checksums made right again.
fn rewritten(bytes: &[u8], edit: impl FnOnce(&mut Header, &mut Vec<u8>)) -> Vec<u8> {
    let mut payload = bytes[HEADER..].to_vec();
    let mut header = Header {
        version: 1,
        houses: 6,
        max_seeds: N as u8,
        option_bits: 0,
        encoding: 1,
        entries: (0..=u64::from(N)).map(level).sum(),
        payload_crc: 0,
        rules: "awari".into(),
    };
    edit(&mut header, &mut payload);
    header.payload_crc = crc32fast::hash(&payload);
    let mut out = header.encode();
    out.extend_from_slice(&payload);
    out
}

#[test]
fn impossible_values_and_other_rules_are_refused_behind_right_checksums() {
    let db = AwariDb::build(N, 2).unwrap();
    let good = saved(&db);
    // The re-encoding itself gives back the file.
    assert_eq!(rewritten(&good, |_, _| {}), good);
    // Level 2 starts after 1 + 12 boards; its first board worth 3 (byte 131) is outside
    // −2..=2.
    let first2 = (level(0) + level(1)) as usize;
    assert_eq!(first2, 13);
    let bad = rewritten(&good, |_, p| p[first2] = 131);
    assert_eq!(bad_entry(open_bytes("value.egdb", &bad)), (13, 2, 3));
    // The last board of level N worth −(N+1).
    let bad = rewritten(&good, |_, p| *p.last_mut().unwrap() = 128 - (N as u8 + 1));
    assert!(matches!(
        open_bytes("value2.egdb", &bad),
        Err(EgdbError::BadEntry { seeds: N, .. })
    ));
    // Another Oware rule set: its values are not Awari's.
    let other = rewritten(&good, |h, _| h.rules = "oware".into());
    assert!(matches!(
        open_bytes("oware.egdb", &other),
        Err(EgdbError::RulesMismatch { .. })
    ));
    // The packed encoding over a one-byte payload (6 bits a board take fewer bytes: the file
    // is too long for it), an unknown one.
    let other = rewritten(&good, |h, _| h.encoding = 2);
    let r = open_bytes("enc.egdb", &other);
    assert!(matches!(r, Err(EgdbError::TooLong { .. })), "{r:?}");
    let other = rewritten(&good, |h, _| h.encoding = 9);
    let r = open_bytes("enc.egdb", &other);
    assert!(matches!(r, Err(EgdbError::Header(_))), "{r:?}");
    // More entries than N has.
    let other = rewritten(&good, |h, _| h.entries += 1);
    assert!(matches!(
        open_bytes("entries.egdb", &other),
        Err(EgdbError::Header(_))
    ));
    // N above the game's 48 seeds.
    let other = rewritten(&good, |h, _| h.max_seeds = 49);
    assert!(matches!(
        open_bytes("n.egdb", &other),
        Err(EgdbError::Header(_))
    ));
}

#[test]
fn a_kalah_file_is_not_an_awari_one_and_the_reverse() {
    let kalah = scratch::file("kalah.egdb");
    let rules: KalahRules = "kalah(6,4)".parse().unwrap();
    Egdb::build(&rules, 3, BuildOptions::new())
        .unwrap()
        .save(&kalah)
        .unwrap();
    let awari = scratch::file("awari.egdb");
    AwariDb::build(4, 1).unwrap().save(&awari).unwrap();

    let e = AwariDb::open(&kalah).unwrap_err();
    assert!(
        matches!(
            e,
            EgdbError::WrongGame {
                found: GameKind::Kalah,
                expected: GameKind::Oware,
                ..
            }
        ),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(!text.contains('\n'), "{text}");
    assert!(text.contains("a database of Kalah"), "{text}");
    assert!(matches!(
        AwariDb::info(&kalah),
        Err(EgdbError::WrongGame { .. })
    ));

    let e = Egdb::open(&awari).unwrap_err();
    assert!(
        matches!(
            e,
            EgdbError::WrongGame {
                found: GameKind::Oware,
                expected: GameKind::Kalah,
                ..
            }
        ),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(
        text.contains("a database of Oware (rule set awari), not of Kalah"),
        "{text}"
    );
    assert!(matches!(
        Egdb::info(&awari),
        Err(EgdbError::WrongGame { .. })
    ));
    assert_eq!(game_of_file(&kalah).unwrap().0, GameKind::Kalah);
    std::fs::remove_file(&kalah).unwrap();
    std::fs::remove_file(&awari).unwrap();
}

/// The cache: built and saved on first use, read back after, and a file of another N under
/// the cache's name (or a damaged one) refused and rebuilt; a larger N already cached
/// serves a smaller one asked for, with nothing built beside it.
#[test]
fn the_cache_builds_once_and_refuses_a_file_that_is_not_its_name() {
    use mancala_core::oware::OwareRules;
    use mancala_solver::{Cache, CacheEvent, Cached};
    use std::ops::ControlFlow;
    let dir = scratch::file("cache");
    let cache = Cache::new(&*dir);
    let awari = OwareRules::AWARI;
    let get = |n: u32, seen: &mut Vec<String>| -> Result<Cached<AwariDb>, EgdbError> {
        cache.read_or_build::<AwariDb>(&awari, n, 1, Duration::from_millis(10), &mut |e| {
            seen.push(match e {
                CacheEvent::Refused { .. } => "refused".into(),
                CacheEvent::Building { max_seeds, .. } => format!("building {max_seeds}"),
                CacheEvent::Progress(p) => format!("{}/{}", p.done, p.total),
            });
            ControlFlow::Continue(())
        })
    };
    let mut seen = Vec::new();
    let first = get(5, &mut seen).unwrap();
    assert!(first.built && first.save_error.is_none());
    // A report after each of the levels 0..=5, the last with every board.
    let boards: u64 = (0..=5).map(level).sum();
    assert_eq!(seen.len(), 1 + 6, "{seen:?}");
    assert_eq!(seen[0], "building 5");
    assert_eq!(seen[6], format!("{boards}/{boards}"));
    assert_eq!(first.path, dir.join("awari.n5.egdb"));
    let again = get(5, &mut Vec::new()).unwrap();
    assert!(!again.built);
    for n in 0..=5 {
        for i in 0..level(u64::from(n)) {
            assert_eq!(again.database.value_at(n, i), first.database.value_at(n, i));
        }
    }
    // N = 3 asked for: the cached N = 5 holds those boards too; nothing is built beside it.
    let mut seen = Vec::new();
    let smaller = get(3, &mut seen).unwrap();
    assert!(!smaller.built && seen.is_empty(), "{seen:?}");
    assert_eq!(smaller.database.max_seeds(), 5);
    assert_eq!(smaller.path, dir.join("awari.n5.egdb"));
    assert!(!dir.join("awari.n3.egdb").exists());
    // Levels 0..=4 saved under the name of N = 5.
    AwariDb::build(4, 1)
        .unwrap()
        .save_over(&cache.file::<AwariDb>(&awari, 5))
        .unwrap();
    assert!(matches!(
        cache.read::<AwariDb>(&awari, 5),
        Err(EgdbError::Header(_))
    ));
    let mut seen = Vec::new();
    let rebuilt = get(5, &mut seen).unwrap();
    assert!(rebuilt.built);
    assert_eq!(seen[0], "refused");
    assert_eq!(cache.read::<AwariDb>(&awari, 5).unwrap().max_seeds(), 5);
    // N above the game's 48 seeds.
    assert!(matches!(
        get(49, &mut Vec::new()),
        Err(EgdbError::MoreSeedsThanTheGame { .. })
    ));
}

/// The width the packed encoding must have for N: the fewest bits w with 2^w ≥ 2N + 1 (the
/// list −n..=n of the top level; module docs of `awari::file`), computed here by counting.
fn packed_width(n: u32) -> u32 {
    (0..).find(|w| 1u64 << w > 2 * u64::from(n)).unwrap()
}

/// Code r of a little-endian bit stream of w-bit entries (bit j in byte j / 8, bit j mod 8),
/// read bit by bit: an independent reader of the packed payload.
fn stream_code(payload: &[u8], w: u32, r: u64) -> u32 {
    (0..w).fold(0, |c, i| {
        let bit = r * u64::from(w) + u64::from(i);
        let b = (payload[(bit / 8) as usize] >> (bit % 8)) & 1;
        c | (u32::from(b) << i)
    })
}

/// N of the packed tests: 12 seeds, 2,685,592 boards, 5-bit codes.
const PN: u32 = 12;

/// The bytes of the file of `db` saved, and its info.
fn saved_with_info(db: &AwariDb, name: &str) -> (Vec<u8>, AwariInfo) {
    let path = scratch::file(name);
    db.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let info = AwariDb::info(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    (bytes, info)
}

#[test]
fn packed_widths_follow_the_longest_list() {
    // 2N + 1 values at the top level: 6 bits up to N = 31 (63 values), 7 from N = 32 (65).
    for (n, w) in [
        (1, 2),
        (3, 3),
        (4, 4),
        (7, 4),
        (8, 5),
        (15, 5),
        (16, 6),
        (30, 6),
        (31, 6),
        (32, 7),
        (48, 7),
    ] {
        assert_eq!(packed_width(n), w, "N = {n}");
        assert_eq!(bits_per_entry(Encoding::Packed, n), w, "N = {n}");
        assert_eq!(bits_per_entry(Encoding::Byte, n), 8);
    }
    // N = 0 has one value, 0, which needs no bit: the stream still gives it one.
    assert_eq!(bits_per_entry(Encoding::Packed, 0), 1);
}

/// What the module docs prove of the values of level n: in −n..=n, never ±(n − 1) (n ≥ 2),
/// and not always of n's parity (a capture followed by endless play).
#[test]
fn the_values_of_a_level_are_those_the_packed_lists_hold() {
    let db = AwariDb::build(PN, 2).unwrap();
    let mut off_parity = 0u64;
    for n in 0..=PN {
        let ni = n as i32;
        for i in 0..level(u64::from(n)) {
            let v = db.value_at(n, i).unwrap();
            assert!(v.abs() <= ni, "level {n} board {i}: {v}");
            if n >= 1 {
                assert_ne!(v.abs(), ni - 1, "level {n} board {i}");
            }
            if (v - ni) % 2 != 0 {
                off_parity += 1;
            }
        }
    }
    assert!(off_parity > 0, "no value of the other parity");
}

#[test]
fn packed_file_layout_size_and_values() {
    let db = AwariDb::build(PN, 2).unwrap();
    let (one, one_info) = saved_with_info(&db, "one.egdb");
    let packed = db.convert(Encoding::Packed).unwrap();
    assert_eq!(packed.encoding(), Encoding::Packed);
    assert_eq!(db.encoding(), Encoding::Byte);
    let w = packed_width(PN);
    assert_eq!((w, packed.bits_per_entry()), (5, 5));
    let (bytes, info) = saved_with_info(&packed, "packed.egdb");
    let entries: u64 = (0..=u64::from(PN)).map(level).sum();
    // The sum of OW-11.2's counted column up to n = 12.
    assert_eq!(entries, 2_685_592);
    // Header + ⌈E·w/8⌉ bytes.
    let payload_len = (entries * u64::from(w)).div_ceil(8);
    assert_eq!(bytes.len() as u64, HEADER as u64 + payload_len);
    assert_eq!(one.len() as u64, HEADER as u64 + entries);
    assert_eq!(&bytes[12..16], &[6, PN as u8, 0, 2]); // m, N, option bits, encoding 2
    assert_eq!(&bytes[16..24], &entries.to_le_bytes());
    let pcrc = u32::from_le_bytes(bytes[24..28].try_into().unwrap());
    assert_eq!(pcrc, crc32fast::hash(&bytes[HEADER..]));
    assert_eq!(
        (
            info.encoding,
            info.bits_per_entry,
            info.entries,
            info.payload_bytes,
            info.file_bytes
        ),
        (
            Encoding::Packed,
            w,
            entries,
            payload_len,
            bytes.len() as u64
        )
    );
    assert_eq!(
        (one_info.encoding, one_info.bits_per_entry),
        (Encoding::Byte, 8)
    );
    // Entry r of the packed stream is the value of byte r of the one-byte file plus n.
    let payload = &bytes[HEADER..];
    let mut r = 0u64;
    for n in 0..=PN {
        for _ in 0..level(u64::from(n)) {
            let v = i32::from(one[HEADER + r as usize]) - 128;
            assert_eq!(stream_code(payload, w, r) as i32, v + n as i32, "entry {r}");
            r += 1;
        }
    }
    // The bits after the last entry are 0.
    for bit in entries * u64::from(w)..payload.len() as u64 * 8 {
        assert_eq!((payload[(bit / 8) as usize] >> (bit % 8)) & 1, 0);
    }
    // Opened, it stays packed and answers every board as the one-byte database does.
    let path = scratch::file("open-packed.egdb");
    std::fs::write(&path, &bytes).unwrap();
    let back = AwariDb::open(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(back.encoding(), Encoding::Packed);
    assert_eq!(back.bytes() as u64, payload_len + 8);
    for n in 0..=PN {
        assert_eq!(back.level_stats(n), db.level_stats(n), "level {n}");
        for i in 0..level(u64::from(n)) {
            assert_eq!(
                back.value_at(n, i),
                db.value_at(n, i),
                "level {n} board {i}"
            );
        }
        assert_eq!(back.value_at(n, level(u64::from(n))), None);
    }
    assert_eq!(back.value_at(PN + 1, 0), None);
    // `value` and `move_values` on boards, indexed or not (every house full: not indexed).
    for text in [
        "1 1 1 1 1 1 1 1 1 1 1 1",
        "0 0 0 0 0 1 1 0 0 0 0 0",
        "2 0 3 0 1 0 0 2 0 1 0 3",
        "0 0 0 0 0 0 4 4 4 0 0 0",
    ] {
        let board = text.parse().unwrap();
        assert_eq!(
            back.board_value(&board).unwrap(),
            db.board_value(&board).unwrap(),
            "{text}"
        );
        assert_eq!(
            back.board_move_values(&board).unwrap(),
            db.board_move_values(&board).unwrap(),
            "{text}"
        );
    }
}

#[test]
fn conversion_round_trips_are_byte_identical() {
    let db = AwariDb::build(10, 2).unwrap();
    let (one, _) = saved_with_info(&db, "rt-one.egdb");
    let (packed, _) = saved_with_info(&db.convert(Encoding::Packed).unwrap(), "rt-packed.egdb");
    // packed file → open → one byte → save: the original one-byte file.
    let p = scratch::file("rt-p.egdb");
    std::fs::write(&p, &packed).unwrap();
    let opened = AwariDb::open(&p).unwrap();
    std::fs::remove_file(&p).unwrap();
    let (again, _) = saved_with_info(&opened.convert(Encoding::Byte).unwrap(), "rt-again.egdb");
    assert_eq!(again, one);
    // The packed database saved again, and packed again from the reopened one-byte file.
    let (same, _) = saved_with_info(&opened, "rt-same.egdb");
    assert_eq!(same, packed);
    let o = scratch::file("rt-o.egdb");
    std::fs::write(&o, &one).unwrap();
    let reopened = AwariDb::open(&o).unwrap();
    std::fs::remove_file(&o).unwrap();
    let (repacked, _) = saved_with_info(&reopened.convert(Encoding::Packed).unwrap(), "rt-re.egdb");
    assert_eq!(repacked, packed);
    // Converting to its own encoding copies.
    let (copy, _) = saved_with_info(&opened.convert(Encoding::Packed).unwrap(), "rt-copy.egdb");
    assert_eq!(copy, packed);
}

/// Sets entry `r` of the packed `payload` of `w`-bit codes to `code`.
fn with_code(payload: &mut [u8], w: u32, r: u64, code: u32) {
    for i in 0..w {
        let bit = r * u64::from(w) + u64::from(i);
        let mask = 1u8 << (bit % 8);
        let b = &mut payload[(bit / 8) as usize];
        if code >> i & 1 == 1 {
            *b |= mask;
        } else {
            *b &= !mask;
        }
    }
}

#[test]
fn damaged_packed_files_are_refused_with_their_error() {
    let db = AwariDb::build(N, 2)
        .unwrap()
        .convert(Encoding::Packed)
        .unwrap();
    let good = saved(&db);
    let w = packed_width(N);
    assert_eq!(w, 5);
    let repacked = |edit: &dyn Fn(&mut Vec<u8>)| {
        rewritten(&good, |h, p| {
            h.encoding = 2;
            edit(p);
        })
    };
    // The re-encoding itself gives back the file.
    assert_eq!(repacked(&|_| {}), good);
    // Level 2 starts at entry 13; its list −2..=2 has codes 0..=4: code 5 is past it,
    // reported as the value it would stand for, −2 + 5 = 3.
    let bad = repacked(&|p| with_code(p, w, 13, 5));
    assert_eq!(bad_entry(open_bytes("pcode.egdb", &bad)), (13, 2, 3));
    // The last entry (level N, codes 0..=16) given the largest code, 31: value −8 + 31.
    let last = (0..=u64::from(N)).map(level).sum::<u64>() - 1;
    let bad = repacked(&|p| with_code(p, w, last, 31));
    assert_eq!(bad_entry(open_bytes("pcode2.egdb", &bad)), (last, N, 23));
    // A code that is in its list is taken: the value −n + code.
    let ok = repacked(&|p| with_code(p, w, 13, 4));
    let path = scratch::file("pok.egdb");
    std::fs::write(&path, &ok).unwrap();
    let changed = AwariDb::open(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(changed.value_at(2, 0), Some(2));
    // 125,879 entries of 5 bits end 3 bits into the last byte: its 5 unused bits must be
    // 0. Each set, behind right checksums, is refused (two files would hold one database).
    let end = (0..=u64::from(N)).map(level).sum::<u64>() * u64::from(w);
    assert_eq!(end % 8, 3);
    assert_eq!(good.last().unwrap() >> 3, 0);
    for bit in 3..8 {
        let bad = repacked(&|p| *p.last_mut().unwrap() |= 1 << bit);
        match open_bytes("ppad.egdb", &bad) {
            Err(EgdbError::Padding { bits, found }) => {
                assert_eq!((bits, found), (5, 1 << (bit - 3)));
            }
            other => panic!("unused bit {bit}: {other:?}"),
        }
    }
    // A flipped bit in the payload: the checksum; truncated; one byte more.
    for at in [HEADER, HEADER + 500, good.len() - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        let r = open_bytes("pflip.egdb", &bad);
        assert!(matches!(r, Err(EgdbError::Checksum { .. })), "{at}: {r:?}");
    }
    let r = open_bytes("pcut.egdb", &good[..good.len() - 1]);
    assert!(matches!(r, Err(EgdbError::Truncated { .. })), "{r:?}");
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(
        open_bytes("plong.egdb", &long),
        Err(EgdbError::TooLong { .. })
    ));
    // The one-byte payload under encoding 2 and the packed one under encoding 1: sizes.
    let under_one = rewritten(&good, |h, _| h.encoding = 1);
    assert!(matches!(
        open_bytes("p1.egdb", &under_one),
        Err(EgdbError::Truncated { .. })
    ));
}

/// A header that asks for more memory than the machine has, behind a file of the length it
/// promises (sparse: nothing of it is on the disk), is refused before anything is read.
#[test]
fn a_file_larger_than_the_memory_is_refused_before_it_is_read() {
    let Some(avail) = mancala_solver::available_memory_bytes() else {
        panic!("/proc/meminfo has no MemAvailable: this test runs on Linux");
    };
    // The smallest N whose levels 0..=N take more bytes than are available (one a board).
    let total = |n: u32| (0..=u64::from(n)).map(level).sum::<u64>();
    let n = (0..=48u32)
        .find(|&n| total(n) > avail)
        .expect("the 48 seeds of Awari take about 1 TB");
    let header = Header {
        version: 1,
        houses: 6,
        max_seeds: n as u8,
        option_bits: 0,
        encoding: 1,
        entries: total(n),
        payload_crc: 0,
        rules: "awari".into(),
    };
    let head = header.encode();
    let path = scratch::file("huge.egdb");
    std::fs::write(&path, &head).unwrap();
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len(head.len() as u64 + total(n)).unwrap();
    drop(f);
    let r = AwariDb::open(&path);
    std::fs::remove_file(&path).unwrap();
    // The whole size asked for (every level, one byte a board), not the one level
    // whose allocation would fail while reading: refused before the first read.
    match r {
        Err(EgdbError::OutOfMemory(m)) => {
            assert_eq!(m.bytes as u64, total(n));
            // The memory available when the file was opened: MemAvailable moves between two
            // reads, but stays below what the file asks for (N is the first size above it).
            assert!(m.refused);
            let available = m.available.expect("refused for the memory available");
            let a = available.bytes;
            assert!(a < total(n) && a > total(n - 1) / 2, "{a} bytes available");
            // One line naming both sizes in bytes and in a readable unit (GiB with one
            // decimal from 1 GiB on, else whole MiB: a machine has more than 1 MiB free).
            let gib = |b: u64| match b as f64 / f64::from(1u32 << 30) {
                g if g >= 1.0 => format!("{g:.1} GiB"),
                g => format!("{:.0} MiB", g * 1024.0),
            };
            let text = EgdbError::OutOfMemory(m).to_string();
            // The bound is the machine's memory, or the room under `ulimit -v` when the test
            // runs under a smaller limit.
            let bound = match available.bound {
                mancala_solver::MemoryBound::Machine => "of memory available",
                mancala_solver::MemoryBound::AddressSpace => {
                    "left under the address-space limit (`ulimit -v`)"
                }
            };
            let want = format!(
                "cannot allocate {} bytes ({}), more than the {a} bytes ({}) {bound}",
                total(n),
                gib(total(n)),
                gib(a)
            );
            assert!(text.contains(&want), "{text}");
            assert!(!text.contains('\n'), "{text}");
        }
        other => panic!("N = {n}: {other:?}"),
    }
}

/// A save not told to overwrite (`Database::save_checked`) writes over nothing but the same
/// database: a file of another N, of another game or of no database is left byte for byte,
/// and the error names the file and what it holds; told to overwrite, it writes over it.
#[test]
fn a_save_keeps_a_file_that_holds_something_else_unless_told_to_overwrite() {
    let path = scratch::file("awari.n4.egdb");
    let (three, four) = (AwariDb::build(3, 1).unwrap(), AwariDb::build(4, 1).unwrap());
    // Nothing there: written.
    four.save_checked(&path, false).unwrap();
    let four_bytes = std::fs::read(&path).unwrap();
    // The same database again: written over (a save again, or a repair).
    four.save_checked(&path, false).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), four_bytes);
    // Another N: refused, the file as it was.
    let e = three.save_checked(&path, false).unwrap_err();
    assert!(matches!(e, EgdbError::Occupied { .. }), "{e}");
    assert_eq!(e.path(), Some(&*path as &std::path::Path));
    assert_eq!(
        e.reason(),
        "already exists and holds another database (awari, levels 0..=4, byte encoding): not written over with awari, levels 0..=3, byte encoding; a save told to overwrite writes over it"
    );
    assert_eq!(std::fs::read(&path).unwrap(), four_bytes);
    // Another encoding of the same N is another file, too.
    let packed = four.convert(Encoding::Packed).unwrap();
    assert!(matches!(
        packed.save_checked(&path, false),
        Err(EgdbError::Occupied { .. })
    ));
    // A file that is no database: refused, kept.
    let text = scratch::file("notes.egdb");
    std::fs::write(&text, "my notes\n").unwrap();
    let e = three.save_checked(&text, false).unwrap_err();
    assert!(
        e.reason()
            .starts_with("already exists and cannot be told to hold that database ("),
        "{e}"
    );
    assert_eq!(std::fs::read(&text).unwrap(), b"my notes\n");
    // `save` is that save (as C's `mancala_db_save` and Python's `Database.save`), for
    // either game, through the trait too; `save_over` is the one told to overwrite.
    assert!(matches!(three.save(&path), Err(EgdbError::Occupied { .. })));
    assert!(matches!(
        <AwariDb as mancala_solver::egdb::Database>::save(&three, &text),
        Err(EgdbError::Occupied { .. })
    ));
    let kalah: KalahRules = "kalah(2,1)".parse().unwrap();
    let kalah = Egdb::build(&kalah, 2, BuildOptions::new()).unwrap();
    assert!(matches!(kalah.save(&path), Err(EgdbError::Occupied { .. })));
    assert!(matches!(kalah.save(&text), Err(EgdbError::Occupied { .. })));
    assert_eq!(std::fs::read(&path).unwrap(), four_bytes);
    assert_eq!(std::fs::read(&text).unwrap(), b"my notes\n");
    kalah.save_over(&text).unwrap();
    assert_eq!(Egdb::open(&text).unwrap().max_seeds(), 2);
    std::fs::write(&text, "my notes\n").unwrap();
    // Told to overwrite: written over, and what is there is the new database.
    three.save_checked(&path, true).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), saved(&three));
    three.save_checked(&text, true).unwrap();
    assert_eq!(AwariDb::open(&text).unwrap().max_seeds(), 3);
}

/// A folder holding one database in every encoding: the folder scan tries byte, then packed,
/// then compact (the fastest lookups first), whatever the file names, for either game; the
/// scan and the search agree, and a larger K still comes first.
#[test]
fn a_folder_with_every_encoding_of_one_database_gives_the_byte_one_first() {
    use mancala_core::oware::OwareRules;
    use mancala_solver::egdb::{find_in, scan_folder};
    let anchor = scratch::file("awari.n3.egdb");
    let dir = anchor.parent().unwrap().to_path_buf();
    let three = AwariDb::build(3, 1).unwrap();
    // The names `egdb build` gives them: in byte order compact, byte, packed.
    let names = [
        (Encoding::Compact, "awari.n3.compact.egdb"),
        (Encoding::Byte, "awari.n3.egdb"),
        (Encoding::Packed, "awari.n3.packed.egdb"),
    ];
    for (encoding, name) in names {
        three
            .convert(encoding)
            .unwrap()
            .save(&dir.join(name))
            .unwrap();
    }
    let rules = OwareRules::AWARI;
    let order = |dir: &std::path::Path| -> Vec<String> {
        scan_folder::<AwariDb>(dir, &rules)
            .unwrap()
            .candidates
            .into_iter()
            .map(|(_, p)| p.file_name().unwrap().to_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        order(&dir),
        [
            "awari.n3.egdb",
            "awari.n3.packed.egdb",
            "awari.n3.compact.egdb"
        ]
    );
    let found = find_in::<AwariDb>(&dir, &rules).unwrap();
    assert_eq!(found.path, dir.join("awari.n3.egdb"));
    assert_eq!(found.database.encoding(), Encoding::Byte);
    // Without the byte file: packed before compact.
    std::fs::remove_file(dir.join("awari.n3.egdb")).unwrap();
    let found = find_in::<AwariDb>(&dir, &rules).unwrap();
    assert_eq!(found.database.encoding(), Encoding::Packed);
    // A larger N in the slowest encoding still comes first.
    AwariDb::build(4, 1)
        .unwrap()
        .convert(Encoding::Compact)
        .unwrap()
        .save(&dir.join("awari.n4.compact.egdb"))
        .unwrap();
    assert_eq!(
        order(&dir),
        [
            "awari.n4.compact.egdb",
            "awari.n3.packed.egdb",
            "awari.n3.compact.egdb"
        ]
    );

    // Kalah: by the header's encoding, not the name (the packed file named first).
    let kalah_anchor = scratch::file("a.egdb");
    let kdir = kalah_anchor.parent().unwrap().to_path_buf();
    let krules: KalahRules = "kalah(6,4)".parse().unwrap();
    let kalah = Egdb::build(&krules, 3, BuildOptions::new()).unwrap();
    kalah
        .convert(Encoding::Packed)
        .unwrap()
        .save(&kdir.join("a.egdb"))
        .unwrap();
    kalah.save(&kdir.join("b.egdb")).unwrap();
    let found = Egdb::find_in(&kdir, &krules).unwrap();
    assert_eq!(found.path, kdir.join("b.egdb"));
    assert_eq!(found.database.encoding(), Encoding::Byte);
}
