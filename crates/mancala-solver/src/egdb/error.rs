//! [`EgdbError`]: every reason a database could not be built, saved, opened or used.

use std::path::PathBuf;

use mancala_core::GameKind;
use thiserror::Error;

/// Why a database could not be built, saved, opened or used. Every malformed file gives one
/// of these, never a panic and never a wrong value.
#[derive(Debug, Error)]
pub enum EgdbError {
    /// A file could not be read or written.
    #[error("{}: {source}", path_text(path))]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The file does not start with the magic `MNCLEGDB`.
    #[error("{}: not a mancala endgame database (bad magic)", path_text(.0))]
    BadMagic(PathBuf),
    /// A format version this library does not read.
    #[error("unsupported database format version {found} (this library reads {expected})")]
    Version {
        /// Version in the file.
        found: u32,
        /// [`FORMAT_VERSION`](super::FORMAT_VERSION).
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
    /// The file is longer than its header says: bytes follow the last entry (a file with
    /// something appended, or a header whose sizes were changed).
    #[error("database file too long: {expected} bytes expected, {found} found ({} after the last entry)", count(found - expected, "byte"))]
    TooLong {
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
    /// The file is a database of another game than the one it was opened as (an Awari
    /// database opened as a Kalah one, or the reverse): its header's rule set names
    /// `found`'s game.
    #[error("{}: a database of {} (rule set {}), not of {}", path_text(path), found.name(), mancala_core::Shortened(rules), expected.name())]
    WrongGame {
        /// The file.
        path: PathBuf,
        /// The game of the file's rule set.
        found: GameKind,
        /// The rule set in the file's header.
        rules: String,
        /// The game it was opened as.
        expected: GameKind,
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
    #[error(
        "a database of m = {houses}, K = {max_seeds} is not supported: {why} (the largest K for m = {houses} is {})",
        super::largest_max_seeds(*houses)
    )]
    Unsupported {
        /// m.
        houses: u8,
        /// K.
        max_seeds: u32,
        /// The limit broken.
        why: &'static str,
    },
    /// K above the seeds of the game the database is built for (2·m·n for Kalah(m,n)): the
    /// positions with more seeds cannot occur in it, and their entries would only take memory
    /// and time.
    #[error("K = {max_seeds} is more seeds than {rules} has: the largest K allowed is {largest}")]
    MoreSeedsThanTheGame {
        /// The rules asked for, in the rule-set notation.
        rules: String,
        /// K asked for.
        max_seeds: u32,
        /// The seeds of the game (2·m·n).
        total_seeds: u32,
        /// The largest K allowed: the game's seeds, or less where the format holds fewer
        /// for this m (at most 2^36 entries).
        largest: u32,
    },
    /// An entry outside the range its seed count allows (found when a file is opened or by
    /// [`Egdb::check_entries`](super::Egdb::check_entries)).
    #[error(
        "entry {rank} ({} in the houses) holds {value}, a value no board of that many seeds has under the database's rules (at most -{seeds}..={seeds})",
        count(u64::from(*seeds), "seed")
    )]
    BadEntry {
        /// Rank of the entry.
        rank: u64,
        /// Seeds in its houses.
        seeds: u32,
        /// The value stored.
        value: i32,
    },
    /// A packed payload whose unused bits, after the last entry in its last byte, are not
    /// all 0 as the format requires (so that a database has one file): the file is damaged.
    #[error("the {} after the last entry of the packed payload {} not 0 (found {found:#x}): the file is corrupt", count(u64::from(*bits), "unused bit"), if *bits == 1 { "is" } else { "are" })]
    Padding {
        /// The unused bits at the end of the last byte.
        bits: u32,
        /// Their value (the last byte shifted right past the last entry).
        found: u8,
    },
    /// The file changed (was truncated, grew, or was overwritten) while it was being read:
    /// nothing read from it is used. Reading it again once it is whole may succeed.
    #[error("{}: the file changed while it was being read (truncated, overwritten or replaced)", path_text(.0))]
    Changed(PathBuf),
    /// The memory for the entries could not be had (building, loading, or copying a file's
    /// entries). Nothing was half-built; a smaller K may fit.
    #[error("the database does not fit in memory: {0}")]
    OutOfMemory(#[from] crate::OutOfMemory),
    /// The progress callback of a build
    /// ([`BuildOptions::progress`](super::BuildOptions::progress)) asked to stop; nothing
    /// was kept.
    #[error("the database build was cancelled")]
    Cancelled,
    /// The build threads ([`BuildOptions::threads`](super::BuildOptions::threads)) or the
    /// helper thread of the progress reports could not be started, or more than
    /// [`MAX_THREADS`](crate::MAX_THREADS) were asked for.
    #[error("cannot start the build threads: {0}")]
    Threads(String),
    /// [`Egdb::find_in`](super::Egdb::find_in) found no file in the folder that serves the rules and loads.
    #[error(
        "no endgame database for {rules} in {}{}",
        path_text(dir),
        skipped_text(skipped)
    )]
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
        .map(|(p, why)| format!("; skipped {}: {why}", path_text(p)))
        .collect()
}

