//! Endgame database files: loading arbitrary bytes.

use std::path::PathBuf;

use arbitrary::Unstructured;
use mancala_core::kalah::{KalahOption, KalahOptions, KalahPosition, KalahRules};
use mancala_core::Side;
use mancala_solver::egdb::{Encoding, Header, FORMAT_VERSION};
use mancala_solver::{Egdb, EgdbError};

/// Probes made at most per database loaded.
const PROBES: usize = 64;

/// Target `egdb_load`: the input is a database file, loaded from memory
/// ([`Egdb::from_bytes`]) and from a temporary file ([`Egdb::open`] (positioned reads),
/// [`Egdb::load`], [`Egdb::info`]). An input that starts with `R` is instead a recipe for a
/// file whose checksums are right (m, K, option bits, encoding (one byte or packed), entry
/// count, rule-set text and entries from the input), so that the checks behind the
/// checksums get exercised too. Every way of loading must give the same answer, an error of the same kind or a
/// database; a database loaded must pass [`Egdb::check_entries`] and every probe must give a
/// value within what its seed count allows (|v| ≤ k, and v ≡ k mod 2 unless
/// `discard_remaining`).
///
/// # Panics
/// When one of those properties fails.
pub fn egdb_load(data: &[u8]) {
    let bytes = match data.split_first() {
        Some((b'R', rest)) => match recipe(&mut Unstructured::new(rest)) {
            Ok(file) => file,
            Err(_) => return,
        },
        _ => data.to_vec(),
    };
    let from_memory = Egdb::from_bytes(&bytes);
    let path = temp_path();
    std::fs::write(&path, &bytes).expect("write the temporary database file");
    let opened = Egdb::open(&path);
    let loaded = Egdb::load(&path);
    let info = Egdb::info(&path);
    let _ = std::fs::remove_file(&path);

    let kind = |r: &Result<Egdb, EgdbError>| r.as_ref().map(|_| ()).map_err(std::mem::discriminant);
    assert_eq!(
        kind(&from_memory),
        kind(&opened),
        "{from_memory:?} vs {opened:?}"
    );
    assert_eq!(
        kind(&from_memory),
        kind(&loaded),
        "{from_memory:?} vs {loaded:?}"
    );
    if let (Ok(db), Err(e)) = (&from_memory, &info) {
        panic!("{db:?} loads but its header is refused: {e}");
    }
    for db in [from_memory, opened, loaded].into_iter().flatten() {
        let info = info.as_ref().expect("header of a database that loads");
        assert_eq!(
            (info.houses, info.max_seeds, info.options, info.entries),
            (db.houses(), db.max_seeds(), db.options(), db.len() as u64)
        );
        check_database(&db, data);
    }
}

/// A file name for this thread (one input at a time per thread).
fn temp_path() -> PathBuf {
    std::env::temp_dir().join(format!(
        "mancala-fuzz-egdb-{}-{:?}.egdb",
        std::process::id(),
        std::thread::current().id()
    ))
}

/// Entries in range, and probes of positions built from `seed` within their bounds.
fn check_database(db: &Egdb, seed: &[u8]) {
    if let Err(e) = db.check_entries() {
        panic!("a database that loads has a bad entry: {e}");
    }
    let rules: KalahRules = db
        .built_with()
        .parse()
        .expect("the rule set of a loaded database");
    assert!(db.serves(&rules));
    let m = usize::from(db.houses());
    let discard = db.options().has(KalahOption::DiscardRemaining);
    let mut u = Unstructured::new(seed);
    for _ in 0..PROBES {
        let Ok(k) = u.int_in_range(0..=db.max_seeds() + 1) else {
            break;
        };
        let mut slots = [0u8; 16];
        for _ in 0..k {
            let Ok(i) = u.choose_index(2 * m) else { break };
            // Houses are slots 0..m and m+1..2m+1 (stores at m and 2m+1).
            let slot = if i < m { i } else { i + 1 };
            slots[slot] += 1;
        }
        let side = if u.arbitrary().unwrap_or(false) {
            Side::North
        } else {
            Side::South
        };
        let Ok(pos) = KalahPosition::new(rules, &slots[..2 * m + 2], Some(side), false) else {
            continue;
        };
        let k = pos.seeds_in_houses();
        let special = pos.is_first_move() || pos.in_opening_turn() || pos.swap_offered();
        match db.value(&pos) {
            Some(v) => {
                assert!(
                    k <= db.max_seeds() && !special,
                    "{pos}: value beyond the database"
                );
                let k = k as i32;
                assert!(
                    v.abs() <= k,
                    "{pos}: value {v} with {k} seeds in the houses"
                );
                assert!(
                    discard || (v - k) % 2 == 0,
                    "{pos}: value {v} of the wrong parity"
                );
            }
            None => assert!(
                k > db.max_seeds() || special,
                "{pos}: no value in the database"
            ),
        }
    }
}

/// A database file with correct checksums, every field from the input.
fn recipe(u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<u8>> {
    let m = u.int_in_range(1..=3u8)?;
    let k = u.int_in_range(0..=6u8)?;
    let option_bits = if u.ratio(1, 8)? {
        u.arbitrary()?
    } else {
        // Only the value-relevant options: those of the option table that change the
        // database.
        let relevant = KalahOptions::of(&KalahOption::ALL)
            .database_relevant()
            .bits();
        u.int_in_range(0..=relevant)? & relevant
    };
    let mut rules = format!("kalah({m},1)");
    for row in KalahOption::TABLE.iter().filter(|row| row.changes_database) {
        if option_bits & row.option.bit() != 0 {
            rules.push('+');
            rules.push_str(row.name);
        }
    }
    if u.ratio(1, 8)? {
        rules = u.arbitrary::<String>()?;
    }
    let encoding = if u.ratio(1, 16)? {
        u.arbitrary()?
    } else if u.arbitrary()? {
        Encoding::Packed.code()
    } else {
        Encoding::Byte.code()
    };
    let exact = binom(u64::from(k) + 2 * u64::from(m), 2 * u64::from(m));
    let entries = if u.ratio(1, 16)? {
        u.arbitrary()?
    } else {
        exact
    };
    let version = if u.ratio(1, 16)? {
        u.arbitrary()?
    } else {
        FORMAT_VERSION
    };
    // Entries: one fill byte, then overrides at chosen bytes. A packed payload holds
    // ⌈entries · bits / 8⌉ bytes.
    let bits = match (
        Encoding::from_code(encoding),
        KalahOptions::from_bits(option_bits),
    ) {
        (Some(e), Some(o)) => e.bits_per_entry(u32::from(k), o.database_relevant()),
        _ => 8,
    };
    let payload_len = (exact * u64::from(bits)).div_ceil(8);
    let len = usize::try_from(payload_len).expect("small") + usize::from(u.ratio(1, 16)?);
    let mut payload = vec![u.arbitrary::<u8>()?; len];
    for _ in 0..u.int_in_range(0..=16u8)? {
        let i = u.choose_index(len)?;
        payload[i] = u.arbitrary()?;
    }
    // The header through the library's own encoder: the fields as drawn (valid or not),
    // the magic and both checksums right.
    let mut file = Header {
        version,
        houses: m,
        max_seeds: k,
        option_bits,
        encoding,
        entries,
        payload_crc: crc32fast::hash(&payload),
        rules,
    }
    .encode();
    file.extend_from_slice(&payload);
    Ok(file)
}

fn binom(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}
