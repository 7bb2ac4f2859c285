//! [`EgdbError`]: every reason a database could not be built, saved, opened or used.

use std::fmt;
use std::path::{Path, PathBuf};

use mancala_core::words::{count, noun};
use mancala_core::GameKind;
use thiserror::Error;

/// Why a database could not be built, saved, opened or used. Every malformed file gives one
/// of these, never a panic and never a wrong value.
#[derive(Debug, Error)]
pub enum EgdbError {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The file does not start with the magic `MNCLEGDB`.
    BadMagic(PathBuf),
    /// A format version this library does not read.
    Version {
        /// Version in the file.
        found: u32,
        /// [`FORMAT_VERSION`](super::FORMAT_VERSION).
        expected: u32,
    },
    /// The file is shorter than its header says, or ends before the fields that say how long
    /// it is.
    Truncated {
        /// Bytes the header calls for; when `at_least`, only the least the file can take.
        expected: u64,
        /// Bytes in the file.
        found: u64,
        /// Whether the file ends before the fields that give its whole length (inside its
        /// header, or before the stream length a compact payload starts with), so that
        /// `expected` is a lower bound, not the file's length.
        at_least: bool,
    },
    /// The file is longer than its header says: bytes follow the last entry (a file with
    /// something appended, or a header whose sizes were changed).
    TooLong {
        /// Bytes the header calls for.
        expected: u64,
        /// Bytes in the file.
        found: u64,
    },
    /// A header field is inconsistent or unknown (the text says which).
    Header(String),
    /// The payload's checksum does not match: the entries are damaged.
    Checksum {
        /// CRC-32 in the header.
        stored: u32,
        /// CRC-32 of the payload read.
        computed: u32,
    },
    /// The file is a database of another game than the one it was opened as (an Awari
    /// database opened as a Kalah one, or the reverse): its header's rule set names
    /// `found`'s game.
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
    RulesMismatch {
        /// What the database serves.
        database: String,
        /// The rules asked for.
        wanted: String,
    },
    /// A save that is not told to overwrite
    /// ([`Database::save_checked`](super::Database::save_checked)) found a file at its path
    /// that holds another database, or no database: nothing was written. Says `PATH: already
    /// exists and holds another database (awari+grand_slam=none, levels 0..=12, byte
    /// encoding): not written over with awari, levels 0..=14, byte encoding; a save told to
    /// overwrite writes over it`.
    Occupied {
        /// The file.
        path: PathBuf,
        /// What it holds, as [`Occupant`](super::Occupant) says it: `holds another database
        /// (…)`, `cannot be told to hold that database (…)`.
        holds: String,
        /// The database the save was to write, in words (its
        /// [`Database::describe`](super::Database::describe) and encoding: `awari, levels
        /// 0..=14, byte encoding`).
        with: String,
    },
    /// No database holds the values of the rule set asked for (an Oware rule set whose
    /// majority, cycle or move-limit rule gives other values, such as `oware`): nothing can
    /// be built or found for it. Says `no database holds the values of oware, which has
    /// majority=stop, cycle_score=own_row`, the words of the `mancala` command
    /// ([`RulesMismatch::no_database`]).
    Unserved(RulesMismatch),
    /// K or the size is out of range.
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
    /// An entry its seed count does not allow (found when a file is opened or by
    /// [`Egdb::check_entries`](super::Egdb::check_entries)): outside −k..=k for k seeds,
    /// or, under rules where every seed ends in a store (all but `discard_remaining`), not of
    /// k's parity (0 of an odd k only where the game is over). The message names which.
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
    Padding {
        /// The unused bits at the end of the last byte.
        bits: u32,
        /// Their value (the last byte shifted right past the last entry).
        found: u8,
    },
    /// An entry encoding the database does not have (the compact encoding of a Kalah
    /// database).
    NoSuchEncoding {
        /// The encoding asked for.
        encoding: super::Encoding,
        /// The database asked of, for messages: `a Kalah database`.
        database: &'static str,
    },
    /// A compact payload whose tables, block index or code stream do not decode: a table
    /// that is no prefix code, an index entry that is not where its block's codes start, bits
    /// that are no code, codes past the stream's end (the file is damaged).
    BadBlock {
        /// The block (counted over every level from 0) where the damage was found.
        block: u64,
        /// What is wrong.
        why: String,
    },
    /// The file changed (was truncated, grew, or was overwritten) while it was being read:
    /// nothing read from it is used. Reading it again once it is whole may succeed.
    Changed(PathBuf),
    /// The memory for the entries could not be had (building, loading, or copying a file's
    /// entries). Nothing was half-built; a smaller K may fit.
    OutOfMemory(#[from] crate::OutOfMemory),
    /// The progress callback of a build
    /// ([`BuildOptions::progress`](super::BuildOptions::progress)) asked to stop, or the
    /// flag of a read that may be given up
    /// ([`Database::open_cancellable`](super::Database::open_cancellable)) was set; nothing
    /// was kept.
    Cancelled,
    /// The build threads ([`BuildOptions::threads`](super::BuildOptions::threads)) or the
    /// helper thread of the progress reports could not be started, or more than
    /// [`MAX_THREADS`](crate::MAX_THREADS) were asked for.
    Threads(String),
    /// The game has no database of exact values (Bao la Kete): nothing can be built for it,
    /// and a file of another game's database is [`EgdbError::WrongGame`].
    NoDatabase {
        /// The game.
        game: GameKind,
    },
    /// No file in the folder serves the rules and loads ([`find_in`](super::find_in),
    /// [`Egdb::find_in`](super::Egdb::find_in)).
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
        .map(|(p, why)| format!("; skipped {}: {why}", super::find::path_text(p)))
        .collect()
}

/// The message of [`EgdbError::BadEntry`]: a value outside −k..=k names that range; one
/// inside it can only be refused for its parity (the Awari databases have no parity rule and
/// refuse only values out of range), and the message names the rule, as docs/egdb.md states
/// it.
fn bad_entry(rank: u64, seeds: u32, value: i32) -> String {
    let holds = format!(
        "entry {rank} ({} in the houses) holds {value}",
        count(seeds, "seed", "seeds")
    );
    if value.unsigned_abs() > seeds {
        return format!(
            "{holds}, a value no board of that many seeds has under the database's rules (at most -{seeds}..={seeds})"
        );
    }
    let (parity, finished) = if seeds.is_multiple_of(2) {
        ("even", "")
    } else {
        ("odd", ", or 0 once the game is over")
    };
    let not_over = if value == 0 {
        " in a game not over"
    } else {
        ""
    };
    format!(
        "{holds}{not_over}, a value of the wrong parity: under the database's rules every seed ends in one of the two stores, so a board of {} has a value of {seeds}'s parity ({parity}{finished})",
        count(seeds, "seed", "seeds")
    )
}

impl EgdbError {
    /// The file (or, for [`EgdbError::NotFound`], the folder) the error is about, when it
    /// names one: the path as data, never parsed out of the message.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        match self {
            EgdbError::Io { path, .. }
            | EgdbError::BadMagic(path)
            | EgdbError::WrongGame { path, .. }
            | EgdbError::Changed(path)
            | EgdbError::Occupied { path, .. } => Some(path),
            EgdbError::NotFound { dir, .. } => Some(dir),
            _ => None,
        }
    }

    /// What is wrong, without the path [`EgdbError::path`] in front: the message as a list
    /// of files passed over shows it after the file's name (`skipped FILE: REASON`). The
    /// error's own message ([`Display`](fmt::Display)) is `PATH: REASON` for an error about
    /// a file, and the reason alone for the others.
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            EgdbError::Io { source, .. } => source.to_string(),
            EgdbError::BadMagic(_) => "not a mancala endgame database (bad magic)".into(),
            EgdbError::Version { found, expected } => format!(
                "unsupported database format version {found} (this library reads {expected})"
            ),
            EgdbError::Truncated {
                expected,
                found,
                at_least,
            } => {
                let least = if *at_least { "at least " } else { "" };
                format!("database file truncated: {least}{expected} bytes expected, {found} found")
            }
            EgdbError::TooLong { expected, found } => format!(
                "database file too long: {expected} bytes expected, {found} found ({} after the last entry)",
                count(found - expected, "byte", "bytes")
            ),
            EgdbError::Header(why) => format!("corrupt database header: {why}"),
            EgdbError::Checksum { stored, computed } => format!(
                "database checksum mismatch (stored {stored:08x}, computed {computed:08x}): the file is corrupt"
            ),
            EgdbError::WrongGame {
                found,
                rules,
                expected,
                ..
            } => format!(
                "a database of {} (rule set {rules}), not of {}",
                found.name(),
                expected.name()
            ),
            EgdbError::RulesMismatch { database, wanted } => {
                format!("the database is for {database}, not for {wanted}")
            }
            EgdbError::Unserved(refused) => refused.no_database(),
            EgdbError::Occupied { holds, with, .. } => format!(
                "already exists and {holds}: not written over with {with}; a save told to overwrite writes over it"
            ),
            EgdbError::Unsupported {
                houses,
                max_seeds,
                why,
            } => format!(
                "a database of m = {houses}, K = {max_seeds} is not supported: {why} (the largest K for m = {houses} is {})",
                super::largest_max_seeds(*houses)
            ),
            EgdbError::MoreSeedsThanTheGame {
                rules,
                max_seeds,
                largest,
                ..
            } => {
                // The Oware databases' bound is N (docs/awari.md), Kalah's K.
                let bound = super::find::seeds_bound(rules);
                format!(
                    "{bound} = {max_seeds} is more seeds than {rules} has: the largest {bound} allowed is {largest}"
                )
            }
            EgdbError::BadEntry { rank, seeds, value } => bad_entry(*rank, *seeds, *value),
            EgdbError::Padding { bits, found } => format!(
                "the {} after the last entry of the packed payload {} not 0 (found {found:#x}): the file is corrupt",
                count(*bits, "unused bit", "unused bits"),
                noun(*bits, "is", "are")
            ),
            EgdbError::NoSuchEncoding { encoding, database } => format!(
                "{database} has no {encoding} encoding (byte or packed; compact is for the Oware databases)"
            ),
            EgdbError::BadBlock { block, why } => format!(
                "block {block} of the compact payload does not decode ({why}): the file is corrupt"
            ),
            EgdbError::Changed(_) => {
                "the file changed while it was being read (truncated, overwritten or replaced)"
                    .into()
            }
            EgdbError::OutOfMemory(e) => format!("the database does not fit in memory: {e}"),
            EgdbError::Cancelled => "the database build or read was cancelled".into(),
            EgdbError::Threads(why) => format!("cannot start the build threads: {why}"),
            EgdbError::NoDatabase { game } => {
                format!("{} has no database of exact values", game.name())
            }
            EgdbError::NotFound { rules, skipped, .. } => format!(
                "no {} for {rules}{}",
                super::find::database_term(rules),
                skipped_text(skipped)
            ),
        }
    }

    /// The error as a message about the database file `file`, which the caller knows: the
    /// error's own message when it names a file of its own, else `file: REASON`. Built from
    /// the path the error carries ([`EgdbError::path`]), not from its text.
    #[must_use]
    pub fn about<'a>(&'a self, file: &'a Path) -> About<'a> {
        About { error: self, file }
    }
}

