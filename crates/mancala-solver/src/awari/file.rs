//! Oware database files: [`AwariDb::save`], [`AwariDb::open`], [`AwariDb::info`], in the
//! file format of the Kalah endgame databases ([`crate::egdb`], "File format"), written and
//! read by the same code (crash-safe writes, positioned reads checksummed as they arrive).
//!
//! The header's fields for an Oware database:
//!
//! ```text
//! magic "MNCLEGDB", format version 1
//! m = 6 (houses a row), K = N (the largest level, seeds on the board), option bits 0,
//! entry encoding 1 (one byte an entry, the value to the mover + 128), 2 (packed) or 3
//! (compact: blocks of Huffman codes with an index, module docs of `awari::compact` and
//! `docs/awari.md`),
//! entries = Σ_{n=0..=N} C(n+11,11) − C(n+5,11), CRC-32 of the payload,
//! rule set, CRC-32 of the header
//! payload: level 0, level 1, …, level N, each in the order of `awari::rank`
//! ```
//!
//! The rule set is the one whose values the file holds, printed as the rule-set notation
//! prints it ([`AwariDb::rules_of`]): `awari` for `grand_slam=unless_only` — the header every
//! Awari file has always had — and `awari+grand_slam=none`, `awari+grand_slam=all`,
//! `awari+grand_slam=forbidden`, `awari+grand_slam=leave_last` for the others. Opening
//! accepts exactly these five texts (any other Oware rule set is
//! [`EgdbError::RulesMismatch`]), and the database opened serves only the rule sets of its
//! own grand-slam rule. The rule set also names the game: a Kalah file opened as Oware, or
//! an Oware file opened as Kalah, is [`EgdbError::WrongGame`]. Opening checks every field, the size, both checksums
//! and every entry (a value outside −n..=n for its level n is [`EgdbError::BadEntry`]).
//!
//! # The packed encoding (entry encoding 2)
//!
//! The header byte has the meaning it has for Kalah ([`Encoding::Packed`]): each entry is
//! the index of its value in the list of the values its level allows, in the same number of
//! bits w for every entry, and the entries of all the levels, in rank order (level 0 first,
//! as in the one-byte payload), form one little-endian bit stream: entry r occupies bits
//! `r·w .. r·w + w`, bit j of the stream being bit j mod 8 of byte j / 8. The payload is
//! `⌈E·w / 8⌉` bytes for E entries, the unused bits of its last byte 0 (a set one is refused,
//! [`EgdbError::Padding`]). The stream code is
//! the Kalah databases' (`egdb::packed`): the same writer, reader and checker.
//!
//! **The list of level n is −n, −n + 1, …, n (2n + 1 values, code = v + n).** Let a and b
//! be the seeds the mover and the opponent take from the board on (captures and the final
//! allotment), r the seeds never taken (a play that goes on for ever), a + b + r = n; the
//! value is v = a − b under optimal play (OW-10.3: an endless play or a repetition is split
//! evenly and adds 0 to the difference, so v is an integer). Hence |v| ≤ a + b ≤ n: every
//! value is in the list. No parity rule shortens it, unlike Kalah's: a play that ends
//! (r = 0) gives v ≡ n (mod 2), but one that captures c seeds and then cycles for ever in
//! the level of r = n − c seeds gives v ≡ c (mod 2), of either parity (OW-10.5: a capture is
//! the only way down a level). Both parities do occur: level 3 holds the values −3, −1, 0,
//! 1 and 3, level 14 every value but ±13 and ±9 (built; `tests/awari_files.rs` checks what is
//! proved here on the levels up to 12). Only ±(n − 1)
//! never occur for n ≥ 2: v = n − 1 needs r = 0 and then the wrong parity, or r = 1 and
//! b = 0, and a single seed cannot cycle (it moves one house a turn, no capture takes one
//! seed, and after at most two moves a player is to move with no seed, which ends the
//! game, OW-6.3). Leaving them out would save a bit only at N = 32 (63 values instead of 65); the
//! encoding keeps the plain list, whose codes are those of the Kalah `discard_remaining`
//! databases (`Codec::all_values`), so that no second code table exists.
//!
//! So w = ⌈log₂(2N + 1)⌉ (at least 1), the bits of the longest list (level N): 5 bits for N = 8..=15,
//! **6 bits for N = 16..=31** (the 30-seed database: 9,806,439,188 boards in 7.35 GB =
//! 6.85 GiB instead of 9.13 GiB), 7 bits for N = 32..=48. A code at or past 2n + 1 in level
//! n is refused on opening ([`EgdbError::BadEntry`], its value reported as −n + code, past
//! n), as a byte outside −n..=n is in the one-byte encoding.
//!
//! A database opened from a packed file stays packed in memory ([`AwariDb::encoding`]):
//! the payload and 8 bytes of padding, so that a lookup is one two-byte load, a shift and
//! a table look-up ([`AwariDb::board_value`] and [`AwariDb::board_move_values`] as for one byte a
//! board). [`AwariDb::convert`] turns one representation into the other.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use mancala_core::oware::{GrandSlam, OwareRules};
use mancala_core::GameKind;
use rayon::prelude::*;

