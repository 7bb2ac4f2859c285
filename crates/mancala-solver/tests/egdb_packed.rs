//! The packed entry encoding against the one-byte one: the same value for every entry of
//! every small database (built either way, converted either way, saved and read back), the
//! sizes the format promises, and the same solve, node for node, with either.
//!
//! The one-byte entries themselves are checked against a plain minimax written from the rules
//! (`egdb::build` unit tests) and against the solver (`tests/egdb.rs`); here the packed ones
//! are checked against them.

use std::sync::Arc;

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_solver::egdb::{decode, Encoding};
use mancala_solver::{BuildOptions, Egdb, SolveOptions, Solver};

/// A scratch folder of one test, in Cargo's folder for the files of integration tests; the
/// guard removes it when the test ends, passed or failed.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("egdb-packed-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
}

/// Every option set that changes database values, on the board size `m`.
fn rule_sets(m: u8) -> Vec<KalahRules> {
    let mut all = Vec::new();
    for bits in 0..8u32 {
        // n = 17: at least K seeds in the game (2·m·n ≥ K) for every K of the tests.
        let mut text = format!("kalah({m},17)");
        for (bit, name) in [
            (1, "empty_capture"),
            (2, "end_when_no_move"),
            (4, "discard_remaining"),
        ] {
            if bits & bit != 0 {
                text.push('+');
                text.push_str(name);
            }
        }
        all.push(text.parse().unwrap());
    }
    all
}