impl fmt::Display for EgdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The folder searched is named after what was not found in it.
            // In the terms of the rules' game (Oware: its databases and N).
            EgdbError::NotFound {
                dir,
                rules,
                skipped,
            } => f.write_str(&super::find::not_found_text(dir, rules, skipped, false)),
            e => match e.path() {
                Some(p) => write!(f, "{}: {}", super::find::path_text(p), e.reason()),
                None => f.write_str(&e.reason()),
            },
        }
    }
}

/// An [`EgdbError`] as a message about a database file the caller names
/// ([`EgdbError::about`]): `FILE: REASON` for an error that names no file of its own (a
/// truncated file, a checksum), the error's own message otherwise.
#[derive(Clone, Copy, Debug)]
pub struct About<'a> {
    error: &'a EgdbError,
    file: &'a Path,
}

impl fmt::Display for About<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error.path() {
            Some(_) => write!(f, "{}", self.error),
            None => write!(
                f,
                "{}: {}",
                super::find::path_text(self.file),
                self.error.reason()
            ),
        }
    }
}

/// Why a source of exact values (a database, the solver) does not hold the values of a rule
/// set: what it holds, and the rules of the rule set asked for that differ, as a rule-set
/// text spells them. The one refusal of every front end (the command line, C, Python).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{database} holds the values of {holds}, not of {rules}, which has {}", .differences.join(", "))]
pub struct RulesMismatch {
    /// The source, as a message names it: `an Awari database`, `the endgame database
    /// kalah(6,·), K = 20`.
    pub database: String,
    /// The rule sets whose values it holds, in words.
    pub holds: String,
    /// The rule set asked for, in the rule-set notation.
    pub rules: String,
    /// Its rules that differ from those the source holds (`majority=stop`, `5 houses a
    /// row`, `+empty_capture`), never empty.
    pub differences: Vec<String>,
}