use super::db::{AwariDb, PackedLevels, Store};
use super::rank::level_len;
use super::retro::LevelStats;
use super::MAX_SEEDS;
use crate::egdb::packed::{self, Codec, PAD};
use crate::egdb::{
    self, check_cancel, open_with_header, parallel_crc32, read_payload, EgdbError, Encoding,
    Header, SaveReport, FORMAT_VERSION,
};

/// The rule set the `awari` database file names in its header: the `awari` rules
/// (OW-10.3). The files of the other grand-slam rules name theirs
/// ([`AwariDb::rules_of`]).
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
    /// The rule set in the header (`awari`, `awari+grand_slam=none`, …).
    pub rules: String,
    /// The grand-slam rule of that rule set: which database it is.
    pub grand_slam: GrandSlam,
    /// N: every board of at most N seeds has an entry.
    pub max_seeds: u32,
    /// The entry encoding ([`Encoding::Byte`], [`Encoding::Packed`] or
    /// [`Encoding::Compact`], module docs).
    pub encoding: Encoding,
    /// Bits an entry takes: 8, or the packed width ⌈log₂(2N + 1)⌉; 8 for a compact file,
    /// the most its codes take on average (`payload_bytes` · 8 / `entries` is what they
    /// take).
    pub bits_per_entry: u32,
    /// Number of entries (boards), Σ_{n ≤ N} C(n+11,11) − C(n+5,11).
    pub entries: u64,
    /// Size of the payload in the file, bytes: one a board, or ⌈entries · bits / 8⌉, or
    /// the rest of the file after the header for a compact file.
    pub payload_bytes: u64,
    /// Size of the file, bytes.
    pub file_bytes: u64,
    /// CRC-32 of the payload, as stored.
    pub payload_crc: u32,
    /// Memory the entries take once the file is opened, bytes: one a board, the packed
    /// payload and its 8 bytes of padding, or the compact payload, its 8 bytes of padding
    /// and the decoders of its code tables (counted from the tables, read by
    /// [`AwariDb::info`]), what [`AwariDb::bytes`] gives once it is opened.
    pub memory_bytes: u64,
}

impl AwariInfo {
    /// The bits a board takes ([`average_bits`]): 8, the packed width, or for a compact file
    /// the payload's bits over the boards; what [`AwariDb::average_bits`] gives once the
    /// file is opened.
    #[must_use]
    pub fn average_bits(&self) -> f64 {
        average_bits(self.encoding, self.max_seeds, self.payload_bytes)
    }
}

/// The bits a board of the database of levels 0..=`max_seeds` takes in a payload of
/// `payload_bytes` bytes in `encoding`: the fixed width ([`bits_per_entry`]: 8, or the packed
/// width) for a one-byte or packed payload, and for a compact one, whose codes have no fixed
/// width, the payload's bits (its tables and index included, the file's header not) over the
/// boards, Σ_{n ≤ N} C(n+11,11) − C(n+5,11). The one figure of `egdb info`, `egdb verify`,
/// `egdb convert`, `egdb build` and the Python and C properties.
#[must_use]
pub fn average_bits(encoding: Encoding, max_seeds: u32, payload_bytes: u64) -> f64 {
    match encoding {
        Encoding::Compact => payload_bytes as f64 * 8.0 / entries_to(max_seeds).max(1) as f64,
        _ => f64::from(bits_per_entry(encoding, max_seeds)),
    }
}

/// The entries (boards) of the levels 0..=`max_seeds` (`max_seeds` ≤ [`MAX_SEEDS`]).
#[must_use]
pub fn entries_to(max_seeds: u32) -> u64 {
    (0..=max_seeds.min(MAX_SEEDS))
        .map(|n| level_len(n).unwrap_or(0))
        .sum()
}

