//! Endgame databases: the exact value of every position with at most K seeds in the houses.
//!
//! # Contents and encoding
//!
//! One entry per distribution of at most K seeds over the 2m houses, seen from the side to
//! move (the mover's houses 1..m, then the opponent's houses 1..m), at index = the rank of the
//! combinatorial number system (crate docs; `C(K+2m, 2m)` entries, layer k at
//! `[C(k+2m−1, 2m), C(k+2m, 2m))`). Positions with no move (a finished game) hold 0.
//!
//! Two entry encodings ([`Encoding`]), the same values:
//!
//! * **one byte an entry** ([`Encoding::Byte`]): the value itself, seeds, as one excess-128
//!   byte (`v + 128`, −K..=K, so K ≤ 127; the byte 0 marks "not computed yet" during the
//!   build). A lookup is one byte load. 225 792 840 entries, 215 MiB, for K = 20 and m = 6;
//!   10.3 GiB for K = 30.
//! * **packed** ([`Encoding::Packed`]): the index of the value among the values its layer
//!   allows (−k, −k+2, …, k, and the 0 of a finished position; −k..=k under
//!   `discard_remaining`), in the same number of bits for every entry, as a little-endian
//!   bit stream: 5 bits for K = 15..=30 (parity rules), so 135 MiB for K = 20 and 6.4 GiB
//!   for K = 30 (m = 6). For the parity rules the index is the mover's share of the seeds
//!   left, (v + k)/2, the 4–5 bits of Irving, Donkers & Uiterwijk (2000), with room for the
//!   0 of a finished position; `discard_remaining`, where the value is not a function of one
//!   share, takes 2k + 1 codes. A lookup reads two bytes, shifts, masks and takes the value
//!   from a table of (layer, code) in L1 cache. The details, and why not fewer bits, are in
//!   the docs of the private module `egdb/packed.rs`.
//!
//! # Build (layer by layer, moment level by moment level, in parallel)
//!
//! Layer k (the positions with exactly k seeds in the houses) depends on the layers below it
//! (a move that banks a seed or captures leaves fewer seeds in the houses) and on layer k
//! itself only through *in-layer* moves, which keep every seed in the houses: a move of s
//! seeds from house h (0-based, house m−1 next to the store) that sows neither the store nor
//! beyond it, so h + s ≤ m − 1, that captures nothing and that does not end the game; the turn
//! then passes. (Reaching the store puts a seed in it; a capture, including the
//! `empty_capture` one, moves seeds to the store; an extra turn needs the last seed in the
//! store; a move that ends the game, under any of `end_when_no_move` and `discard_remaining`,
//! has no entry to read. A last seed in an empty own house facing an empty house without
//! `empty_capture` captures nothing and is in-layer.)
//!
//! The *moment* of a position is φ = Σ_{i<m} i·(own_i + opp_i), house i of each row counted
//! from the house farthest from its owner's store. An in-layer move takes s seeds from house h
//! (−h·s) and puts one in each of the houses h+1..h+s (+h·s + s(s+1)/2): the mover's row gains
//! s(s+1)/2 > 0 and the other row is unchanged; the rows are then exchanged, which keeps φ.
//! So every in-layer child has a strictly larger moment than its parent, and the build fills
//! each layer from the moment level (m−1)·k down to 0: when a level is computed, every entry
//! its positions read (the layers below, the higher levels of this layer) is final. The
//! positions of one level do not depend on each other, so a level is cut into work items of a
//! few thousand positions that rayon threads fill in any order, with a barrier between levels;
//! no entry is computed twice and none is read before it is written (debug builds check both).
//!
//! A level is enumerated as blocks of pairs (own row, opponent's row): the rows (m-part
//! compositions of at most K seeds) are precomputed, sorted by (seeds, moment, rank) and
//! grouped by (seeds, moment); a block is the product of a group of own rows of a seeds and
//! moment μ and the group of opponent's rows of k − a seeds and moment L − μ. The rank splits
//! as R(own row) + T(a, opponent's row) (the first m and the last m terms of the colex sum),
//! so the positions with one opponent's row and a seeds in the own row fill one window of
//! C(a+m−1, m−1) ranks. During the build the entries live in *slot* order: inside every such
//! window the own rows are in the sorted order (by moment) instead of rank order, which makes
//! a group of own rows, and the children one move of one own row reaches from a group of
//! opponent's rows, contiguous. A block is walked in tiles of a few own rows, opponent's rows
//! outer and own rows inner; the children's entries are requested a few positions ahead
//! (software pipelining). Only the layer under construction is in slot order: when it is
//! complete, each of its windows is permuted into rank order, and the children in the layers
//! below are read by their rank (no slower, measured: the in-layer children are the ones
//! whose reads the slot order makes contiguous).
//!
//! In the one-byte encoding the whole database is one buffer, C(K+2m, 2m) bytes, and a
//! layer is permuted in place. In the packed encoding only the layer under construction takes
//! one byte an entry, in a buffer of its own; once complete it is packed, window by window
//! in rank order, into the bit stream that holds the finished layers, and freed. The build
//! then needs the packed stream plus one byte a position of the largest layer, K:
//! [`Egdb::build_memory`] (m = 6, K = 30: 6.9 GB + 4.1 GB = 11.0 GB at the peak and 6.9 GB
//! once built, where one byte an entry takes 11.1 GB throughout).
//!
//! # File format (little-endian)
//!
//! ```text
//! offset  size  field
//!      0     8  magic "MNCLEGDB"
//!      8     4  format version (1)
//!     12     1  m, houses a row
//!     13     1  K, the largest seed count in the houses
//!     14     1  value-relevant option bits (empty_capture, end_when_no_move, discard_remaining;
//!               bit numbers of `KalahOptions::bits`)
//!     15     1  entry encoding: 1 = one byte, the value for the side to move + 128;
//!               2 = packed (`Encoding::Packed`)
//!     16     8  number of entries, C(K+2m, 2m)
//!     24     4  CRC-32 of the payload
//!     28     4  n, length of the rule-set string
//!     32     n  the rule set the database was built with (`kalah(6,4)+empty_capture`)
//!   32+n     4  CRC-32 of bytes 0..32+n
//!   36+n     …  payload, in rank order: one byte per entry (encoding 1), or the packed
//!               bit stream, ⌈entries · w / 8⌉ bytes for w bits an entry (encoding 2:
//!               entry r at bits r·w .. r·w + w, bit j in bit j mod 8 of byte j / 8)
//! ```
//!
//! Files of encoding 1 are those this library always wrote; the format version stays 1, and
//! an older library refuses a packed file with "unknown entry encoding 2". `mancala egdb
//! convert` ([`Egdb::convert`]) turns either encoding into the other.
//!
//! Opening a file checks every field, the size, both checksums and every entry against the
//! values its seed count allows (so that a file with right checksums but impossible values,
//! written by a faulty or hostile writer, is refused too); anything off is a typed
//! [`EgdbError`]. A database serves exactly the rules whose m and value-relevant options it
//! was built for: the starting seeds n never change the value of a position, and `pie_rule`
//! and `no_first_move_bonus` only concern the opening, which is never looked up. Any other
//! difference is refused ([`EgdbError::RulesMismatch`], `SolveError::DatabaseMismatch`).

mod build;
pub mod cache;
mod find;
mod packed;

pub use build::{Level, LevelBuild};
pub use find::{FolderScan, Found};

use std::fs::File;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use mancala_core::kalah::{KalahOption, KalahOptions, KalahPosition, KalahRules};
use rayon::prelude::*;
use thiserror::Error;