impl RulesMismatch {
    /// The refusal of a rule set whose values no database holds, in the words the `mancala`
    /// command, the C library and the Python package all say it in: `no database holds the
    /// values of oware, which has majority=stop, cycle_score=own_row` (the rule set asked for,
    /// then the rules of it that differ).
    #[must_use]
    pub fn no_database(&self) -> String {
        format!(
            "no database holds the values of {}, which has {}",
            self.rules,
            self.differences.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::EgdbError;
    use std::path::Path;

    #[test]
    fn about_names_the_file_once() {
        let file = Path::new("dbs/kalah6.k20.egdb");
        let short = EgdbError::Truncated {
            expected: 10,
            found: 4,
            at_least: false,
        };
        assert_eq!(
            short.about(file).to_string(),
            "dbs/kalah6.k20.egdb: database file truncated: 10 bytes expected, 4 found"
        );
        let magic = EgdbError::BadMagic(file.to_path_buf());
        assert_eq!(magic.about(file).to_string(), magic.to_string());
        assert_eq!(
            magic.to_string(),
            "dbs/kalah6.k20.egdb: not a mancala endgame database (bad magic)"
        );
        assert_eq!(magic.reason(), "not a mancala endgame database (bad magic)");
        assert_eq!(magic.path(), Some(file));
    }

    /// An error about a file shows `PATH: REASON`; the folder of a search that found
    /// nothing is named after what was not found.
    #[test]
    fn the_path_is_data_and_the_reason_is_the_rest() {
        let file = Path::new("a/awari.n8.egdb");
        let wrong = EgdbError::WrongGame {
            path: file.to_path_buf(),
            found: mancala_core::GameKind::Kalah,
            rules: "standard".into(),
            expected: mancala_core::GameKind::Oware,
        };
        assert_eq!(
            wrong.to_string(),
            "a/awari.n8.egdb: a database of Kalah (rule set standard), not of Oware"
        );
        let none = EgdbError::NotFound {
            dir: Path::new("dbs").to_path_buf(),
            rules: "standard".into(),
            skipped: vec![(file.to_path_buf(), wrong.reason())],
        };
        assert_eq!(
            none.to_string(),
            "no endgame database for standard in dbs; skipped a/awari.n8.egdb: a database of Kalah (rule set standard), not of Oware"
        );
        assert_eq!(none.path(), Some(Path::new("dbs")));
        assert_eq!(EgdbError::Cancelled.path(), None);
    }

    #[test]
    fn an_empty_path_is_said_in_words() {
        let e = EgdbError::Io {
            path: Path::new("").to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "no file name"),
        };
        assert_eq!(e.to_string(), "(an empty path): no file name");
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
