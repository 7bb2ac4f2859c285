//! A database file cut at every section boundary of the format, or with a byte flipped in
//! every section (every byte of the header), is refused with a typed error by every way of
//! reading it: `Egdb::open` (positioned reads), `Egdb::load`, `Egdb::from_bytes` and, for the
//! header, `Egdb::info`. A file whose checksums are right but whose entries are impossible is
//! refused too.
//!
//! The sections (module docs of `egdb`): magic 0..8, version 8..12, m 12, K 13, options 14,
//! encoding 15, entries 16..24, payload CRC 24..28, rule-set length 28..32, rule set
//! 32..32+n, header CRC 32+n..36+n, payload 36+n..end.

use std::path::{Path, PathBuf};

use mancala_core::kalah::KalahRules;
use mancala_solver::egdb::{decode, MAGIC};
use mancala_solver::{Egdb, EgdbError};

const RULES: &str = "kalah(3,1)+empty_capture";

/// A file name of this test thread (the tests run in parallel).
fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mancala-egdb-damage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{:?}-{name}", std::thread::current().id()))
}

/// A good file: Kalah(3,·)+empty_capture, K = 5, C(11, 6) = 462 entries.
fn good_file() -> Vec<u8> {
    let rules: KalahRules = RULES.parse().unwrap();
    let db = Egdb::build(&rules, 5, None).unwrap();
    assert_eq!(db.len(), 462);
    let path = tmp("good.egdb");
    db.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(bytes.len(), 36 + RULES.len() + 462);
    assert_eq!(&bytes[..8], &MAGIC);
    bytes
}

/// The sections of the file: (name, start, end).
fn sections(len: usize) -> Vec<(&'static str, usize, usize)> {
    let n = RULES.len();
    vec![
        ("magic", 0, 8),
        ("version", 8, 12),
        ("m", 12, 13),
        ("K", 13, 14),
        ("options", 14, 15),
        ("encoding", 15, 16),
        ("entries", 16, 24),
        ("payload CRC", 24, 28),
        ("rule-set length", 28, 32),
        ("rule set", 32, 32 + n),
        ("header CRC", 32 + n, 36 + n),
        ("payload", 36 + n, len),
    ]
}

/// Every way of reading `bytes`: the results of `from_bytes`, `open` and `load`.
fn read_all(bytes: &[u8], name: &str) -> Vec<(&'static str, Result<Egdb, EgdbError>)> {
    let path = tmp(name);
    std::fs::write(&path, bytes).unwrap();
    let r = vec![
        ("from_bytes", Egdb::from_bytes(bytes)),
        ("open", Egdb::open(&path)),
        ("load", Egdb::load(&path)),
    ];
    let _ = std::fs::remove_file(&path);
    r
}

fn header_of(bytes: &[u8], name: &str) -> Result<mancala_solver::EgdbInfo, EgdbError> {
    let path = tmp(name);
    std::fs::write(&path, bytes).unwrap();
    let r = Egdb::info(Path::new(&path));
    let _ = std::fs::remove_file(&path);
    r
}

#[test]
fn the_good_file_reads_back() {
    let good = good_file();
    for (how, r) in read_all(&good, "intact.egdb") {
        let db = r.unwrap_or_else(|e| panic!("{how}: {e}"));
        assert_eq!(
            (db.houses(), db.max_seeds(), db.len()),
            (3, 5, 462),
            "{how}"
        );
        assert_eq!(db.built_with(), RULES);
    }
    assert_eq!(header_of(&good, "intact-info.egdb").unwrap().entries, 462);
}