use crate::board::{is_special, relative};
use crate::mem::FrozenBytes;
use crate::progress::BuildProgress;
use crate::rank::{layer_start, rank_dyn, rank_space};
pub(crate) use packed::Probe;
use packed::{Codec, PAD};

/// The file magic.
pub const MAGIC: [u8; 8] = *b"MNCLEGDB";
/// The file format version this library writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Entry encoding 1: one byte, the value for the side to move plus 128 (excess-128: byte
/// 128 is value 0, byte 108 is −20; byte 0 never occurs).
pub const ENCODING_I8_VALUE: u8 = 1;

/// Entry encoding 2: the index of the value among the values its layer allows, in the same
/// number of bits for every entry (5 bits for K ≤ 30 under the parity rules), packed into a
/// little-endian bit stream ([`Encoding::Packed`], module docs).
pub const ENCODING_PACKED: u8 = 2;

/// How the entries of a database are stored, in memory and in its file (the header's
/// entry-encoding byte).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// One byte an entry, the value + 128 ([`ENCODING_I8_VALUE`]): the fastest lookups, 8
    /// bits a position.
    #[default]
    Byte,
    /// The value's index among the values its layer allows, in ⌈log₂(K + 2)⌉ bits (one more
    /// under `discard_remaining`), packed ([`ENCODING_PACKED`], module docs): 5 bits a position
    /// for K = 15..=30.
    Packed,
}

impl Encoding {
    /// Both encodings.
    pub const ALL: [Encoding; 2] = [Encoding::Byte, Encoding::Packed];

    /// The header byte: [`ENCODING_I8_VALUE`] or [`ENCODING_PACKED`].
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            Encoding::Byte => ENCODING_I8_VALUE,
            Encoding::Packed => ENCODING_PACKED,
        }
    }

    /// The encoding of a header byte, `None` for an unknown one.
    #[must_use]
    pub fn from_code(code: u8) -> Option<Encoding> {
        match code {
            ENCODING_I8_VALUE => Some(Encoding::Byte),
            ENCODING_PACKED => Some(Encoding::Packed),
            _ => None,
        }
    }

    /// Its name on the command line and in messages: `byte` or `packed`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Byte => "byte",
            Encoding::Packed => "packed",
        }
    }

    /// Bits an entry of a database of K = `max_seeds` for the value-relevant `options`
    /// takes in this encoding: 8, or the packed width (module docs of `packed`: 4 bits for
    /// K ≤ 14, 5 for K ≤ 30, 6 for K ≤ 62, one more under `discard_remaining`).
    #[must_use]
    pub fn bits_per_entry(self, max_seeds: u32, options: KalahOptions) -> u32 {
        match self {
            Encoding::Byte => BITS_PER_ENTRY,
            Encoding::Packed => Codec::new(max_seeds.min(MAX_DB_SEEDS), options).width(),
        }
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Encoding {
    type Err = String;

    /// `byte` or `packed`.
    fn from_str(s: &str) -> Result<Encoding, String> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown database encoding {s:?} (byte or packed)"))
    }
}

/// The value (seeds) of an entry byte of [`ENCODING_I8_VALUE`].
#[inline(always)]
#[must_use]
pub fn decode(entry: u8) -> i32 {
    i32::from(entry) - 128
}
/// Bits per entry of [`ENCODING_I8_VALUE`] (for [`ENCODING_PACKED`]:
/// [`Encoding::bits_per_entry`]).
pub const BITS_PER_ENTRY: u32 = 8;
/// Largest K: values must fit a signed byte.
pub const MAX_DB_SEEDS: u32 = 127;
/// Largest database this library builds or opens, entries (64 GiB).
pub const MAX_ENTRIES: u64 = 1 << 36;

const FIXED_HEADER: usize = 32;
const MAX_RULES_LEN: usize = 256;

/// Why a database could not be built, saved, opened or used. Every malformed file gives one
/// of these, never a panic and never a wrong value.
#[derive(Debug, Error)]
pub enum EgdbError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("{0}: not a mancala endgame database (bad magic)")]
    BadMagic(PathBuf),
    /// A format version this library does not read.
    #[error("unsupported database format version {found} (this library reads {expected})")]
    Version {
        /// Version in the file.
        found: u32,
        /// [`FORMAT_VERSION`].
        expected: u32,
    },
    /// The file is shorter than its header says.
    #[error("database file truncated: {expected} bytes expected, {found} found")]
    Truncated {
        /// Bytes the header calls for.
        expected: u64,
        /// Bytes in the file.
        found: u64,
    },
    /// A header field is inconsistent or unknown (the text says which).
    #[error("corrupt database header: {0}")]
    Header(String),
    /// The payload's checksum does not match: the entries are damaged.
    #[error("database checksum mismatch (stored {stored:08x}, computed {computed:08x}): the file is corrupt")]
    Checksum {
        /// CRC-32 in the header.
        stored: u32,
        /// CRC-32 of the payload read.
        computed: u32,
    },
    /// The database was built for other rules than the ones asked for.
    #[error("the database is for {database}, not for {wanted}")]
    RulesMismatch {
        /// What the database serves.
        database: String,
        /// The rules asked for.
        wanted: String,
    },
    /// K or the size is out of range.
    #[error("a database of m = {houses}, K = {max_seeds} is not supported: {why}")]
    Unsupported {
        /// m.
        houses: u8,
        /// K.
        max_seeds: u32,
        /// The limit broken.
        why: &'static str,
    },
    /// An entry outside the range its seed count allows (found when a file is opened or by
    /// [`Egdb::check_entries`]).
    #[error(
        "entry {rank} (k = {seeds} seeds) holds {value}, outside −k..=k or of the wrong parity"
    )]
    BadEntry {
        /// Rank of the entry.
        rank: u64,
        /// Seeds in its houses.
        seeds: u32,
        /// The value stored.
        value: i32,
    },
    /// The file changed (was truncated, grew, or was overwritten) while it was being read:
    /// nothing read from it is used. Reading it again once it is whole may succeed.
    #[error("{0}: the file changed while it was being read (truncated, overwritten or replaced)")]
    Changed(PathBuf),
    /// The memory for the entries could not be had (building, loading, or copying a file's
    /// entries). Nothing was half-built; a smaller K may fit.
    #[error("the database does not fit in memory: {0}")]
    OutOfMemory(#[from] crate::OutOfMemory),
    /// [`Egdb::build_watched`]'s progress callback asked to stop; nothing was kept.
    #[error("the database build was cancelled")]
    Cancelled,
    /// The build threads ([`Egdb::build_watched`]) could not be started.
    #[error("cannot start the build threads: {0}")]
    Threads(String),
    /// [`Egdb::find_in`] found no file in the folder that serves the rules and loads.
    #[error("no endgame database for {rules} in {}{}", dir.display(), skipped_text(skipped))]
    NotFound {
        /// The folder searched.
        dir: PathBuf,
        /// The rules asked for.
        rules: String,
        /// Every `*.egdb` file passed over, with its reason.
        skipped: Vec<(PathBuf, String)>,
    },
}

/// `; skipped FILE: REASON` for each file of [`EgdbError::NotFound`].
fn skipped_text(skipped: &[(PathBuf, String)]) -> String {
    skipped
        .iter()
        .map(|(p, why)| format!("; skipped {}: {why}", p.display()))
        .collect()
}

/// What [`Egdb::save`] did besides writing the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SaveReport {
    /// Temporary files of earlier saves of the same file name whose process is gone (killed
    /// during its save), removed before this save began.
    pub removed_stale: Vec<PathBuf>,
}

