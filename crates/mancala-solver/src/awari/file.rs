//! Awari database files: [`AwariDb::save`], [`AwariDb::open`], [`AwariDb::info`], in the
//! file format of the Kalah endgame databases ([`crate::egdb`], "File format"), written and
//! read by the same code (crash-safe writes, positioned reads checksummed as they arrive).
//!
//! The header's fields for an Awari database:
//!
//! ```text
//! magic "MNCLEGDB", format version 1
//! m = 6 (houses a row), K = N (the largest level, seeds on the board), option bits 0,
//! entry encoding 1 (one byte an entry, the value to the mover + 128),
//! entries = Σ_{n=0..=N} C(n+11,11) − C(n+5,11), CRC-32 of the payload,
//! rule set "awari", CRC-32 of the header
//! payload: level 0, level 1, …, level N, each in the order of `awari::rank`
//! ```
//!
//! The rule set names the game: a Kalah file opened as Awari, or an Awari file opened as
//! Kalah, is [`EgdbError::WrongGame`]. Opening checks every field, the size, both checksums
//! and every entry (a value outside −n..=n for its level n is [`EgdbError::BadEntry`]).
//! The packed encoding (2) of the Kalah databases is not used for Awari: its codes are
//! tied to the Kalah layers and values, and the Awari lookups read one byte a board.

use std::io::Write;
use std::path::Path;

use mancala_core::oware::OwareRules;
use mancala_core::GameKind;
use rayon::prelude::*;

use super::db::AwariDb;
use super::rank::level_len;
use super::retro::LevelStats;
use super::MAX_SEEDS;
use crate::egdb::{
    self, check_unchanged, combine_crc32, open_regular, read_payload, read_raw_header, EgdbError,
    Encoding, Header, SaveReport, FORMAT_VERSION,
};

/// The rule set an Awari database file names in its header: the `awari` rules (OW-10.3),
/// the only ones whose values it holds.
pub const FILE_RULES: &str = "awari";

/// Houses a row, the header's m.
const HOUSES: u8 = 6;

/// Bytes converted at a time when saving.
const SAVE_PIECE: usize = 1 << 16;

/// The header fields of an Awari database file ([`AwariDb::info`]), checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AwariInfo {
    /// Format version ([`FORMAT_VERSION`]).
    pub version: u32,
    /// The rule set in the header (`awari`).
    pub rules: String,
    /// N: every board of at most N seeds has an entry.
    pub max_seeds: u32,
    /// The entry encoding ([`Encoding::Byte`], the only one of Awari files).
    pub encoding: Encoding,
    /// Number of entries (boards), Σ_{n ≤ N} C(n+11,11) − C(n+5,11).
    pub entries: u64,
    /// Size of the payload in the file, bytes (one a board).
    pub payload_bytes: u64,
    /// Size of the file, bytes.
    pub file_bytes: u64,
    /// CRC-32 of the payload, as stored.
    pub payload_crc: u32,
}

/// The entries (boards) of the levels 0..=`max_seeds` (`max_seeds` ≤ [`MAX_SEEDS`]).
#[must_use]
pub fn entries_to(max_seeds: u32) -> u64 {
    (0..=max_seeds.min(MAX_SEEDS))
        .map(|n| level_len(n).unwrap_or(0))
        .sum()
}

/// Whether the values of an Awari database are those of games played under `rules`: only
/// the `awari` rule set itself (six houses a row, four seeds, grand slam legal only when
/// every move eradicates, no majority end, endless play split evenly; OW-10.3).
#[must_use]
pub fn serves(rules: &OwareRules) -> bool {
    *rules == OwareRules::AWARI
}

