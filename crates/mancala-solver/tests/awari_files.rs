//! Awari database files (`AwariDb::save`, `AwariDb::open`, `AwariDb::info`): the header laid
//! out as the format documents it, a save/open round trip giving the same value for every
//! board, and every damaged or mismatched file refused with its typed error: truncated, a
//! bit flipped in the payload or the header, a value outside −n..=n behind right checksums,
//! a Kalah file opened as Awari and an Awari file opened as Kalah.

use std::path::PathBuf;

use mancala_core::kalah::KalahRules;
use mancala_core::GameKind;
use mancala_solver::awari::{AwariDb, FILE_RULES};
use mancala_solver::egdb::{game_of_file, Header};
use mancala_solver::{BuildOptions, Egdb, EgdbError};

/// A file name of this test thread (the tests run in parallel).
fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mancala-awari-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{:?}-{name}", std::thread::current().id()))
}

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
    let path = tmp("saved.egdb");
    db.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    bytes
}

/// `bytes` written to a file of this thread, opened as Awari.
fn open_bytes(name: &str, bytes: &[u8]) -> Result<AwariDb, EgdbError> {
    let path = tmp(name);
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

    let path = tmp("round.egdb");
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
            matches!(r, Err(EgdbError::Header(_) | EgdbError::Truncated { .. })),
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
        Err(EgdbError::Header(_))
    ));
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
    match open_bytes("value.egdb", &bad) {
        Err(EgdbError::BadEntry { rank, seeds, value }) => {
            assert_eq!((rank, seeds, value), (13, 2, 3));
        }
        other => panic!("{other:?}"),
    }
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
    // The packed encoding and an unknown one.
    for code in [2, 9] {
        let other = rewritten(&good, |h, _| h.encoding = code);
        assert!(matches!(
            open_bytes("enc.egdb", &other),
            Err(EgdbError::Header(_))
        ));
    }
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
    let kalah = tmp("kalah.egdb");
    let rules: KalahRules = "kalah(6,4)".parse().unwrap();
    Egdb::build(&rules, 3, BuildOptions::new())
        .unwrap()
        .save(&kalah)
        .unwrap();
    let awari = tmp("awari.egdb");
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
/// the cache's name (or a damaged one) refused and rebuilt.
#[test]
fn the_cache_builds_once_and_refuses_a_file_that_is_not_its_name() {
    use mancala_solver::awari::AwariCacheEvent;
    use mancala_solver::Cache;
    let dir = tmp("cache");
    let _ = std::fs::remove_dir_all(&dir);
    let cache = Cache::new(&dir);
    let mut levels = 0;
    let first = cache
        .awari_get_or_build(5, 1, &mut |e| {
            if let AwariCacheEvent::Level(_) = e {
                levels += 1;
            }
        })
        .unwrap();
    assert!(first.built && first.save_error.is_none());
    assert_eq!(levels, 6);
    assert_eq!(first.path, dir.join("awari.n5.egdb"));
    let again = cache.awari_get_or_build(5, 1, &mut |_| {}).unwrap();
    assert!(!again.built);
    for n in 0..=5 {
        for i in 0..level(u64::from(n)) {
            assert_eq!(again.database.value_at(n, i), first.database.value_at(n, i));
        }
    }
    // Levels 0..=4 saved under the name of N = 5.
    AwariDb::build(4, 1)
        .unwrap()
        .save(&cache.awari_path(5))
        .unwrap();
    assert!(matches!(cache.awari_open(5), Err(EgdbError::Header(_))));
    let mut refused = 0;
    let rebuilt = cache
        .awari_get_or_build(5, 1, &mut |e| {
            if let AwariCacheEvent::Refused { .. } = e {
                refused += 1;
            }
        })
        .unwrap();
    assert!(rebuilt.built);
    assert_eq!(refused, 1);
    assert_eq!(cache.awari_open(5).unwrap().max_seeds(), 5);
    // N above the game's 48 seeds.
    assert!(matches!(
        cache.awari_get_or_build(49, 1, &mut |_| {}),
        Err(EgdbError::MoreSeedsThanTheGame { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}