/// C(n, k).
fn binom(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The bits of a packed entry, from the format's definition: the number of values the
/// longest layer allows (k + 1 for an even k, k + 2 for an odd one under the parity rules,
/// 2k + 1 under `discard_remaining`), rounded up to a power of two.
fn width(k_max: u32, discard: bool) -> u32 {
    let count = (0..=k_max)
        .map(|k| if discard { 2 * k + 1 } else { k + 1 + k % 2 })
        .max()
        .unwrap();
    (u32::BITS - (count - 1).leading_zeros()).max(1)
}

#[test]
fn packed_and_one_byte_databases_give_the_same_value_for_every_position() {
    let scratch = scratch();
    // Every position of these databases, every option set: C(K+2m, 2m) entries each.
    for (m, k) in [(1u8, 33u32), (2, 16), (3, 11), (4, 9), (6, 7)] {
        for rules in rule_sets(m) {
            let discard = rules.to_string().contains("discard_remaining");
            let byte =
                Egdb::build(&rules, k, BuildOptions::new().encoding(Encoding::Byte)).unwrap();
            let packed =
                Egdb::build(&rules, k, BuildOptions::new().encoding(Encoding::Packed)).unwrap();
            let n = binom(u64::from(k) + 2 * u64::from(m), 2 * u64::from(m));
            assert_eq!(byte.len() as u64, n);
            assert_eq!(packed.len() as u64, n);
            assert_eq!(packed.encoding(), Encoding::Packed);
            let w = width(k, discard);
            assert_eq!(packed.bits_per_entry(), w, "{rules}, K = {k}");
            assert_eq!(
                packed.payload().len() as u64,
                (n * u64::from(w)).div_ceil(8)
            );
            assert!(packed.check_entries().is_ok());
            // Through a file: saved, opened, checked.
            let path = scratch.path().join("p.egdb");
            packed.save(&path).unwrap();
            let reopened = Egdb::open(&path).unwrap();
            std::fs::remove_file(&path).unwrap();
            assert_eq!(reopened.payload(), packed.payload());
            for r in 0..n {
                let want = decode(byte.payload()[r as usize]);
                assert_eq!(byte.value_at(r), Some(want));
                assert_eq!(packed.value_at(r), Some(want), "{rules}, K = {k}, rank {r}");
                assert_eq!(reopened.value_at(r), Some(want));
            }
            assert_eq!(packed.value_at(n), None);
            // Conversions both ways give the other build, byte for byte.
            assert_eq!(
                byte.convert(Encoding::Packed).unwrap().payload(),
                packed.payload()
            );
            assert_eq!(
                packed.convert(Encoding::Byte).unwrap().payload(),
                byte.payload()
            );
            assert_eq!(
                packed.convert(Encoding::Packed).unwrap().payload(),
                packed.payload()
            );
        }
    }
}

#[test]
fn the_widths_of_the_format() {
    // 5 bits from K = 15 to K = 30 under the parity rules, 6 from K = 31; under
    // discard_remaining 5 bits up to K = 15.
    let rules: KalahRules = "kalah(1,16)".parse().unwrap();
    let discard: KalahRules = "kalah(1,16)+discard_remaining".parse().unwrap();
    for (k, w, wd) in [(14, 4, 5), (15, 5, 5), (16, 5, 6), (30, 5, 6), (31, 6, 6)] {
        let db = Egdb::build(&rules, k, BuildOptions::new().encoding(Encoding::Packed)).unwrap();
        assert_eq!(db.bits_per_entry(), w, "K = {k}");
        assert_eq!(Encoding::Packed.bits_per_entry(k, rules.options()), w);
        let dd = Egdb::build(&discard, k, BuildOptions::new().encoding(Encoding::Packed)).unwrap();
        assert_eq!(dd.bits_per_entry(), wd, "K = {k}, discard");
        assert_eq!(width(k, false), w);
        assert_eq!(width(k, true), wd);
    }
    assert_eq!(Encoding::Byte.bits_per_entry(20, rules.options()), 8);
}

#[test]
fn the_header_says_the_encoding_and_the_sizes() {
    let rules: KalahRules = "kalah(4,3)+empty_capture".parse().unwrap();
    let scratch = scratch();
    for e in Encoding::ALL {
        let db = Egdb::build(&rules, 12, BuildOptions::new().encoding(e)).unwrap();
        let path = scratch.path().join(format!("{e}.egdb"));
        db.save(&path).unwrap();
        let info = Egdb::info(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let n = binom(20, 8);
        let (bits, payload) = match e {
            Encoding::Byte => (8, n),
            Encoding::Packed => (4, n.div_ceil(2)),
            Encoding::Compact => unreachable!("not in Encoding::ALL"),
        };
        assert_eq!(info.encoding(), e);
        assert_eq!(info.encoding, e.code());
        assert_eq!(info.bits_per_entry, bits);
        assert_eq!(info.entries, n);
        assert_eq!(info.payload_bytes, payload);
        assert_eq!(
            info.file_bytes,
            36 + "kalah(4,3)+empty_capture".len() as u64 + payload
        );
        // In memory: the payload, and 8 bytes of padding for a packed one.
        let pad = if e == Encoding::Packed { 8 } else { 0 };
        assert_eq!(info.memory_bytes, payload + pad);
        assert_eq!(db.bytes() as u64, payload + pad);
        assert_eq!(
            Egdb::file_name(&rules, 12, e),
            match e {
                Encoding::Byte => "kalah4+empty_capture.k12.egdb",
                Encoding::Packed => "kalah4+empty_capture.k12.packed.egdb",
                Encoding::Compact => unreachable!("not in Encoding::ALL"),
            }
        );
    }
}

/// The solver looks up the same values in either encoding, so it searches the same tree:
/// the same nodes at one thread, and the published values of Kalah(6,3): +2 (Rawlings 2015)
/// and +2 with the empty capture (Irving, Donkers & Uiterwijk 2000).
#[test]
fn the_solver_searches_the_same_nodes_with_either_encoding() {
    for (text, value) in [("kalah(6,3)", 2), ("kalah(6,3)+empty_capture", 2)] {
        let rules: KalahRules = text.parse().unwrap();
        let start = KalahPosition::start(rules);
        let mut seen = Vec::new();
        for e in Encoding::ALL {
            let db = Arc::new(Egdb::build(&rules, 12, BuildOptions::new().encoding(e)).unwrap());
            let mut solver = Solver::new().threads(1).tt_bytes(1 << 22).database(db);
            let s = solver.solve(&start, SolveOptions::new()).unwrap();
            assert!(s.exact);
            assert_eq!(s.value, value, "{text}, {e}");
            seen.push((s.nodes, s.best_moves.clone(), s.pv.clone()));
        }
        assert_eq!(seen[0], seen[1], "{text}");
    }
}

#[test]
fn the_encoding_names_parse_back() {
    for e in Encoding::EVERY {
        assert_eq!(e.name().parse::<Encoding>(), Ok(e));
        assert_eq!(Encoding::from_code(e.code()), Some(e));
    }
    assert!("nibble".parse::<Encoding>().is_err());
    // The names a command line offers, in the order of EVERY, and a typed refusal naming
    // them all.
    assert_eq!(Encoding::NAMES, ["byte", "packed", "compact"]);
    for (e, name) in Encoding::EVERY.into_iter().zip(Encoding::NAMES) {
        assert_eq!(e.name(), name);
        assert_eq!(e.to_string(), name);
    }
    let refused: mancala_solver::egdb::UnknownEncoding = "Packed".parse::<Encoding>().unwrap_err();
    assert_eq!(refused.given, "Packed");
    assert_eq!(
        refused.to_string(),
        "unknown database encoding \"Packed\" (byte, packed or compact)"
    );
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(refused);
    assert!(boxed.source().is_none());
    assert_eq!(Encoding::from_code(0), None);
    assert_eq!(Encoding::from_code(3), Some(Encoding::Compact));
    assert_eq!(Encoding::from_code(4), None);
}