/// Whose temporary files [`remove_temporary_files`] removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TemporaryOwners {
    /// Those whose process is no longer running (`kill(pid, 0)` fails with `ESRCH`): left by a
    /// save that was killed. Those of live processes (a save under way) are kept.
    Gone,
    /// Those of this process: for a program that is about to exit on a signal during a save.
    ThisProcess,
}

/// Removes the temporary files that [`Egdb::save`] of the file `path` leaves when it is
/// interrupted (`.<file name>.<process id>.<random>.tmp` in the folder of `path`) and that
/// belong to `owners`, and returns them. Only regular files of this user (not symlinks, not
/// other users' files) with exactly that name pattern are removed; anything that cannot be
/// read or removed is left alone. On systems other than Unix, [`TemporaryOwners::Gone`]
/// removes nothing (whether a process runs is not checked there).
pub fn remove_temporary_files(path: &Path, owners: TemporaryOwners) -> Vec<PathBuf> {
    let Ok((dir, name)) = split_path(path) else {
        return Vec::new();
    };
    let Ok(list) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let me = std::process::id();
    let mut removed = Vec::new();
    for entry in list.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name.to_str().and_then(|f| temporary_owner(f, &name)) else {
            continue;
        };
        let wanted = match owners {
            TemporaryOwners::ThisProcess => pid == me,
            TemporaryOwners::Gone => pid != me && process_is_gone(pid),
        };
        let p = entry.path();
        if wanted && is_own_regular_file(&p) && std::fs::remove_file(&p).is_ok() {
            removed.push(p);
        }
    }
    removed.sort();
    removed
}

/// A new temporary file of [`Egdb::save`], removed when dropped unless persisted.
struct TemporaryFile {
    path: PathBuf,
    file: File,
    persisted: bool,
}

impl TemporaryFile {
    /// Creates `.<name>.<pid>.<12 random letters or digits>.tmp` in `dir` with
    /// `O_CREAT | O_EXCL` (never opening an existing name, symlinks included) and the
    /// permissions 0666 less the umask; a new random part on a name collision (100 tries).
    /// The random part comes from std's `RandomState` (SipHash keys seeded from the system's
    /// random source), which keeps no thread-local state that needs freeing in a thread the
    /// library did not start (a C program's main thread).
    fn create(dir: &Path, name: &str) -> std::io::Result<TemporaryFile> {
        use std::hash::{BuildHasher, Hasher};
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let mut last = None;
        for attempt in 0u64..100 {
            let mut random = String::with_capacity(12);
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(attempt);
            let mut bits = h.finish();
            let mut h2 = std::collections::hash_map::RandomState::new().build_hasher();
            h2.write_u64(bits);
            let mut more = h2.finish();
            for i in 0..12 {
                if i == 6 {
                    bits = more;
                    more = 0;
                }
                random.push(char::from(ALPHABET[(bits % 62) as usize]));
                bits /= 62;
            }
            let path = dir.join(format!(".{name}.{}.{random}.tmp", std::process::id()));
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                options.mode(0o666);
            }
            match options.open(&path) {
                Ok(file) => {
                    return Ok(TemporaryFile {
                        path,
                        file,
                        persisted: false,
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::ErrorKind::AlreadyExists.into()))
    }

    /// Renames the file over `to` in one step (a symlink at `to` is replaced, not followed).
    fn persist(mut self, to: &Path) -> std::io::Result<()> {
        std::fs::rename(&self.path, to)?;
        self.persisted = true;
        Ok(())
    }
}

impl Drop for TemporaryFile {
    fn drop(&mut self) {
        if !self.persisted {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The folder and file name of `path` (the folder `.` for a bare name).
fn split_path(path: &Path) -> std::io::Result<(PathBuf, String)> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "the path has no file name in UTF-8",
            )
        })?
        .to_string();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name))
}

/// The process id in `file`, a temporary name of [`Egdb::save`] for the file `name`
/// (`.<name>.<pid>.<random>.tmp`), or `None` for any other name.
fn temporary_owner(file: &str, name: &str) -> Option<u32> {
    let rest = file
        .strip_prefix('.')?
        .strip_prefix(name)?
        .strip_prefix('.')?
        .strip_suffix(".tmp")?;
    let (pid, random) = rest.split_once('.')?;
    if random.is_empty() || !random.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether no process of id `pid` runs (`kill(pid, 0)` fails with `ESRCH`). A process of
/// another user (`EPERM`) runs.
fn process_is_gone(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(p) = libc::pid_t::try_from(pid) else {
            return false;
        };
        if p <= 0 {
            return false;
        }
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let r = unsafe { libc::kill(p, 0) };
        r != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        false
    }
}

/// Whether `p` is a regular file (not a symlink) owned by this process's user.
fn is_own_regular_file(p: &Path) -> bool {
    let Ok(meta) = std::fs::symlink_metadata(p) else {
        return false;
    };
    if !meta.file_type().is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: `geteuid` has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        meta.uid() == me
    }
    #[cfg(not(unix))]
    true
}

/// Flushes the folder `dir` to disk, so that a rename in it survives a crash (Unix; a no-op
/// elsewhere).
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// The header fields of a database file ([`Egdb::info`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EgdbInfo {
    /// Format version.
    pub version: u32,
    /// The rule set the database was built with.
    pub rules: String,
    /// m, houses a row.
    pub houses: u8,
    /// K: every position with at most K seeds in the houses has an entry.
    pub max_seeds: u32,
    /// The value-relevant options it serves.
    pub options: KalahOptions,
    /// Entry encoding byte ([`ENCODING_I8_VALUE`] or [`ENCODING_PACKED`]).
    pub encoding: u8,
    /// Bits per entry (8, or the packed width: [`Encoding::bits_per_entry`]).
    pub bits_per_entry: u32,
    /// Number of entries, C(K+2m, 2m).
    pub entries: u64,
    /// Size of the payload (the entries) in the file, bytes.
    pub payload_bytes: u64,
    /// Memory the entries take once the file is opened, bytes ([`Egdb::bytes`]).
    pub memory_bytes: u64,
    /// Size of the file, bytes.
    pub file_bytes: u64,
    /// CRC-32 of the payload, as stored.
    pub payload_crc: u32,
}

impl EgdbInfo {
    /// The entry encoding (the header's byte is always a known one in an `EgdbInfo`).
    #[must_use]
    pub fn encoding(&self) -> Encoding {
        Encoding::from_code(self.encoding).unwrap_or_default()
    }

    /// Whether the database of this header gives the values of positions played under
    /// `rules` (same m, same value-relevant options; module docs), as [`Egdb::serves`] says
    /// once it is opened.
    #[must_use]
    pub fn serves(&self, rules: &KalahRules) -> bool {
        serves(self.houses, self.options, rules)
    }
}

/// Whether a database of m = `houses` and value-relevant `options` serves `rules`.
fn serves(houses: u8, options: KalahOptions, rules: &KalahRules) -> bool {
    rules.houses() == houses && relevant_options(rules.options()) == options
}

/// An endgame database in memory (built or read from a file): see the module docs. The
/// entries always live in memory of this process (anonymous, huge pages where the system
/// offers them), never in a map of the file, so nothing done to the file after it was read
/// can change a value or stop the process.
pub struct Egdb {
    houses: u8,
    max_seeds: u32,
    options: KalahOptions,
    rules: String,
    /// C(K+2m, 2m).
    entries: u64,
    /// The codes of a packed database; `None` for one byte an entry.
    codec: Option<Codec>,
    /// The one-byte entries, or the packed payload followed by [`PAD`] zero bytes.
    data: FrozenBytes,
}