/// Whether `rules` is the rule set a database file names in its header: `awari` with any
/// grand-slam rule and nothing else changed ([`AwariDb::rules_of`]; six houses a row, four
/// seeds, no majority end, endless play split evenly, OW-10.3).
#[must_use]
pub fn serves(rules: &OwareRules) -> bool {
    *rules == AwariDb::rules_of(rules.grand_slam())
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
    let grand_slam = match header.rules.parse::<OwareRules>() {
        Ok(r) if serves(&r) => r.grand_slam(),
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
    };
    if header.houses != HOUSES || header.option_bits != 0 {
        return Err(EgdbError::Header(format!(
            "fields m = {}, options {:#x} of an Awari database (m = 6, options 0)",
            header.houses, header.option_bits
        )));
    }
    let encoding = match Encoding::from_code(header.encoding) {
        Some(e) => e,
        None => {
            return Err(EgdbError::Header(format!(
                "unknown entry encoding {}",
                header.encoding
            )))
        }
    };
    let max_seeds = u32::from(header.max_seeds);
    if max_seeds > MAX_SEEDS {
        return Err(EgdbError::Header(format!(
            "N = {max_seeds}: Awari has {MAX_SEEDS} seeds"
        )));
    }
    let expected_entries = entries_to(max_seeds);
    if header.entries != expected_entries {
        return Err(EgdbError::Header(format!(
            "{} where N = {max_seeds} has {expected_entries}",
            mancala_core::words::count(header.entries, "entry", "entries")
        )));
    }
    let bits = bits_per_entry(encoding, max_seeds);
    let payload_bytes = if encoding == Encoding::Compact {
        // Its length is in the payload's first 8 bytes (`awari::compact`), checked by
        // `AwariDb::info` and `AwariDb::open` once read: a file cut short says how long it
        // should be, or, cut before those 8 bytes, the least it takes.
        file_len.saturating_sub(payload_at)
    } else {
        let payload_bytes = (expected_entries * u64::from(bits)).div_ceil(8);
        egdb::check_length(file_len, payload_at + payload_bytes)?;
        payload_bytes
    };
    let memory_bytes = match encoding {
        Encoding::Byte => expected_entries,
        Encoding::Packed => payload_bytes + PAD as u64,
        // The most the decoders can take: `AwariDb::info` counts them from the tables.
        Encoding::Compact => {
            payload_bytes + super::compact::PAD as u64 + super::compact::decoder_bytes(max_seeds)
        }
    };
    Ok(AwariInfo {
        version: header.version,
        rules: header.rules,
        grand_slam,
        max_seeds,
        encoding,
        bits_per_entry: bits,
        entries: expected_entries,
        payload_bytes,
        file_bytes: file_len,
        payload_crc: header.payload_crc,
        memory_bytes,
    })
}

/// Bits an entry of the database of levels 0..=`max_seeds` (at most [`MAX_SEEDS`]) takes in
/// `encoding`: 8, or the packed width ⌈log₂(2N + 1)⌉ (module docs: 6 for N = 16..=31, 7 from
/// N = 32 on).
#[must_use]
pub fn bits_per_entry(encoding: Encoding, max_seeds: u32) -> u32 {
    match encoding {
        Encoding::Byte | Encoding::Compact => 8,
        Encoding::Packed => Codec::all_values(max_seeds.min(MAX_SEEDS)).width(),
    }
}

