//! A database file cut at every section boundary of the format, or with a byte flipped in
//! every section (every byte of the header), is refused with a typed error by every way of
//! reading it: `Egdb::open` (positioned reads), `Egdb::load`, `Egdb::from_bytes` and, for the
//! header, `Egdb::info`. A file whose checksums are right but whose entries are impossible is
//! refused too. Every test runs on both entry encodings (one byte, packed).
//!
//! The sections (module docs of `egdb`): magic 0..8, version 8..12, m 12, K 13, options 14,
//! encoding 15, entries 16..24, payload CRC 24..28, rule-set length 28..32, rule set
//! 32..32+n, header CRC 32+n..36+n, payload 36+n..end.

mod scratch;

use std::path::Path;

use mancala_core::kalah::KalahRules;
use mancala_solver::egdb::{decode, Encoding};
use mancala_solver::{BuildOptions, Egdb, EgdbError};

const RULES: &str = "kalah(3,1)+empty_capture";

/// A good file: Kalah(3,·)+empty_capture, K = 5, C(11, 6) = 462 entries, in `encoding`:
/// 462 bytes of payload, or 462 packed entries of 3 bits (layer 5 allows −5, −3, −1, 0, 1,
/// 3, 5: seven codes), 174 bytes.
fn good_file(encoding: Encoding) -> Vec<u8> {
    let rules: KalahRules = RULES.parse().unwrap();
    let db = Egdb::build(&rules, 5, BuildOptions::new().encoding(encoding)).unwrap();
    assert_eq!(db.len(), 462);
    let path = scratch::file("good.egdb");
    db.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let payload = match encoding {
        Encoding::Byte => 462,
        Encoding::Packed => (462 * 3usize).div_ceil(8),
        Encoding::Compact => unreachable!("a Kalah build refuses it"),
    };
    assert_eq!(bytes.len(), 36 + RULES.len() + payload);
    assert_eq!(&bytes[..8], b"MNCLEGDB");
    assert_eq!(bytes[15], encoding.code());
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
    let path = scratch::file(name);
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
    let path = scratch::file(name);
    std::fs::write(&path, bytes).unwrap();
    let r = Egdb::info(Path::new(&*path));
    let _ = std::fs::remove_file(&path);
    r
}

#[test]
fn the_good_file_reads_back() {
    for e in Encoding::ALL {
        let good = good_file(e);
        for (how, r) in read_all(&good, "intact.egdb") {
            let db = r.unwrap_or_else(|err| panic!("{e}, {how}: {err}"));
            assert_eq!(
                (db.houses(), db.max_seeds(), db.len(), db.encoding()),
                (3, 5, 462, e),
                "{how}"
            );
            assert_eq!(db.built_with(), RULES);
        }
        let info = header_of(&good, "intact-info.egdb").unwrap();
        assert_eq!((info.entries, info.encoding()), (462, e));
    }
}

#[test]
fn a_file_cut_at_or_next_to_any_section_boundary_is_truncated() {
    for e in Encoding::ALL {
        a_file_cut_is_truncated(&good_file(e));
    }
}