impl std::fmt::Debug for Egdb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Egdb({})", self.description())
    }
}

/// The options that change values in the database: those of `options` that the core's
/// option table marks `changes_database` ([`KalahOptions::database_relevant`], kept here under
/// its old name).
#[must_use]
pub fn relevant_options(options: KalahOptions) -> KalahOptions {
    options.database_relevant()
}

impl Egdb {
    /// Builds the database of `rules` (its m and value-relevant options) for every position
    /// with at most `max_seeds` seeds in the houses, on the current rayon pool. `progress`, if
    /// given, is called from the worker threads with (entries done, entries in all) as the
    /// build goes.
    ///
    /// # Errors
    /// [`EgdbError::Unsupported`] when K > 127 or the database would exceed [`MAX_ENTRIES`],
    /// [`EgdbError::OutOfMemory`] when its entries do not fit in memory.
    pub fn build(
        rules: &KalahRules,
        max_seeds: u32,
        progress: Option<&(dyn Fn(u64, u64) + Sync)>,
    ) -> Result<Egdb, EgdbError> {
        Egdb::build_as(rules, max_seeds, Encoding::Byte, progress)
    }

    /// [`Egdb::build`] in the entry encoding `encoding`. The values are the same in either
    /// encoding. [`Encoding::Packed`] is built layer by layer: the finished layers are kept
    /// packed, and only the layer under construction takes one byte an entry, so that the
    /// build needs [`Egdb::build_memory`] bytes, not one byte a position.
    ///
    /// # Errors
    /// As [`Egdb::build`].
    pub fn build_as(
        rules: &KalahRules,
        max_seeds: u32,
        encoding: Encoding,
        progress: Option<&(dyn Fn(u64, u64) + Sync)>,
    ) -> Result<Egdb, EgdbError> {
        let m = rules.houses();
        let total = check_size(m, max_seeds)?;
        let options = relevant_options(rules.options());
        let data = build::build(
            m as usize, options, max_seeds, total, encoding, progress, None,
        )?
        .ok_or(EgdbError::Cancelled)?;
        Ok(Egdb::built(rules, max_seeds, encoding, data))
    }

    /// The memory, bytes, that building the database of `rules` and K = `max_seeds` in
    /// `encoding` takes at its peak (the entries; besides them the build holds tables of a
    /// few MiB): C(K+2m, 2m) for [`Encoding::Byte`]; for [`Encoding::Packed`] the packed
    /// payload plus one byte for every position of layer K (the largest), C(K+2m−1, 2m−1).
    /// For m = 6, K = 30: 11.1 GB one byte an entry; 6.9 GB + 4.1 GB packed.
    ///
    /// # Errors
    /// [`EgdbError::Unsupported`] as [`Egdb::build`].
    pub fn build_memory(
        rules: &KalahRules,
        max_seeds: u32,
        encoding: Encoding,
    ) -> Result<u64, EgdbError> {
        let m = rules.houses();
        let total = check_size(m, max_seeds)?;
        let options = relevant_options(rules.options());
        let [byte, packed] = build::build_memory(m as usize, options, max_seeds, total);
        Ok(match encoding {
            Encoding::Byte => byte,
            Encoding::Packed => packed,
        })
    }

    /// [`Egdb::build`] on a pool of `threads` build threads (0 = every core), with progress
    /// reports: `progress` is called on the calling thread every `interval` (at least
    /// [`MIN_INTERVAL`](crate::progress::MIN_INTERVAL)) while the build runs, with the entries
    /// done and in all and the seconds so far ([`BuildProgress`]); never once the build has
    /// ended. Returning [`ControlFlow::Break`] stops the build within one work item per thread.
    /// The entries are the same as [`Egdb::build`]'s.
    ///
    /// # Errors
    /// As [`Egdb::build`]; [`EgdbError::Cancelled`] after a [`ControlFlow::Break`];
    /// [`EgdbError::Threads`] when the pool or the helper thread cannot start, or for more
    /// than [`crate::MAX_THREADS`] threads.
    pub fn build_watched(
        rules: &KalahRules,
        max_seeds: u32,
        threads: usize,
        interval: std::time::Duration,
        progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
    ) -> Result<Egdb, EgdbError> {
        Egdb::build_watched_as(
            rules,
            max_seeds,
            Encoding::Byte,
            threads,
            interval,
            progress,
        )
    }

    /// [`Egdb::build_watched`] in the entry encoding `encoding` (see [`Egdb::build_as`]).
    ///
    /// # Errors
    /// As [`Egdb::build_watched`].
    pub fn build_watched_as(
        rules: &KalahRules,
        max_seeds: u32,
        encoding: Encoding,
        threads: usize,
        interval: std::time::Duration,
        progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
    ) -> Result<Egdb, EgdbError> {
        let m = rules.houses();
        let total = check_size(m, max_seeds)?;
        let options = relevant_options(rules.options());
        if threads > crate::mem::MAX_THREADS {
            return Err(EgdbError::Threads(format!(
                "{threads} threads asked for, at most {}",
                crate::mem::MAX_THREADS
            )));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| EgdbError::Threads(e.to_string()))?;
        let t0 = std::time::Instant::now();
        let done = AtomicU64::new(0);
        let cancel = AtomicBool::new(false);
        let count = |n: u64, _: u64| {
            done.fetch_max(n, Ordering::Relaxed);
        };
        let data = crate::progress::watch(
            interval,
            || {
                pool.install(|| {
                    build::build(
                        m as usize,
                        options,
                        max_seeds,
                        total,
                        encoding,
                        Some(&count),
                        Some(&cancel),
                    )
                })
            },
            || {
                progress(&BuildProgress {
                    done: done.load(Ordering::Relaxed),
                    total,
                    seconds: t0.elapsed().as_secs_f64(),
                })
            },
            || cancel.store(true, Ordering::Relaxed),
        )
        .map_err(|e| EgdbError::Threads(e.to_string()))??
        .ok_or(EgdbError::Cancelled)?;
        Ok(Egdb::built(rules, max_seeds, encoding, data))
    }

    /// The database of `rules` and K = `max_seeds` holding the freshly built `data` in
    /// `encoding`.
    fn built(rules: &KalahRules, max_seeds: u32, encoding: Encoding, data: FrozenBytes) -> Egdb {
        let options = relevant_options(rules.options());
        Egdb {
            houses: rules.houses(),
            max_seeds,
            options,
            rules: rules.to_string(),
            entries: rank_space(rules.houses() as usize, max_seeds).unwrap_or(0),
            codec: (encoding == Encoding::Packed).then(|| Codec::new(max_seeds, options)),
            data,
        }
    }

    /// m, houses a row.
    #[must_use]
    pub fn houses(&self) -> u8 {
        self.houses
    }

    /// K: positions with at most this many seeds in the houses have an entry.
    #[must_use]
    pub fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// The value-relevant options the database was built for.
    #[must_use]
    pub fn options(&self) -> KalahOptions {
        self.options
    }

    /// The rule set the database was built with.
    #[must_use]
    pub fn built_with(&self) -> &str {
        &self.rules
    }