/// Checks the fields of the header `header` of the file `path` of `file_len` bytes as an
/// Awari database's (module docs).
fn check_header(path: &Path, header: Header, file_len: u64) -> Result<AwariInfo, EgdbError> {
    let payload_at = header.encoded_len() as u64;
    let game = GameKind::of_rules(&header.rules);
    if game != GameKind::Oware {
        return Err(EgdbError::WrongGame {
            path: path.to_path_buf(),
            found: game,
            rules: header.rules,
            expected: GameKind::Oware,
        });
    }
    match header.rules.parse::<OwareRules>() {
        Ok(r) if serves(&r) => {}
        Ok(_) => {
            return Err(EgdbError::RulesMismatch {
                database: header.rules,
                wanted: FILE_RULES.into(),
            })
        }
        Err(e) => {
            return Err(EgdbError::Header(format!(
                "rule set {:?}: {e}",
                header.rules
            )))
        }
    }
    if header.houses != HOUSES || header.option_bits != 0 {
        return Err(EgdbError::Header(format!(
            "fields m = {}, options {:#x} of an Awari database (m = 6, options 0)",
            header.houses, header.option_bits
        )));
    }
    match Encoding::from_code(header.encoding) {
        Some(Encoding::Byte) => {}
        Some(e) => {
            return Err(EgdbError::Header(format!(
                "entry encoding {e}: Awari databases are one byte an entry"
            )))
        }
        None => {
            return Err(EgdbError::Header(format!(
                "unknown entry encoding {}",
                header.encoding
            )))
        }
    }
    let max_seeds = u32::from(header.max_seeds);
    if max_seeds > MAX_SEEDS {
        return Err(EgdbError::Header(format!(
            "N = {max_seeds}: Awari has {MAX_SEEDS} seeds"
        )));
    }
    let expected_entries = entries_to(max_seeds);
    if header.entries != expected_entries {
        return Err(EgdbError::Header(format!(
            "{} entries where N = {max_seeds} has {expected_entries}",
            header.entries
        )));
    }
    let expected_len = payload_at + expected_entries;
    if file_len < expected_len {
        return Err(EgdbError::Truncated {
            expected: expected_len,
            found: file_len,
        });
    }
    if file_len > expected_len {
        return Err(EgdbError::Header(format!(
            "{} bytes after the last entry",
            file_len - expected_len
        )));
    }
    Ok(AwariInfo {
        version: header.version,
        rules: header.rules,
        max_seeds,
        encoding: Encoding::Byte,
        entries: expected_entries,
        payload_bytes: expected_entries,
        file_bytes: file_len,
        payload_crc: header.payload_crc,
    })
}

/// The file byte of a value byte in memory (an `i8`): value + 128, which for two's
/// complement is the top bit flipped. Its own inverse.
#[inline]
fn flip(b: u8) -> u8 {
    b ^ 0x80
}

/// Checks that every value of `level` (level n, its first board at entry `first`) is in
/// −n..=n, and counts the level ([`LevelStats`]).
fn check_level(n: u32, first: u64, level: &[u8]) -> Result<LevelStats, EgdbError> {
    const PIECE: usize = 1 << 20;
    let limit = n as i32;
    let counts: Vec<Result<LevelStats, EgdbError>> = level
        .par_chunks(PIECE)
        .enumerate()
        .map(|(p, piece)| {
            let mut s = LevelStats::default();
            for (i, &b) in piece.iter().enumerate() {
                let v = i32::from(b as i8);
                if v.abs() > limit {
                    return Err(EgdbError::BadEntry {
                        rank: first + (p * PIECE + i) as u64,
                        seeds: n,
                        value: v,
                    });
                }
                s.sum += i64::from(v);
                match v.signum() {
                    1 => s.wins += 1,
                    0 => s.draws += 1,
                    _ => s.losses += 1,
                }
            }
            Ok(s)
        })
        .collect();
    let mut total = LevelStats {
        seeds: n,
        boards: level.len() as u64,
        ..LevelStats::default()
    };
    for c in counts {
        let c = c?;
        total.wins += c.wins;
        total.draws += c.draws;
        total.losses += c.losses;
        total.sum += c.sum;
    }
    Ok(total)
}

impl AwariDb {
    /// The file name of the database of levels 0..=`max_seeds` in a cache or a folder:
    /// `awari.n<N>.egdb` (`awari.n16.egdb`).
    #[must_use]
    pub fn file_name(max_seeds: u32) -> String {
        format!("{FILE_RULES}.n{max_seeds}.egdb")
    }