fn a_file_cut_is_truncated(good: &[u8]) {
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
                Err(EgdbError::Truncated {
                    expected, found, ..
                }) => {
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
    for e in Encoding::ALL {
        a_flipped_byte_is_refused(&good_file(e));
    }
}

fn a_flipped_byte_is_refused(good: &[u8]) {
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
                let mut bytes = good.to_vec();
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
                        | ("rule-set length", Err(EgdbError::Truncated { .. }))
                        | ("rule-set length", Err(EgdbError::TooLong { .. })) => {}
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
    for e in Encoding::ALL {
        let mut bytes = good_file(e);
        bytes.push(0x80);
        for (how, r) in read_all(&bytes, "long.egdb") {
            assert!(
                matches!(&r, Err(EgdbError::TooLong { expected, found }) if *found == *expected + 1 && *found == bytes.len() as u64),
                "{e}, {how}: {r:?}"
            );
            let msg = r.err().map(|e| e.to_string()).unwrap_or_default();
            assert!(msg.ends_with("(1 byte after the last entry)"), "{msg}");
        }
    }
}

/// Regression (found writing the `egdb_load` fuzz target, whose recipe inputs carry right
/// checksums): an entry no position of its seed count can have, in a file whose checksums
/// are right, used to load, and `value` then served it.
#[test]
fn a_file_with_right_checksums_but_an_impossible_entry_is_refused() {
    let good = good_file(Encoding::Byte);
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

/// The message of a refused entry names what is wrong with it: a value outside −k..=k its
/// range, a value inside it the parity rule (docs/egdb.md: every seed ends in a store, so a
/// board of k seeds has a value of k's parity, and 0 of an odd k only once the game is over).
#[test]
fn a_refused_entry_is_named_by_its_fault_range_or_parity() {
    let good = good_file(Encoding::Byte);
    let n = RULES.len();
    let payload_at = 36 + n;
    // Rank 1 is in layer 1 (ranks 1..=6), rank 7 the first of layer 2 (ranks 7..=27).
    for (value, rank, message) in [
        (
            3i32,
            1usize,
            "entry 1 (1 seed in the houses) holds 3, a value no board of that many seeds has under the database's rules (at most -1..=1)",
        ),
        (
            1,
            7,
            "entry 7 (2 seeds in the houses) holds 1, a value of the wrong parity: under the database's rules every seed ends in one of the two stores, so a board of 2 seeds has a value of 2's parity (even)",
        ),
        (
            -1,
            7,
            "entry 7 (2 seeds in the houses) holds -1, a value of the wrong parity: under the database's rules every seed ends in one of the two stores, so a board of 2 seeds has a value of 2's parity (even)",
        ),
    ] {
        let mut bytes = good.clone();
        bytes[payload_at + rank] = (value + 128) as u8;
        let crc = crc32fast::hash(&bytes[payload_at..]);
        bytes[24..28].copy_from_slice(&crc.to_le_bytes());
        let hcrc = crc32fast::hash(&bytes[..32 + n]);
        bytes[32 + n..36 + n].copy_from_slice(&hcrc.to_le_bytes());
        for (how, r) in read_all(&bytes, "fault.egdb") {
            match r {
                Err(e @ EgdbError::BadEntry { .. }) => assert_eq!(e.to_string(), message, "{how}"),
                other => panic!("{how}: value {value} at rank {rank}: {other:?}"),
            }
        }
    }
    // The 0 of layer 3 in a position with moves on both sides (packed: code 2).
    let live = rank(&[1, 0, 0, 1, 1, 0]);
    let packed = good_file(Encoding::Packed);
    for (how, r) in read_all(&with_code(&packed, live, 2), "fault-zero.egdb") {
        match r {
            Err(e @ EgdbError::BadEntry { .. }) => assert_eq!(
                e.to_string(),
                format!(
                    "entry {live} (3 seeds in the houses) holds 0 in a game not over, a value of the wrong parity: under the database's rules every seed ends in one of the two stores, so a board of 3 seeds has a value of 3's parity (odd, or 0 once the game is over)"
                ),
                "{how}"
            ),
            other => panic!("{how}: {other:?}"),
        }
    }
}

/// Puts code `c` (3 bits) at entry `rank` of the packed payload of `bytes` (the file of
/// [`RULES`]), then makes both checksums right again.
fn with_code(good: &[u8], rank: usize, c: u8) -> Vec<u8> {
    with_code_of(good, RULES.len(), 3, rank, c)
}

/// Puts code `c` of `width` bits at entry `rank` of the packed payload of the file `good`,
/// whose rule-set string has `rules_len` bytes (the payload starts at 36 + `rules_len`),
/// then makes both checksums right again.
fn with_code_of(good: &[u8], rules_len: usize, width: usize, rank: usize, c: u8) -> Vec<u8> {
    let n = rules_len;
    let payload_at = 36 + n;
    let mut bytes = good.to_vec();
    for b in 0..width {
        let bit = rank * width + b;
        let byte = &mut bytes[payload_at + bit / 8];
        *byte = (*byte & !(1 << (bit % 8))) | (((c >> b) & 1) << (bit % 8));
    }
    let crc = crc32fast::hash(&bytes[payload_at..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    let hcrc = crc32fast::hash(&bytes[..32 + n]);
    bytes[32 + n..36 + n].copy_from_slice(&hcrc.to_le_bytes());
    bytes
}

/// The colex rank of a distribution of seeds over the 2m houses (the mover's, then the
/// opponent's): Σ C(pᵢ + i, i + 1), pᵢ the seeds in houses 0..=i (crate docs of the solver),
/// computed here on its own.
fn rank(houses: &[u64]) -> usize {
    let binom = |n: u64, k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    let mut p = 0;
    let mut r = 0;
    for (i, &c) in houses.iter().enumerate() {
        p += c;
        r += binom(p + i as u64, i as u64 + 1);
    }
    r as usize
}

/// The packed encoding's own checks: a code past its layer's list of values, and the 0 that
/// an odd layer keeps for finished positions put in a position with moves, each in a file
/// whose checksums are right, are refused as the one-byte encoding refuses a bad value.
#[test]
fn a_packed_file_with_right_checksums_but_an_impossible_code_is_refused() {
    let good = good_file(Encoding::Packed);
    for (how, r) in read_all(&good, "packed-good.egdb") {
        assert!(r.is_ok(), "{how}");
    }
    // Layer 1 (ranks 1..=6) allows −1, 0 (finished positions only), 1: codes 0..=2. Codes
    // 3..=7 stand past the list; reported as the values −1 + 2c would be.
    for c in 3..8u8 {
        let bytes = with_code(&good, 1, c);
        for (how, r) in read_all(&bytes, "packed-code.egdb") {
            match r {
                Err(EgdbError::BadEntry { rank, seeds, value }) => {
                    assert_eq!((rank, seeds, value), (1, 1, -1 + 2 * i32::from(c)), "{how}");
                }
                other => panic!("{how}: code {c}: {other:?}"),
            }
        }
    }
    // Layer 3 allows −3, −1, 0, 1, 3: 0 (code 2) only where the game is over. One seed in
    // the mover's first house and one in each of the opponent's first two: moves on both
    // sides, so 0 is impossible there; with the mover's row empty, it is the entry.
    let live = rank(&[1, 0, 0, 1, 1, 0]);
    let finished = rank(&[0, 0, 0, 1, 1, 1]);
    for (how, r) in read_all(&with_code(&good, live, 2), "packed-zero.egdb") {
        match r {
            Err(EgdbError::BadEntry { rank, seeds, value }) => {
                assert_eq!((rank, seeds, value), (live as u64, 3, 0), "{how}");
            }
            other => panic!("{how}: {other:?}"),
        }
    }
    for (how, r) in read_all(&with_code(&good, finished, 2), "packed-zero-ok.egdb") {
        let db = r.unwrap_or_else(|e| panic!("{how}: {e}"));
        assert_eq!(db.value_at(finished as u64), Some(0), "{how}");
    }
}

/// The 462 entries of 3 bits end 2 bits into the payload's last byte: its 6 unused bits must
/// be 0. Each set, in a file whose checksums are right, is refused (else two files would
/// hold one database); the good file, whose unused bits are 0, reads back.
#[test]
fn a_packed_file_with_a_set_unused_bit_is_refused() {
    let good = good_file(Encoding::Packed);
    assert_eq!(good.last().unwrap() >> 2, 0);
    for bit in 0..6 {
        // Entry 462, one past the last, covers the unused bits 0..3; entry 463 bits 3..6.
        let bytes = with_code(&good, 462 + bit / 3, 1 << (bit % 3));
        assert_eq!(bytes.len(), good.len());
        for (how, r) in read_all(&bytes, "packed-padding.egdb") {
            match r {
                Err(EgdbError::Padding { bits, found }) => {
                    assert_eq!((bits, found), (6, 1 << bit), "{how}");
                }
                other => panic!("{how}: unused bit {bit}: {other:?}"),
            }
        }
    }
    let text = with_code(&good, 463, 4);
    let e = Egdb::from_bytes(&text).unwrap_err().to_string();
    assert_eq!(
        e,
        "the 6 unused bits after the last entry of the packed payload are not 0 (found 0x20): the file is corrupt"
    );
}

/// The codes of a packed file are checked 64 at a time where a layer covers whole groups of
/// 64 entries, one at a time at the layer's ends: a bad code is found wherever it is (first
/// or last of a group, inside one, next to a layer's boundary), and with two bad codes the
/// first in rank order is reported. Kalah(3,·)+empty_capture, K = 12: C(18, 6) = 18,564
/// entries of 4 bits (the longest lists, layers 11 and 12, hold 13 values); layer k starts at
/// rank C(k + 5, 6).
#[test]
fn a_bad_code_is_found_anywhere_in_a_larger_packed_file() {
    let text = "kalah(3,4)+empty_capture";
    let rules: KalahRules = text.parse().unwrap();
    let db = Egdb::build(&rules, 12, BuildOptions::new().encoding(Encoding::Packed)).unwrap();
    assert_eq!((db.len(), db.bits_per_entry()), (18_564, 4));
    let path = scratch::file("larger.egdb");
    db.save(&path).unwrap();
    let good = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let binom = |n: u64, k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    let layer_of = |r: u64| (0..=12u32).rev().find(|&k| binom(u64::from(k) + 5, 6) <= r);
    // Layer 10 is ranks 5005..8008, layer 12 12376..18564.
    for r in [
        5005u64, 5006, 5055, 5056, 5119, 5120, 5121, 6000, 8007, 12_376, 18_500, 18_563,
    ] {
        let k = layer_of(r).unwrap();
        // Code 15 is past every list (at most 13 values).
        let bytes = with_code_of(&good, text.len(), 4, r as usize, 15);
        for (how, got) in read_all(&bytes, "larger-code.egdb") {
            match got {
                Err(EgdbError::BadEntry { rank, seeds, value }) => {
                    assert_eq!((rank, seeds, value), (r, k, -(k as i32) + 30), "{how}");
                }
                other => panic!("{how}: rank {r}: {other:?}"),
            }
        }
    }
    // Two bad codes in one layer: the first in rank order is reported.
    let two = with_code_of(
        &with_code_of(&good, text.len(), 4, 18_000, 14),
        text.len(),
        4,
        13_000,
        15,
    );
    for (how, got) in read_all(&two, "larger-two.egdb") {
        assert!(
            matches!(
                got,
                Err(EgdbError::BadEntry {
                    rank: 13_000,
                    seeds: 12,
                    ..
                })
            ),
            "{how}: {got:?}"
        );
    }
    // Layer 11 allows −11, −9, …, −1, 0, 1, …, 11: 0 (code 6) only where the game is over. A
    // position with moves on both sides, inside a whole group, holding 0: refused.
    let live = rank(&[4, 0, 1, 3, 2, 1]) as u64;
    assert_eq!(layer_of(live), Some(11));
    assert!(!live.is_multiple_of(64) && live % 64 != 63);
    for (how, got) in read_all(
        &with_code_of(&good, text.len(), 4, live as usize, 6),
        "larger-zero.egdb",
    ) {
        match got {
            Err(EgdbError::BadEntry { rank, seeds, value }) => {
                assert_eq!((rank, seeds, value), (live, 11, 0), "{how}");
            }
            other => panic!("{how}: {other:?}"),
        }
    }
}