    /// Number of entries, C(K+2m, 2m).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries as usize
    }

    /// Whether there is no entry (never: K = 0 has one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The entry encoding.
    #[must_use]
    pub fn encoding(&self) -> Encoding {
        if self.codec.is_some() {
            Encoding::Packed
        } else {
            Encoding::Byte
        }
    }

    /// Bits an entry takes (8, or the packed width).
    #[must_use]
    pub fn bits_per_entry(&self) -> u32 {
        self.codec.as_ref().map_or(BITS_PER_ENTRY, Codec::width)
    }

    /// Memory the entries take, bytes: one byte each, or the packed payload and its 8 bytes
    /// of padding.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.data.bytes().len()
    }

    /// The payload as the file holds it, in rank order: the excess-128 bytes of
    /// [`Encoding::Byte`] (see [`decode`]), or the packed bit stream of
    /// [`Encoding::Packed`] (module docs). Two databases of the same rules, K and encoding
    /// hold the same payload.
    #[must_use]
    pub fn payload(&self) -> &[u8] {
        let b = self.data.bytes();
        match &self.codec {
            None => b,
            Some(c) => &b[..c.payload_bytes(self.entries) as usize],
        }
    }

    /// The value (seeds, for the side to move) of the entry of rank `rank` (the
    /// combinatorial rank of its position, crate docs), in either encoding; `None` for a
    /// rank past the last entry. A finished position holds 0.
    #[must_use]
    pub fn value_at(&self, rank: u64) -> Option<i32> {
        if rank >= self.entries {
            return None;
        }
        let m = usize::from(self.houses);
        // The layer of the rank: the last k whose first rank is at most `rank`.
        let k = (0..=self.max_seeds)
            .take_while(|&k| layer_start(m, k) <= rank)
            .last()
            .unwrap_or(0);
        Some(self.probe().value(rank, k))
    }

    /// The lookup of the search ([`Probe`]).
    pub(crate) fn probe(&self) -> Probe<'_> {
        match &self.codec {
            None => Probe::bytes(self.data.bytes()),
            Some(c) => Probe::packed(self.data.bytes(), c),
        }
    }

    /// The same database in the entry encoding `encoding` (every value the same; a copy
    /// when the encoding is already that one). Memory: the payloads of both encodings at
    /// once.
    ///
    /// # Errors
    /// [`EgdbError::OutOfMemory`].
    pub fn convert(&self, encoding: Encoding) -> Result<Egdb, EgdbError> {
        let m = usize::from(self.houses);
        let starts = |k: u32| layer_start(m, k);
        let data = match (&self.codec, encoding) {
            (None, Encoding::Byte) | (Some(_), Encoding::Packed) => {
                FrozenBytes::copy_of(self.data.bytes())?
            }
            (None, Encoding::Packed) => {
                let codec = Codec::new(self.max_seeds, self.options);
                let len = codec.payload_bytes(self.entries) as usize + PAD;
                let words = crate::mem::ZeroedBuf::<std::sync::atomic::AtomicU64>::new(
                    len.div_ceil(8) + 1,
                )?;
                packed::pack_bytes(&codec, self.data.bytes(), words.as_slice(), starts);
                words.freeze_bytes(len)
            }
            (Some(codec), Encoding::Byte) => {
                // One piece: the unpacking itself is parallel.
                let (data, _) =
                    FrozenBytes::filled_in_pieces(self.entries as usize, usize::MAX, |_, out| {
                        packed::unpack_bytes(codec, self.data.bytes(), out, starts);
                        Ok::<(), EgdbError>(())
                    })?;
                data
            }
        };
        Ok(Egdb {
            houses: self.houses,
            max_seeds: self.max_seeds,
            options: self.options,
            rules: self.rules.clone(),
            entries: self.entries,
            codec: (encoding == Encoding::Packed).then(|| Codec::new(self.max_seeds, self.options)),
            data,
        })
    }

    /// What the database serves, for messages: `kalah(6,·)+empty_capture, K = 20`.
    #[must_use]
    pub fn description(&self) -> String {
        let mut s = format!("kalah({},·)", self.houses);
        for o in self.options.iter() {
            s.push('+');
            s.push_str(o.name());
        }
        s.push_str(&format!(", K = {}", self.max_seeds));
        s
    }

    /// Whether the database gives the values of positions played under `rules` (same m, same
    /// value-relevant options; module docs).
    #[must_use]
    pub fn serves(&self, rules: &KalahRules) -> bool {
        serves(self.houses, self.options, rules)
    }

    /// The value of `pos` for the side to move (seeds), when the database holds it: `None` for
    /// other rules, more than K seeds in the houses, a finished game or an opening position
    /// (first move, pie-rule states).
    #[must_use]
    pub fn value(&self, pos: &KalahPosition) -> Option<i32> {
        let side = pos.side_to_move()?;
        if !self.serves(&pos.rules()) || is_special(pos) {
            return None;
        }
        let (b, k) = relative(pos, side);
        if k > self.max_seeds {
            return None;
        }
        let r = rank_dyn(self.houses as usize, b);
        Some(self.probe().value(r, k))
    }

    /// The conventional file name of a one-byte database: `kalah6+empty_capture.k20.egdb`.
    #[must_use]
    pub fn file_name(rules: &KalahRules, max_seeds: u32) -> String {
        Egdb::file_name_as(rules, max_seeds, Encoding::Byte)
    }

    /// The conventional file name in `encoding`: [`Egdb::file_name`] for
    /// [`Encoding::Byte`], `kalah6+empty_capture.k20.packed.egdb` for [`Encoding::Packed`]
    /// (so that both can share a folder; the files are read by their headers, never by
    /// their names).
    #[must_use]
    pub fn file_name_as(rules: &KalahRules, max_seeds: u32, encoding: Encoding) -> String {
        let mut s = format!("kalah{}", rules.houses());
        for o in relevant_options(rules.options()).iter() {
            s.push('+');
            s.push_str(o.name());
        }
        match encoding {
            Encoding::Byte => format!("{s}.k{max_seeds}.egdb"),
            Encoding::Packed => format!("{s}.k{max_seeds}.packed.egdb"),
        }
    }

    /// Writes the database to `path`, so that the file at `path` is always either the old one
    /// or the whole new one, and nothing in the folder can redirect the write:
    ///
    /// 1. temporary files that an earlier save of this same file name left behind, whose
    ///    process is gone (killed during its save), are removed ([`remove_temporary_files`]
    ///    with [`TemporaryOwners::Gone`]) and listed in the report;
    /// 2. the bytes go to a new temporary file in the same folder, named
    ///    `.<file name>.<process id>.<12 random letters or digits>.tmp`, created with
    ///    `O_CREAT | O_EXCL` (an existing name, symlinks included, is never opened, let alone
    ///    followed) and the permissions `0666` less the user's umask;
    /// 3. the file is flushed to disk (`fsync`), renamed over `path` in one step (`rename`
    ///    replaces a symlink planted at `path`; it never writes through it), and the folder is
    ///    flushed so that the rename is durable.
    ///
    /// On any error (a full disk, a folder that cannot be written) or a panic the temporary
    /// file is removed. Two saves of the same file at once (threads or processes) both
    /// succeed, each with its own temporary file; the file is one of them, whole. A process
    /// killed during its save leaves its temporary file, which the next save removes.
    ///
    /// # Errors
    /// [`EgdbError::Io`] (naming `path` or the temporary file).
    pub fn save(&self, path: &Path) -> Result<SaveReport, EgdbError> {
        let io = |source| EgdbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let payload = self.payload();
        let mut header = Vec::with_capacity(FIXED_HEADER + self.rules.len() + 4);
        header.extend_from_slice(&MAGIC);
        header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        header.push(self.houses);
        header.push(self.max_seeds as u8);
        header.push(self.options.bits());
        header.push(self.encoding().code());
        header.extend_from_slice(&self.entries.to_le_bytes());
        header.extend_from_slice(&parallel_crc32(payload).to_le_bytes());
        header.extend_from_slice(&(self.rules.len() as u32).to_le_bytes());
        header.extend_from_slice(self.rules.as_bytes());
        let hcrc = crc32fast::hash(&header);
        header.extend_from_slice(&hcrc.to_le_bytes());

        if path.is_dir() {
            // The rename would fail with the system's "Is a directory".
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "it is a folder, not a file",
            )));
        }
        let (dir, name) = split_path(path).map_err(io)?;
        let removed_stale = remove_temporary_files(path, TemporaryOwners::Gone);
        let tmp = TemporaryFile::create(&dir, &name).map_err(io)?;
        // From here on, dropping `tmp` (an error, a panic) removes the temporary file.
        let tmp_io = |source| EgdbError::Io {
            path: tmp.path.clone(),
            source,
        };
        {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, &tmp.file);
            w.write_all(&header).map_err(tmp_io)?;
            w.write_all(payload).map_err(tmp_io)?;
            w.flush().map_err(tmp_io)?;
        }
        tmp.file.sync_all().map_err(tmp_io)?;
        tmp.persist(path).map_err(io)?;
        sync_dir(&dir).map_err(io)?;
        Ok(SaveReport { removed_stale })
    }

    /// Reads only the header of the file at `path` (the payload checksum is not checked;
    /// [`Egdb::open`] checks it).
    ///
    /// # Errors
    /// Every header error of [`Egdb::open`].
    pub fn info(path: &Path) -> Result<EgdbInfo, EgdbError> {
        let io = |source| EgdbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let f = open_regular(path).map_err(io)?;
        let len = f.metadata().map_err(io)?.len();
        read_header(path, &f, len).map(|(info, _)| info)
    }

    /// Reads the file at `path` into memory and checks it completely (header fields, size,
    /// both CRC-32 checksums, every entry within what its seed count allows, as
    /// [`Egdb::check_entries`]).
    ///
    /// The file is read with positioned reads (`pread`), in pieces of 4 MiB on the rayon
    /// threads, straight into anonymous memory (huge pages where the system offers them); the
    /// payload checksum is computed piece by piece as it arrives. The file is never
    /// memory-mapped: a file that is truncated, overwritten or replaced while it is read gives
    /// an error ([`EgdbError::Changed`], [`EgdbError::Truncated`], [`EgdbError::Checksum`]),
    /// never a `SIGBUS`, and once this returns the file is not touched again. Memory: the
    /// entries once (C(K+2m, 2m) bytes), plus the system's page cache of the file.
    ///
    /// # Errors
    /// [`EgdbError::Io`], [`EgdbError::BadMagic`], [`EgdbError::Version`],
    /// [`EgdbError::Truncated`], [`EgdbError::Header`], [`EgdbError::Checksum`],
    /// [`EgdbError::Unsupported`], [`EgdbError::BadEntry`], [`EgdbError::Changed`],
    /// [`EgdbError::OutOfMemory`].
    pub fn open(path: &Path) -> Result<Egdb, EgdbError> {
        let io = |source| EgdbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let f = open_regular(path).map_err(io)?;
        // Miri has no positioned reads: read the whole file instead (same checks).
        #[cfg(miri)]
        return check_bytes(path, &{
            use std::io::Read;
            let mut bytes = Vec::new();
            let mut f = f;
            f.read_to_end(&mut bytes).map_err(io)?;
            bytes
        });
        #[cfg(not(miri))]
        {
            let len = f.metadata().map_err(io)?.len();
            let (info, head) = read_header(path, &f, len)?;
            let payload_at = head.len() as u64;
            let changed = || EgdbError::Changed(path.to_path_buf());
            let payload = usize::try_from(info.payload_bytes)
                .map_err(|_| crate::OutOfMemory { bytes: usize::MAX })?;
            let memory = usize::try_from(info.memory_bytes)
                .map_err(|_| crate::OutOfMemory { bytes: usize::MAX })?;
            // The payload, then (packed) the zero padding, which is not in the file.
            let (data, pieces) =
                FrozenBytes::filled_in_pieces(memory, CHECK_PIECE, |offset, piece| {
                    let in_file = payload.saturating_sub(offset).min(piece.len());
                    let piece = &mut piece[..in_file];
                    read_exact_at(&f, piece, payload_at + offset as u64).map_err(|e| {
                        if e.kind() == std::io::ErrorKind::UnexpectedEof {
                            changed()
                        } else {
                            io(e)
                        }
                    })?;
                    let mut h = crc32fast::Hasher::new();
                    h.update(piece);
                    Ok::<_, EgdbError>(h)
                })?;
            // The same length and the same header as when the reading began: a file
            // rewritten in place meanwhile is refused here if its checksum did not already
            // catch it.
            if f.metadata().map_err(io)?.len() != len {
                return Err(changed());
            }
            let mut again = vec![0u8; head.len()];
            read_exact_at(&f, &mut again, 0).map_err(|_| changed())?;
            if again != head {
                return Err(changed());
            }
            let computed = combine_crc32(&pieces);
            if computed != info.payload_crc {
                return Err(EgdbError::Checksum {
                    stored: info.payload_crc,
                    computed,
                });
            }
            Egdb::checked(info, data)
        }
    }

    /// Reads a database from the bytes of a whole file (what [`Egdb::save`] writes), checked
    /// exactly as [`Egdb::open`] checks a file, and copies the entries. For databases that
    /// arrive by other means than a file (embedded, downloaded, fuzzed).
    ///
    /// # Errors
    /// [`EgdbError::BadMagic`] (naming the path `<memory>`), [`EgdbError::Version`],
    /// [`EgdbError::Truncated`], [`EgdbError::Header`], [`EgdbError::Checksum`],
    /// [`EgdbError::Unsupported`], [`EgdbError::BadEntry`], [`EgdbError::OutOfMemory`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Egdb, EgdbError> {
        check_bytes(Path::new("<memory>"), bytes)
    }

    /// The same as [`Egdb::open`]: reads the file into anonymous memory (huge pages where
    /// the system offers them) and checks it completely. (It once copied a memory map of the
    /// file; `open` no longer maps, so both give the same database for the same memory.)
    ///
    /// # Errors
    /// As [`Egdb::open`].
    pub fn load(path: &Path) -> Result<Egdb, EgdbError> {
        Egdb::open(path)
    }

    /// [`Egdb::open`], then refuses a database that does not serve `rules`.
    ///
    /// # Errors
    /// Those of [`Egdb::open`] and [`EgdbError::RulesMismatch`].
    pub fn open_for(path: &Path, rules: &KalahRules) -> Result<Egdb, EgdbError> {
        let db = Egdb::open(path)?;
        if db.serves(rules) {
            Ok(db)
        } else {
            Err(EgdbError::RulesMismatch {
                database: db.description(),
                wanted: rules.to_string(),
            })
        }
    }

    /// Checks every entry against what its seed count allows: `|v| ≤ k`, and `v ≡ k (mod 2)`
    /// unless `discard_remaining` (search docs); a finished position may hold 0 whatever k.
    /// Returns the number of entries checked. Opening or loading a file already does this.
    ///
    /// # Errors
    /// [`EgdbError::BadEntry`] for the first bad entry.
    pub fn check_entries(&self) -> Result<u64, EgdbError> {
        #[cfg(test)]
        tests::ENTRY_PASSES.with(|c| c.set(c.get() + 1));
        match &self.codec {
            None => check_entries(self.houses, self.max_seeds, self.options, self.data.bytes()),
            Some(codec) => {
                let m = usize::from(self.houses);
                packed::check_codes(codec, self.houses, self.options, self.data.bytes(), |k| {
                    layer_start(m, k)
                })?;
                Ok(self.entries)
            }
        }
    }

    /// The database of the header `info` holding `data` (the payload read from its file,
    /// followed by the padding of a packed one), once every entry is checked.
    fn checked(info: EgdbInfo, data: FrozenBytes) -> Result<Egdb, EgdbError> {
        let encoding = info.encoding();
        let db = Egdb {
            houses: info.houses,
            max_seeds: info.max_seeds,
            options: info.options,
            rules: info.rules,
            entries: info.entries,
            codec: (encoding == Encoding::Packed).then(|| Codec::new(info.max_seeds, info.options)),
            data,
        };
        db.check_entries()?;
        Ok(db)
    }
}