#[test]
fn a_file_cut_at_or_next_to_any_section_boundary_is_truncated() {
    let good = good_file();
    let mut cuts: Vec<usize> = Vec::new();
    for (_, start, end) in sections(good.len()) {
        for c in [start.wrapping_sub(1), start, start + 1, end - 1, end] {
            if c < good.len() {
                cuts.push(c);
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    assert_eq!(cuts.len(), 28, "{cuts:?}");
    for cut in cuts {
        let bytes = &good[..cut];
        for (how, r) in read_all(bytes, "cut.egdb") {
            match r {
                Err(EgdbError::Truncated { expected, found }) => {
                    assert_eq!(found, cut as u64, "{how}, cut at {cut}");
                    assert!(expected > found, "{how}, cut at {cut}: expected {expected}");
                }
                other => panic!("{how}, cut at {cut}: {other:?}"),
            }
        }
        let info = header_of(bytes, "cut-info.egdb");
        assert!(
            matches!(info, Err(EgdbError::Truncated { .. })),
            "info, cut at {cut}: {info:?}"
        );
    }
}

#[test]
fn a_flipped_byte_in_any_section_is_refused_with_its_error() {
    let good = good_file();
    let len = good.len();
    for (section, start, end) in sections(len) {
        // Every byte of the header; the first, a middle and the last byte of the payload.
        let offsets: Vec<usize> = if section == "payload" {
            vec![start, (start + end) / 2, end - 1]
        } else {
            (start..end).collect()
        };
        for at in offsets {
            for mask in [0x01u8, 0x80, 0xFF] {
                let mut bytes = good.clone();
                bytes[at] ^= mask;
                for (how, r) in read_all(&bytes, "flip.egdb") {
                    let what = format!("{how}: {section} byte {at} ^ {mask:#04x}");
                    match (section, r) {
                        ("magic", Err(EgdbError::BadMagic(_))) => {}
                        ("version", Err(EgdbError::Version { found, expected: 1 })) => {
                            assert_eq!(found, 1 ^ (u32::from(mask) << (8 * (at - 8))), "{what}");
                        }
                        // A length that moves the header CRC: over the limit, past the end of
                        // the file, or a CRC read from the wrong place.
                        ("rule-set length", Err(EgdbError::Header(_)))
                        | ("rule-set length", Err(EgdbError::Truncated { .. })) => {}
                        ("payload", Err(EgdbError::Checksum { stored, computed })) => {
                            assert_ne!(stored, computed, "{what}");
                        }
                        (
                            "m" | "K" | "options" | "encoding" | "entries" | "payload CRC"
                            | "rule set" | "header CRC",
                            Err(EgdbError::Header(why)),
                        ) => assert_eq!(why, "header checksum mismatch", "{what}"),
                        (_, other) => panic!("{what}: {other:?}"),
                    }
                }
                // The header reader sees every header damage, and no payload damage.
                let info = header_of(&bytes, "flip-info.egdb");
                assert_eq!(
                    section == "payload",
                    info.is_ok(),
                    "info: {section} {at}: {info:?}"
                );
            }
        }
    }
}

#[test]
fn trailing_bytes_are_refused() {
    let mut bytes = good_file();
    bytes.push(0x80);
    for (how, r) in read_all(&bytes, "long.egdb") {
        assert!(
            matches!(&r, Err(EgdbError::Header(why)) if why == "1 bytes after the last entry"),
            "{how}: {r:?}"
        );
    }
}

/// Regression (found writing the `egdb_load` fuzz target, whose recipe inputs carry right
/// checksums): an entry no position of its seed count can have, in a file whose checksums
/// are right, used to load, and `value` then served it.
#[test]
fn a_file_with_right_checksums_but_an_impossible_entry_is_refused() {
    let good = good_file();
    let n = RULES.len();
    let payload_at = 36 + n;
    // Rank 1 is in layer k = 1 (ranks 1..=6): one seed, so the value is -1 or +1.
    for (value, rank) in [(3i32, 1usize), (-3, 2), (-128, 1), (127, 461), (6, 461)] {
        let mut bytes = good.clone();
        bytes[payload_at + rank] = (value + 128) as u8;
        let crc = crc32fast::hash(&bytes[payload_at..]);
        bytes[24..28].copy_from_slice(&crc.to_le_bytes());
        let hcrc = crc32fast::hash(&bytes[..32 + n]);
        bytes[32 + n..36 + n].copy_from_slice(&hcrc.to_le_bytes());
        assert_eq!(decode(bytes[payload_at + rank]), value);
        for (how, r) in read_all(&bytes, "crafted.egdb") {
            match r {
                Err(EgdbError::BadEntry {
                    rank: r, value: v, ..
                }) => assert_eq!((r, v), (rank as u64, value), "{how}"),
                other => panic!("{how}: value {value} at rank {rank}: {other:?}"),
            }
        }
    }
}