/// The counts of level n from the number of its entries of each code (`codes[c]`).
fn stats_of_codes(codec: &Codec, n: u32, codes: &[u64]) -> LevelStats {
    let mut s = LevelStats {
        seeds: n,
        ..LevelStats::default()
    };
    for (c, &k) in codes.iter().enumerate() {
        let v = codec.decode(n, c as u32);
        s.boards += k;
        s.sum += i64::from(v) * k as i64;
        match v.signum() {
            1 => s.wins += k,
            0 => s.draws += k,
            _ => s.losses += k,
        }
    }
    s
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
    /// The file name of the `awari` database of levels 0..=`max_seeds` in a cache or a
    /// folder: `awari.n<N>.egdb` (`awari.n16.egdb`; [`AwariDb::file_name_under`] for the
    /// other grand-slam rules).
    #[must_use]
    pub fn file_name(max_seeds: u32) -> String {
        format!("{FILE_RULES}.n{max_seeds}.egdb")
    }

    /// The file name of the database of levels 0..=`max_seeds` in `encoding`:
    /// [`AwariDb::file_name`] for [`Encoding::Byte`], `awari.n<N>.packed.egdb` for
    /// [`Encoding::Packed`] (as the Kalah names, so that both can share a folder; files are
    /// read by their headers, never by their names).
    #[must_use]
    pub fn file_name_for(max_seeds: u32, encoding: Encoding) -> String {
        AwariDb::file_name_under(GrandSlam::UnlessOnly, max_seeds, encoding)
    }

    /// The file name of the database of the grand-slam rule `grand_slam`, levels
    /// 0..=`max_seeds`, in `encoding`: the rule set of its header ([`AwariDb::rules_of`]),
    /// `.n<N>`, `.packed` when packed, `.compact` when compact, `.egdb` — `awari.n18.egdb` (as
    /// [`AwariDb::file_name_for`]), `awari+grand_slam=none.n24.packed.egdb`. Each rule set
    /// has its own names, so that the files of several share a folder or a cache.
    #[must_use]
    pub fn file_name_under(grand_slam: GrandSlam, max_seeds: u32, encoding: Encoding) -> String {
        let rules = AwariDb::rules_of(grand_slam);
        match encoding {
            Encoding::Byte => format!("{rules}.n{max_seeds}.egdb"),
            Encoding::Packed => format!("{rules}.n{max_seeds}.packed.egdb"),
            Encoding::Compact => format!("{rules}.n{max_seeds}.compact.egdb"),
        }
    }

    /// Writes the database to `path`, over nothing or over a file that holds this same
    /// database only: [`AwariDb::save_checked`] without `overwrite`. A file holding another
    /// database, or no database, is left as it is ([`AwariDb::save_over`] writes over it).
    ///
    /// # Errors
    /// Those of [`AwariDb::save_checked`]: [`EgdbError::Occupied`] for a file in the way,
    /// [`EgdbError::Io`].
    pub fn save(&self, path: &Path) -> Result<SaveReport, EgdbError> {
        self.save_checked(path, false)
    }

    /// Writes the database to `path` over whatever regular file is there:
    /// [`AwariDb::save_checked`] with `overwrite`.
    ///
    /// # Errors
    /// Those of [`AwariDb::save_checked`] but [`EgdbError::Occupied`].
    pub fn save_over(&self, path: &Path) -> Result<SaveReport, EgdbError> {
        self.save_checked(path, true)
    }

    /// Writes the database to `path` in the format of the module docs, in its own encoding
    /// ([`AwariDb::encoding`]; [`AwariDb::convert`] first for the other), crash-safely
    /// exactly as [`crate::Egdb::save_checked`] does (by the same code: unless `overwrite` a
    /// file holding anything but this same database refused, stale temporary files of
    /// killed saves of the same name removed, a new temporary file created exclusively in the
    /// same folder, flushed to disk, published at `path` in one step, renamed over it with
    /// `overwrite`, hard-linked to it without, the folder flushed). Returns what was removed
    /// besides. Writes a 41-byte header and the entries: E =
    /// Σ_{n ≤ N} (C(n+11,11) − C(n+5,11)) bytes one byte a board, ⌈E·w/8⌉ bytes packed
    /// (w = [`AwariDb::bits_per_entry`]), the compact payload compact (about 3.4 bits a
    /// board at N = 24, [`AwariDb::payload_bits_per_board`]).
    ///
    /// # Errors
    /// [`EgdbError::Occupied`] (unless `overwrite`: a file holding another database or no
    /// database; nothing is written); [`EgdbError::Io`] naming `path` (an error in writing
    /// the temporary file names it in its reason, as removed), also when `path` is a folder
    /// or a file that is not a regular one (a device, a FIFO, a socket), as for
    /// [`Egdb::save_checked`](crate::Egdb::save_checked).
    pub fn save_checked(&self, path: &Path, overwrite: bool) -> Result<SaveReport, EgdbError> {
        let name = <AwariDb as crate::egdb::Database>::own_file_name(self);
        let what = egdb::saved_words(self);
        let keep = if overwrite {
            egdb::Keep::Nothing
        } else {
            egdb::Keep::Others {
                name: &name,
                what: &what,
            }
        };
        let levels = match &self.store {
            Store::Packed(p) => {
                let payload = p.payload();
                let header = self.file_header(Encoding::Packed, parallel_crc32(payload));
                return egdb::write_file(path, &header, keep, &mut |w| w.write_all(payload));
            }
            Store::Compact(c) => {
                let payload = c.payload();
                let header = self.file_header(Encoding::Compact, parallel_crc32(payload));
                return egdb::write_file(path, &header, keep, &mut |w| w.write_all(payload));
            }
            Store::Bytes(levels) => levels,
        };
        let mut buf = vec![0u8; SAVE_PIECE];
        let mut crc = crc32fast::Hasher::new();
        for level in levels {
            for piece in level.bytes().chunks(SAVE_PIECE) {
                let out = &mut buf[..piece.len()];
                out.iter_mut().zip(piece).for_each(|(o, &b)| *o = flip(b));
                crc.update(out);
            }
        }
        let header = self.file_header(Encoding::Byte, crc.finalize());
        egdb::write_file(path, &header, keep, &mut |w: &mut dyn Write| {
            for level in levels {
                for piece in level.bytes().chunks(SAVE_PIECE) {
                    let out = &mut buf[..piece.len()];
                    out.iter_mut().zip(piece).for_each(|(o, &b)| *o = flip(b));
                    w.write_all(out)?;
                }
            }
            Ok(())
        })
    }

    /// The bits a board takes ([`average_bits`]): 8 one byte a board, the packed width, or
    /// for [`Encoding::Compact`] the payload's bits over the boards (about 3.3 at
    /// N = 20..=24); what [`AwariInfo::average_bits`] gives from the file's header.
    #[must_use]
    pub fn average_bits(&self) -> f64 {
        average_bits(self.encoding(), self.max_seeds, self.payload_bytes())
    }

    /// The bytes of the file [`AwariDb::save`] writes, exactly: its header (41 bytes for
    /// `awari`, more for the longer rule sets of the other grand-slam rules) and its payload
    /// ([`AwariDb::payload_bytes`]); what `std::fs::metadata` gives of the saved file.
    #[must_use]
    pub fn file_bytes(&self) -> u64 {
        self.file_header(self.encoding(), 0).len() as u64 + self.payload_bytes()
    }

    /// The encoded file header of this database in `encoding` with the payload checksum
    /// `payload_crc`.
    fn file_header(&self, encoding: Encoding, payload_crc: u32) -> Vec<u8> {
        Header {
            version: FORMAT_VERSION,
            houses: HOUSES,
            max_seeds: self.max_seeds as u8,
            option_bits: 0,
            encoding: encoding.code(),
            entries: entries_to(self.max_seeds),
            payload_crc,
            rules: self.rules().to_string(),
        }
        .encode()
    }

    /// Reads and checks only the header of the Awari database file at `path`, and the
    /// file's length (for a compact file, from the length its payload starts with, and its
    /// code tables read for [`AwariInfo::memory_bytes`]: 0.4 MB at N = 24); the
    /// payload checksum and the entries are checked by [`AwariDb::open`].
    ///
    /// # Errors
    /// [`EgdbError::Io`], [`EgdbError::BadMagic`], [`EgdbError::Version`],
    /// [`EgdbError::Truncated`], [`EgdbError::TooLong`], [`EgdbError::Header`],
    /// [`EgdbError::Changed`], [`EgdbError::WrongGame`] (a Kalah database),
    /// [`EgdbError::RulesMismatch`] (an Oware rule set other than those of the databases,
    /// [`serves`]).
    pub fn info(path: impl AsRef<Path>) -> Result<AwariInfo, EgdbError> {
        let path = path.as_ref();
        let (f, len, header, head) = open_with_header(path)?;
        AwariDb::info_of(path, &f, len, header, &head)
    }

    /// [`AwariDb::info`] of a file already opened and its header read
    /// ([`open_with_header`]: the open file `f` of `len` bytes, its decoded `header` and the
    /// header's bytes `head`), so that a caller that read the header to learn the game reads
    /// it only once ([`crate::egdb::occupant`]).
    ///
    /// # Errors
    /// As [`AwariDb::info`], but for the errors of opening and decoding the header.
    pub(crate) fn info_of(
        path: &Path,
        f: &std::fs::File,
        len: u64,
        header: Header,
        head: &[u8],
    ) -> Result<AwariInfo, EgdbError> {
        let mut info = check_header(path, header, len)?;
        if info.encoding == Encoding::Compact {
            // A compact payload's length is in its first bytes: a file cut short or too
            // long is refused here as on opening. Its code tables follow: what the decoders
            // take in memory.
            let at = head.len() as u64;
            let want = (super::compact::tables_end(info.max_seeds) as u64).min(info.payload_bytes);
            let mut tables = vec![0u8; usize::try_from(want).unwrap_or(0)];
            let first = match egdb::read_exact_at(f, &mut tables, at) {
                Ok(()) => tables.get(..8).and_then(|b| <[u8; 8]>::try_from(b).ok()),
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => None,
                Err(source) => {
                    return Err(EgdbError::Io {
                        path: path.to_path_buf(),
                        source,
                    })
                }
            };
            super::compact::check_stream_length(info.max_seeds, first, info.payload_bytes, at)?;
            info.memory_bytes =
                super::compact::held_bytes(info.max_seeds, info.payload_bytes, &tables);
        }
        Ok(info)
    }

    /// Reads the Awari database file at `path` into memory and checks it completely: the
    /// header's fields (the game, the rule set `awari`, N ≤ 48, the encoding, the number of
    /// entries, the file's length), both CRC-32 checksums, and every entry (a value outside
    /// −n..=n for its level n is refused). Read with positioned reads in pieces on the rayon
    /// threads, never memory-mapped: a file changed while it is read is refused. Memory: one
    /// byte a board, or the packed payload and 8 bytes for a packed file, which stays packed
    /// ([`AwariDb::bytes`], [`AwariDb::encoding`]). The level counts ([`AwariDb::level_stats`]) are
    /// counted from the values read.
    ///
    /// # Errors
    /// [`EgdbError::Io`], [`EgdbError::BadMagic`], [`EgdbError::Version`],
    /// [`EgdbError::Truncated`], [`EgdbError::TooLong`], [`EgdbError::Header`],
    /// [`EgdbError::WrongGame`] (a Kalah database), [`EgdbError::RulesMismatch`] (an Oware
    /// rule set other than those of the databases, [`serves`]), [`EgdbError::Checksum`], [`EgdbError::BadEntry`],
    /// [`EgdbError::Padding`] (packed), [`EgdbError::Changed`], [`EgdbError::OutOfMemory`]
    /// (also before anything is read, when the header asks for more memory than the machine
    /// has available).
    ///
    /// `path` is anything that names a path: a `&str`, `String`, `&Path` or `PathBuf`
    /// (`AwariDb::open("awari.n12.egdb")`).
    pub fn open(path: impl AsRef<Path>) -> Result<AwariDb, EgdbError> {
        AwariDb::open_until(path.as_ref(), None)
    }

    /// [`AwariDb::open`], given up once `cancel` is set: the flag is looked at before the
    /// file is read, between its pieces of 4 MiB, and between the levels of the entry check,
    /// as [`Egdb::open_cancellable`](crate::Egdb::open_cancellable) does. Nothing is kept.
    ///
    /// # Errors
    /// Those of [`AwariDb::open`], and [`EgdbError::Cancelled`] when `cancel` was set.
    pub fn open_cancellable(
        path: impl AsRef<Path>,
        cancel: &AtomicBool,
    ) -> Result<AwariDb, EgdbError> {
        AwariDb::open_until(path.as_ref(), Some(cancel))
    }

    /// [`AwariDb::open`], given up once `cancel` (when there is one) is set.
    fn open_until(path: &Path, cancel: Option<&AtomicBool>) -> Result<AwariDb, EgdbError> {
        check_cancel(cancel)?;
        let (f, len, header, head) = open_with_header(path)?;
        let info = check_header(path, header, len)?;
        // The entries in memory: the payload, and after a packed one its padding.
        let pad = match info.encoding {
            Encoding::Packed => PAD,
            Encoding::Compact => super::compact::PAD,
            Encoding::Byte => 0,
        };
        egdb::check_memory(info.payload_bytes + pad as u64)?;
        match info.encoding {
            Encoding::Packed => return open_packed(path, &f, len, &head, &info, cancel),
            Encoding::Compact => return open_compact(path, &f, len, &head, &info, cancel),
            Encoding::Byte => {}
        }
        let mut at = head.len() as u64;
        let mut levels = Vec::with_capacity(info.max_seeds as usize + 1);
        let mut pieces = Vec::new();
        for n in 0..=info.max_seeds {
            let l = level_len(n).unwrap_or(0);
            let bytes = usize::try_from(l).map_err(|_| crate::OutOfMemory::failed(usize::MAX))?;
            let (data, p) = read_payload(path, &f, at, bytes, bytes, cancel, |piece| {
                piece.iter_mut().for_each(|b| *b = flip(*b));
            })?;
            levels.push(data);
            pieces.extend(p);
            at += l;
        }
        egdb::check_payload(path, &f, len, &head, &pieces, info.payload_crc)?;
        let mut first = 0;
        let mut stats = Vec::with_capacity(levels.len());
        for (n, level) in levels.iter().enumerate() {
            check_cancel(cancel)?;
            stats.push(check_level(n as u32, first, level.bytes())?);
            first += level.bytes().len() as u64;
        }
        Ok(AwariDb {
            grand_slam: info.grand_slam,
            max_seeds: info.max_seeds,
            store: Store::Bytes(levels),
            stats,
        })
    }
}