/// Bytes a rayon task checks or checksums at a time.
const CHECK_PIECE: usize = 1 << 22;

/// The CRC-32 (IEEE) of `bytes`, the same as `crc32fast::hash`, computed in pieces on the
/// rayon threads and combined.
fn parallel_crc32(bytes: &[u8]) -> u32 {
    // `collect` keeps the pieces in order (CRC combination is not commutative).
    let pieces: Vec<crc32fast::Hasher> = bytes
        .par_chunks(CHECK_PIECE)
        .map(|piece| {
            let mut h = crc32fast::Hasher::new();
            h.update(piece);
            h
        })
        .collect();
    combine_crc32(&pieces)
}

/// The CRC-32 of consecutive pieces, from the hashers of the pieces in order.
fn combine_crc32(pieces: &[crc32fast::Hasher]) -> u32 {
    let mut all = crc32fast::Hasher::new();
    for h in pieces {
        all.combine(h);
    }
    all.finalize()
}

/// Fills `buf` from the bytes of `f` at `offset` (a positioned read: no shared file
/// position, so pieces can be read on several threads at once). `UnexpectedEof` when the
/// file ends first.
fn read_exact_at(f: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(f, buf, offset)
    }
    #[cfg(windows)]
    {
        let mut done = 0;
        while done < buf.len() {
            match std::os::windows::fs::FileExt::seek_read(
                f,
                &mut buf[done..],
                offset + done as u64,
            ) {
                Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// Reads and checks the header of the open database file `f` of `len` bytes: the header and
/// its bytes (the payload starts right after them).
fn read_header(path: &Path, f: &File, len: u64) -> Result<(EgdbInfo, Vec<u8>), EgdbError> {
    let mut head = vec![0u8; (FIXED_HEADER as u64 + MAX_RULES_LEN as u64 + 4).min(len) as usize];
    read_exact_at(f, &mut head, 0).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            EgdbError::Changed(path.to_path_buf())
        } else {
            EgdbError::Io {
                path: path.to_path_buf(),
                source: e,
            }
        }
    })?;
    let (info, payload_at) = parse_header(path, &head, len)?;
    head.truncate(payload_at);
    Ok((info, head))
}