/// `path` as an error message shows it: `(an empty path)` for the empty one, which would
/// otherwise leave the message starting with a bare `: `; a long one cut
/// ([`mancala_core::ShortenedPath`]).
fn path_text(path: &std::path::Path) -> String {
    if path.as_os_str().is_empty() {
        "(an empty path)".to_owned()
    } else {
        mancala_core::ShortenedPath(path).to_string()
    }
}

/// `n` of `unit`: `1 seed`, `2 seeds`, `1 byte`, `3 bytes`.
fn count(n: u64, unit: &str) -> String {
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

impl EgdbError {
    /// The error's message naming `file` (the database file it concerns): the message as it
    /// is when it names the file already, else `file: message`. For the reasons that name no
    /// file ([`EgdbError::Truncated`], [`EgdbError::Checksum`], …) when the caller knows it.
    #[must_use]
    pub fn in_file(&self, file: &std::path::Path) -> String {
        let msg = self.to_string();
        let shown = path_text(file);
        if msg.contains(&shown) {
            msg
        } else {
            format!("{shown}: {msg}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::EgdbError;
    use std::path::Path;

    #[test]
    fn in_file_names_the_file_once() {
        let file = Path::new("dbs/kalah6.k20.egdb");
        let short = EgdbError::Truncated {
            expected: 10,
            found: 4,
        };
        assert_eq!(short.in_file(file), format!("dbs/kalah6.k20.egdb: {short}"));
        let magic = EgdbError::BadMagic(file.to_path_buf());
        assert_eq!(magic.in_file(file), magic.to_string());
        assert_eq!(magic.in_file(file).matches("kalah6.k20").count(), 1);
    }

    #[test]
    fn an_empty_path_is_said_in_words() {
        let e = EgdbError::Io {
            path: Path::new("").to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "no file name"),
        };
        assert_eq!(e.to_string(), "(an empty path): no file name");
    }

    /// A path of a megabyte (from Python or C, where no argument limit applies) gives a
    /// one-line message: its start, its end and its length, in every message that names it.
    #[test]
    fn a_long_path_is_cut_in_messages() {
        let long = format!("/data/{}/awari.n18.egdb", "x".repeat(1 << 20));
        let path = Path::new(&long);
        let cut = format!(
            "/data/{}…{}/awari.n18.egdb ({} characters)",
            "x".repeat(24),
            "x".repeat(14),
            long.len()
        );
        let io = EgdbError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::from_raw_os_error(36),
        };
        for e in [
            io,
            EgdbError::BadMagic(path.to_path_buf()),
            EgdbError::Changed(path.to_path_buf()),
        ] {
            let text = e.to_string();
            assert!(text.starts_with(&format!("{cut}: ")), "{text}");
            assert!(text.len() < 200, "{text}");
        }
        let short = EgdbError::Checksum {
            stored: 1,
            computed: 2,
        };
        assert!(short.in_file(path).starts_with(&format!("{cut}: ")));
    }

    #[test]
    fn too_long_counts_the_extra_bytes() {
        let one = EgdbError::TooLong {
            expected: 100,
            found: 101,
        };
        assert!(one.to_string().ends_with("(1 byte after the last entry)"));
        let three = EgdbError::TooLong {
            expected: 100,
            found: 103,
        };
        assert!(three
            .to_string()
            .ends_with("(3 bytes after the last entry)"));
    }
}