/// The rest of [`AwariDb::open`] for a compact file (`info` its checked header, `head` its
/// header bytes, `len` its length): the payload read with its padding, its length and code
/// tables checked, checksummed, every block decoded (its index entry and its codes checked),
/// the levels counted; given up once `cancel` is set.
fn open_compact(
    path: &Path,
    f: &std::fs::File,
    len: u64,
    head: &[u8],
    info: &AwariInfo,
    cancel: Option<&AtomicBool>,
) -> Result<AwariDb, EgdbError> {
    let too_big = |_| crate::OutOfMemory::failed(usize::MAX);
    let payload = usize::try_from(info.payload_bytes).map_err(too_big)?;
    let pad = super::compact::PAD;
    let (data, pieces) = read_payload(
        path,
        f,
        head.len() as u64,
        payload,
        payload + pad,
        cancel,
        |_| {},
    )?;
    check_cancel(cancel)?;
    // The length first (a file cut short is `Truncated`), then the checksum, then the
    // tables.
    super::compact::check_length(info.max_seeds, data.bytes(), head.len() as u64)?;
    egdb::check_payload(path, f, len, head, &pieces, info.payload_crc)?;
    let levels = super::compact::CompactLevels::new(info.max_seeds, data)?;
    let mut stats = Vec::with_capacity(info.max_seeds as usize + 1);
    let mut first = 0;
    levels.decode_all(|n, values| {
        stats.push(check_level(n, first, values)?);
        first += values.len() as u64;
        Ok(())
    })?;
    Ok(AwariDb {
        grand_slam: info.grand_slam,
        max_seeds: info.max_seeds,
        store: Store::Compact(levels),
        stats,
    })
}