/// [`Egdb::check_entries`] on the entries `data` of a database of m = `houses`, K =
/// `max_seeds` (`data` must have C(K+2m, 2m) entries).
fn check_entries(
    houses: u8,
    max_seeds: u32,
    options: KalahOptions,
    data: &[u8],
) -> Result<u64, EgdbError> {
    let m = houses as usize;
    let parity = !options.has(KalahOption::DiscardRemaining);
    for k in 0..=max_seeds {
        let start = layer_start(m, k) as usize;
        let end = layer_start(m, k + 1) as usize;
        let ki = k as i32;
        // The entry bytes allowed in layer k, as a table: one look-up per entry.
        let mut allowed = [false; 256];
        for (e, ok) in allowed.iter_mut().enumerate() {
            let v = decode(e as u8);
            *ok = v.abs() <= ki && !(parity && (v - ki) % 2 != 0);
        }
        let layer = &data[start..end];
        // Pieces of a layer on the rayon threads (a K = 26 layer holds up to 10^9 entries).
        if layer
            .par_chunks(CHECK_PIECE)
            .all(|piece| piece.iter().all(|&e| allowed[usize::from(e)]))
        {
            continue;
        }
        // Slow path for this layer: 0 is also allowed in a finished position.
        for (i, &e) in layer.iter().enumerate() {
            let v = decode(e);
            let ok =
                allowed[usize::from(e)] || (v == 0 && is_terminal_rank(m, options, k, i as u64));
            if !ok {
                return Err(EgdbError::BadEntry {
                    rank: (start + i) as u64,
                    seeds: k,
                    value: v,
                });
            }
        }
    }
    Ok(data.len() as u64)
}

/// Whether the position of rank `r` within layer k has no move (a finished game).
pub(crate) fn is_terminal_rank(m: usize, options: KalahOptions, k: u32, r: u64) -> bool {
    let mut parts = [0u8; 16];
    crate::rank::unrank_layer(m, k, r, &mut parts[..2 * m]);
    let own: u32 = parts[..m].iter().map(|&c| u32::from(c)).sum();
    let opp: u32 = parts[m..2 * m].iter().map(|&c| u32::from(c)).sum();
    if options.has(KalahOption::EndWhenNoMove) {
        own == 0
    } else {
        own == 0 || opp == 0
    }
}

fn check_size(m: u8, max_seeds: u32) -> Result<u64, EgdbError> {
    if max_seeds > MAX_DB_SEEDS {
        return Err(EgdbError::Unsupported {
            houses: m,
            max_seeds,
            why: "K must be at most 127 (values are stored in a signed byte)",
        });
    }
    match rank_space(m as usize, max_seeds) {
        Some(n) if n <= MAX_ENTRIES => Ok(n),
        _ => Err(EgdbError::Unsupported {
            houses: m,
            max_seeds,
            why: "more than 2^36 entries",
        }),
    }
}

/// [`Egdb::from_bytes`], naming `path` in errors: the header, the payload checksum, then
/// every entry against its seed count ([`Egdb::check_entries`]).
fn check_bytes(path: &Path, bytes: &[u8]) -> Result<Egdb, EgdbError> {
    let (info, payload_at) = parse_header(path, bytes, bytes.len() as u64)?;
    let payload = &bytes[payload_at..];
    let computed = parallel_crc32(payload);
    if computed != info.payload_crc {
        return Err(EgdbError::Checksum {
            stored: info.payload_crc,
            computed,
        });
    }
    let memory =
        usize::try_from(info.memory_bytes).map_err(|_| crate::OutOfMemory { bytes: usize::MAX })?;
    // A copy of the payload followed by the padding (zero) of a packed one.
    let (data, _) = FrozenBytes::filled_in_pieces(memory, CHECK_PIECE, |offset, piece| {
        let in_file = payload.len().saturating_sub(offset).min(piece.len());
        piece[..in_file].copy_from_slice(&payload[offset..offset + in_file]);
        Ok::<(), EgdbError>(())
    })?;
    // A file whose checksums are right can still have been written wrong (or crafted): a
    // value no position of its seed count can have is refused rather than served.
    Egdb::checked(info, data)
}

/// Opens `path` for reading only if it is a regular file: a FIFO would block the open, a
/// device could stream without end, and a directory gives an unhelpful system error.
fn open_regular(path: &Path) -> std::io::Result<File> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "it is a folder, not a file",
        ));
    }
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    File::open(path)
}