    /// Writes the database to `path` in the format of the module docs, crash-safely exactly
    /// as [`crate::Egdb::save`] does (by the same code: stale temporary files of killed saves
    /// of the same name removed, a new temporary file created exclusively in the same folder,
    /// flushed to disk, renamed over `path` in one step, the folder flushed). Returns what
    /// was removed besides. Writes Σ_{n ≤ N} (C(n+11,11) − C(n+5,11)) bytes of entries and
    /// a 41-byte header.
    ///
    /// # Errors
    /// [`EgdbError::Io`] (naming `path` or the temporary file).
    pub fn save(&self, path: &Path) -> Result<SaveReport, EgdbError> {
        let mut buf = vec![0u8; SAVE_PIECE];
        let mut crc = crc32fast::Hasher::new();
        for level in &self.levels {
            for piece in level.bytes().chunks(SAVE_PIECE) {
                let out = &mut buf[..piece.len()];
                out.iter_mut().zip(piece).for_each(|(o, &b)| *o = flip(b));
                crc.update(out);
            }
        }
        let header = Header {
            version: FORMAT_VERSION,
            houses: HOUSES,
            max_seeds: self.max_seeds as u8,
            option_bits: 0,
            encoding: Encoding::Byte.code(),
            entries: entries_to(self.max_seeds),
            payload_crc: crc.finalize(),
            rules: FILE_RULES.into(),
        }
        .encode();
        egdb::write_file(path, &header, &mut |w: &mut dyn Write| {
            for level in &self.levels {
                for piece in level.bytes().chunks(SAVE_PIECE) {
                    let out = &mut buf[..piece.len()];
                    out.iter_mut().zip(piece).for_each(|(o, &b)| *o = flip(b));
                    w.write_all(out)?;
                }
            }
            Ok(())
        })
    }

    /// Reads and checks only the header of the Awari database file at `path` (the payload
    /// checksum and the entries are checked by [`AwariDb::open`]).
    ///
    /// # Errors
    /// [`EgdbError::Io`], [`EgdbError::BadMagic`], [`EgdbError::Version`],
    /// [`EgdbError::Truncated`], [`EgdbError::Header`], [`EgdbError::Changed`],
    /// [`EgdbError::WrongGame`] (a Kalah database), [`EgdbError::RulesMismatch`] (an Oware
    /// rule set other than `awari`).
    pub fn info(path: &Path) -> Result<AwariInfo, EgdbError> {
        let io = |source| EgdbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let f = open_regular(path).map_err(io)?;
        let len = f.metadata().map_err(io)?.len();
        let (header, _) = read_raw_header(path, &f, len)?;
        check_header(path, header, len)
    }

    /// Reads the Awari database file at `path` into memory and checks it completely: the
    /// header's fields (the game, the rule set `awari`, N ≤ 48, the encoding, the number of
    /// entries, the file's length), both CRC-32 checksums, and every entry (a value outside
    /// −n..=n for its level n is refused). Read with positioned reads in pieces on the rayon
    /// threads, never memory-mapped: a file changed while it is read is refused. Memory: one
    /// byte a board ([`AwariDb::bytes`]). The level counts ([`AwariDb::level_stats`]) are
    /// counted from the values read.
    ///
    /// # Errors
    /// [`EgdbError::Io`], [`EgdbError::BadMagic`], [`EgdbError::Version`],
    /// [`EgdbError::Truncated`], [`EgdbError::Header`], [`EgdbError::WrongGame`] (a Kalah
    /// database), [`EgdbError::RulesMismatch`] (an Oware rule set other than `awari`),
    /// [`EgdbError::Checksum`], [`EgdbError::BadEntry`], [`EgdbError::Changed`],
    /// [`EgdbError::OutOfMemory`].
    pub fn open(path: &Path) -> Result<AwariDb, EgdbError> {
        let io = |source| EgdbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let f = open_regular(path).map_err(io)?;
        let len = f.metadata().map_err(io)?.len();
        let (header, head) = read_raw_header(path, &f, len)?;
        let info = check_header(path, header, len)?;
        let mut at = head.len() as u64;
        let mut levels = Vec::with_capacity(info.max_seeds as usize + 1);
        let mut pieces = Vec::new();
        for n in 0..=info.max_seeds {
            let l = level_len(n).unwrap_or(0);
            let bytes = usize::try_from(l).map_err(|_| crate::OutOfMemory { bytes: usize::MAX })?;
            let (data, p) = read_payload(path, &f, at, bytes, bytes, |piece| {
                piece.iter_mut().for_each(|b| *b = flip(*b));
            })?;
            levels.push(data);
            pieces.extend(p);
            at += l;
        }
        check_unchanged(path, &f, len, &head)?;
        let computed = combine_crc32(&pieces);
        if computed != info.payload_crc {
            return Err(EgdbError::Checksum {
                stored: info.payload_crc,
                computed,
            });
        }
        let mut first = 0;
        let mut stats = Vec::with_capacity(levels.len());
        for (n, level) in levels.iter().enumerate() {
            stats.push(check_level(n as u32, first, level.bytes())?);
            first += level.bytes().len() as u64;
        }
        Ok(AwariDb {
            max_seeds: info.max_seeds,
            levels,
            stats,
        })
    }
}