/// The rest of [`AwariDb::open`] for a packed file (`info` its checked header, `head` its
/// header bytes, `len` its length): the payload read with its padding, checksummed, every
/// code checked against its level's list, the levels counted; given up once `cancel` is set.
fn open_packed(
    path: &Path,
    f: &std::fs::File,
    len: u64,
    head: &[u8],
    info: &AwariInfo,
    cancel: Option<&AtomicBool>,
) -> Result<AwariDb, EgdbError> {
    let too_big = |_| crate::OutOfMemory::failed(usize::MAX);
    let payload = usize::try_from(info.payload_bytes).map_err(too_big)?;
    let (data, pieces) = read_payload(
        path,
        f,
        head.len() as u64,
        payload,
        payload + PAD,
        cancel,
        |_| {},
    )?;
    check_cancel(cancel)?;
    egdb::check_payload(path, f, len, head, &pieces, info.payload_crc)?;
    let codec = Codec::all_values(info.max_seeds);
    let starts = PackedLevels::level_starts(info.max_seeds);
    // No list of `all_values` holds a 0 reserved to finished boards: never asked.
    packed::check_codes_with(&codec, data.bytes(), |n| starts[n as usize], |_, _| false)?;
    let stats = (0..=info.max_seeds)
        .map(|n| {
            let (s, e) = (starts[n as usize], starts[n as usize + 1]);
            stats_of_codes(&codec, n, &packed::count_codes(&codec, data.bytes(), s, e))
        })
        .collect();
    Ok(AwariDb {
        grand_slam: info.grand_slam,
        max_seeds: info.max_seeds,
        store: Store::Packed(PackedLevels {
            codec,
            data,
            starts,
        }),
        stats,
    })
}