fn parse_header(path: &Path, bytes: &[u8], file_len: u64) -> Result<(EgdbInfo, usize), EgdbError> {
    let truncated = |expected: u64| EgdbError::Truncated {
        expected,
        found: file_len,
    };
    if bytes.len() < 8 {
        return Err(if bytes == &MAGIC[..bytes.len()] {
            truncated(FIXED_HEADER as u64 + 4)
        } else {
            EgdbError::BadMagic(path.to_path_buf())
        });
    }
    if bytes[..8] != MAGIC {
        return Err(EgdbError::BadMagic(path.to_path_buf()));
    }
    if bytes.len() < FIXED_HEADER {
        return Err(truncated(FIXED_HEADER as u64 + 4));
    }
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        return Err(EgdbError::Version {
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    let houses = bytes[12];
    let max_seeds = u32::from(bytes[13]);
    let option_bits = bytes[14];
    let encoding = bytes[15];
    let entries = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let payload_crc = u32_at(24);
    let rules_len = u32_at(28) as usize;
    if rules_len > MAX_RULES_LEN {
        return Err(EgdbError::Header(format!(
            "rule-set string of {rules_len} bytes"
        )));
    }
    let payload_at = FIXED_HEADER + rules_len + 4;
    if bytes.len() < payload_at {
        return Err(truncated(payload_at as u64));
    }
    let stored_hcrc = u32_at(FIXED_HEADER + rules_len);
    if crc32fast::hash(&bytes[..FIXED_HEADER + rules_len]) != stored_hcrc {
        return Err(EgdbError::Header("header checksum mismatch".into()));
    }
    let rules_text = std::str::from_utf8(&bytes[FIXED_HEADER..FIXED_HEADER + rules_len])
        .map_err(|_| EgdbError::Header("rule set is not UTF-8".into()))?;
    let rules: KalahRules = rules_text
        .parse()
        .map_err(|e| EgdbError::Header(format!("rule set {rules_text:?}: {e}")))?;
    let options = KalahOptions::from_bits(option_bits)
        .ok_or_else(|| EgdbError::Header(format!("unknown option bits {option_bits:#x}")))?;
    if rules.houses() != houses || relevant_options(rules.options()) != options {
        return Err(EgdbError::Header(format!(
            "fields m = {houses}, options {option_bits:#x} disagree with the rule set {rules_text:?}"
        )));
    }
    let Some(kind) = Encoding::from_code(encoding) else {
        return Err(EgdbError::Header(format!(
            "unknown entry encoding {encoding}"
        )));
    };
    let expected_entries = check_size(houses, max_seeds)?;
    if entries != expected_entries {
        return Err(EgdbError::Header(format!(
            "{entries} entries where m = {houses}, K = {max_seeds} has {expected_entries}"
        )));
    }
    let (bits_per_entry, payload_bytes, memory_bytes) = match kind {
        Encoding::Byte => (BITS_PER_ENTRY, entries, entries),
        Encoding::Packed => {
            let codec = Codec::new(max_seeds, options);
            let p = codec.payload_bytes(entries);
            (codec.width(), p, p + PAD as u64)
        }
    };
    let expected_len = payload_at as u64 + payload_bytes;
    if file_len < expected_len {
        return Err(truncated(expected_len));
    }
    if file_len > expected_len {
        return Err(EgdbError::Header(format!(
            "{} bytes after the last entry",
            file_len - expected_len
        )));
    }
    Ok((
        EgdbInfo {
            version,
            rules: rules_text.to_string(),
            houses,
            max_seeds,
            options,
            encoding,
            bits_per_entry,
            entries,
            payload_bytes,
            memory_bytes,
            file_bytes: file_len,
            payload_crc,
        },
        payload_at,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::Side;

    thread_local! {
        /// Passes over a database's entries ([`Egdb::check_entries`]) started on this thread.
        pub(super) static ENTRY_PASSES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// Opening a file (what `mancala egdb verify` and `mancala_egdb_verify` do, once) reads
    /// it and passes over its entries exactly once, in either encoding; the entries a pass
    /// checks are C(K+2m, 2m).
    #[test]
    fn opening_checks_the_entries_once() {
        let rules: KalahRules = "kalah(2,1)".parse().unwrap();
        for encoding in Encoding::ALL {
            let db = Egdb::build_as(&rules, 5, encoding, None).unwrap();
            let path = std::env::temp_dir().join(format!(
                "mancala-egdb-once-{}-{encoding}.egdb",
                std::process::id()
            ));
            db.save(&path).unwrap();
            let before = ENTRY_PASSES.with(std::cell::Cell::get);
            let opened = Egdb::open(&path).unwrap();
            let passes = ENTRY_PASSES.with(std::cell::Cell::get) - before;
            std::fs::remove_file(&path).unwrap();
            assert_eq!(passes, 1, "{encoding}");
            // C(5 + 4, 4) = 126 positions of at most 5 seeds in 4 houses.
            assert_eq!(opened.len(), 126);
            assert_eq!(opened.encoding(), encoding);
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "12 MB of bytes: too slow under Miri")]
    fn piecewise_checksum_equals_the_one_pass_checksum() {
        // Sizes below, at and across the piece boundaries: the combined pieces must give
        // crc32fast's one-pass CRC of the same bytes.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let bytes: Vec<u8> = (0..3 * CHECK_PIECE + 17)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        for len in [
            0,
            1,
            CHECK_PIECE - 1,
            CHECK_PIECE,
            CHECK_PIECE + 1,
            bytes.len(),
        ] {
            assert_eq!(
                parallel_crc32(&bytes[..len]),
                crc32fast::hash(&bytes[..len]),
                "{len} bytes"
            );
        }
    }

    /// Small enough for Miri (run with `-Zmiri-disable-isolation` for the file): build, save,
    /// then every way of reading, and two values traced by hand.
    #[test]
    fn build_save_read_back_and_probe() {
        let rules: KalahRules = "kalah(2,1)".parse().unwrap();
        let db = Egdb::build(&rules, 3, None).unwrap();
        assert_eq!(db.len(), 35); // C(3 + 4, 4)
        assert_eq!(db.check_entries().unwrap(), 35);
        let path =
            std::env::temp_dir().join(format!("mancala-egdb-unit-{}.egdb", std::process::id()));
        db.save(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len(), 36 + "kalah(2,1)".len() + 35);
        let opened = Egdb::open(&path).unwrap();
        let loaded = Egdb::load(&path).unwrap();
        let memory = Egdb::from_bytes(&bytes).unwrap();
        std::fs::remove_file(&path).unwrap();
        for other in [&opened, &loaded, &memory] {
            assert_eq!(other.payload(), db.payload());
            assert_eq!(other.built_with(), "kalah(2,1)");
        }
        // S1 = 1, N2 = 1, South to move: South's only move ends in its empty S2 (no capture
        // opposite an empty house), North sows N2 into its store and its row is empty: the
        // game ends, South's seed goes to South's store. +1 − 1 = 0.
        let p = KalahPosition::new(rules, &[1, 0, 0, 0, 1, 0], Some(Side::South), false).unwrap();
        // S2 = 2, N1 = 1: South sows its store and N1, its row is empty: North banks 2.
        // +1 − 2 = −1.
        let q = KalahPosition::new(rules, &[0, 2, 0, 1, 0, 0], Some(Side::South), false).unwrap();
        for d in [&db, &opened, &loaded, &memory] {
            assert_eq!(d.value(&p), Some(0));
            assert_eq!(d.value(&q), Some(-1));
        }
    }
}
