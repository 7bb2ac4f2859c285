//! Database discovery, for every game's database ([`Database`]): the database serving a
//! rule set in a folder, chosen by what the file headers say, never by the file names
//! ([`find_in`]), largest K first, a damaged file passed over and named.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use mancala_core::kalah::KalahRules;

use super::{Database, DatabaseInfo, Egdb, EgdbError};

/// What [`scan_folder`] found in a folder: the database files that serve the rules,
/// largest K first, and every other `*.egdb` file with the reason it was passed over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FolderScan {
    /// The files whose headers serve the rules, with their K, in the order they are tried:
    /// largest K first; for equal K, by the encoding their headers name, the fastest to open
    /// and look up in first ([`Encoding::code`](super::Encoding::code) order: byte, then
    /// packed, then compact); for equal K and encoding, the first path in byte order.
    pub candidates: Vec<(u32, PathBuf)>,
    /// The other `*.egdb` files and why each is not used (the reason without the file's
    /// name: [`EgdbError::reason`]).
    pub skipped: Vec<(PathBuf, String)>,
}

/// The database [`find_in`] chose, with its file and the files passed over.
#[derive(Debug)]
pub struct Found<D = Egdb> {
    /// The loaded and completely checked database.
    pub database: D,
    /// Its file.
    pub path: PathBuf,
    /// Every `*.egdb` file of the folder passed over, with its reason, in the order they were
    /// met: first the files whose headers do not serve the rules (or do not read), in path
    /// order, then any candidate with a larger K that failed to load (damaged entries).
    pub skipped: Vec<(PathBuf, String)>,
}

/// [`Database::open`] of `path`, refused when it does not serve `rules`
/// ([`EgdbError::RulesMismatch`], naming what it serves); with `cancel`,
/// [`Database::open_cancellable`].
///
/// # Errors
/// Those of [`Database::open`], [`EgdbError::RulesMismatch`] and [`EgdbError::Cancelled`].
pub(crate) fn open_serving<D: Database>(
    path: &Path,
    rules: &D::Rules,
    cancel: Option<&AtomicBool>,
) -> Result<D, EgdbError> {
    let db = match cancel {
        Some(flag) => D::open_cancellable(path, flag)?,
        None => D::open(path)?,
    };
    match db.serves_rules(rules) {
        Ok(()) => Ok(db),
        Err(_) => Err(EgdbError::RulesMismatch {
            database: db.describe(),
            wanted: rules.to_string(),
        }),
    }
}

/// The `*.egdb` files of the folder `dir` (of any game), in path order.
///
/// # Errors
/// [`EgdbError::Io`] (naming `dir`) when the folder cannot be listed.
pub fn database_files(dir: &Path) -> Result<Vec<PathBuf>, EgdbError> {
    let entries = std::fs::read_dir(dir).map_err(|source| EgdbError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("egdb"))
        .collect();
    files.sort();
    Ok(files)
}

/// Reads the header of every `*.egdb` file in the folder `dir` as a database `D` (the
/// header is small: the entries are not read) and sorts the files by what the headers say,
/// never by their names: those that serve `rules` ([`Database::info_serves`]), largest K
/// first and, among the encodings of one K, byte, then packed, then compact (the order of
/// their lookup speed: one memory read, a few bit operations, a block of up to 128 boards
/// decoded; [`FolderScan::candidates`]), and the others with their reasons (a file of
/// another game, of other rules, or that does not read; K is N in the words of an Oware
/// database, [`Database::SEEDS_BOUND`]). A K = 10 file renamed `kalah6.k99.egdb` counts as
/// K = 10, a packed file renamed `awari.n12.egdb` as packed.
///
/// # Errors
/// [`EgdbError::Io`] (naming `dir`) when the folder cannot be listed.
pub fn scan_folder<D: Database>(dir: &Path, rules: &D::Rules) -> Result<FolderScan, EgdbError> {
    let mut scan = FolderScan::default();
    // K, the encoding's code (byte 1, packed 2, compact 3) and the path of each candidate.
    let mut candidates: Vec<(u32, u8, PathBuf)> = Vec::new();
    for p in database_files(dir)? {
        match D::info(&p) {
            // A header that reads at all is checked as the game's (its rule set parses and
            // agrees with its fields).
            Ok(info) => match D::info_serves(&info, rules) {
                Ok(()) => candidates.push((info.max_seeds(), info.encoding().code(), p)),
                Err(_) => {
                    let why = format!(
                        "built for {} ({} = {}), which does not serve {rules}",
                        info.rules(),
                        D::SEEDS_BOUND,
                        info.max_seeds()
                    );
                    scan.skipped.push((p, why));
                }
            },
            Err(e) => {
                let why = e.reason();
                scan.skipped.push((p, why));
            }
        }
    }
    candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    scan.candidates = candidates.into_iter().map(|(k, _, p)| (k, p)).collect();
    Ok(scan)
}

/// Finds the database `D` serving `rules` with the largest K in the folder `path`, by what
/// the file headers say ([`scan_folder`]), and loads it ([`Database::open`]: every checksum
/// and entry checked). A candidate that fails to load (damaged entries) is passed over for
/// the next. Anything that is not a folder (a file, a FIFO, a device) is opened as one
/// database file, which must serve `rules` (its header is checked first), with nothing
/// skipped.
///
/// This is what `mancala solve --egdb`, `bestmove --egdb` and `play --egdb` do; it never
/// builds anything and never writes (see [`Cache`](super::Cache) for a folder that is
/// filled on demand, and [`choose`](super::choose::choose) for the whole policy).
///
/// # Errors
/// For a folder: [`EgdbError::Io`] when it cannot be listed, [`EgdbError::NotFound`]
/// (with every file passed over and its reason) when no file serves `rules` and loads.
/// For a file: every error of [`Database::open`], and [`EgdbError::RulesMismatch`] when it
/// does not serve `rules`.
pub fn find_in<D: Database>(path: &Path, rules: &D::Rules) -> Result<Found<D>, EgdbError> {
    match find_holding::<D>(path, rules, 0, None) {
        Ok(found) => Ok(found),
        Err(Refusal::Error(e)) => Err(e),
        Err(Refusal::TooFewSeeds { .. }) => unreachable!("no K is below 0 seeds"),
    }
}

/// Why [`find_holding`] found nothing.
pub(crate) enum Refusal {
    /// The path's error (for a folder, [`EgdbError::NotFound`] with every file passed over).
    Error(EgdbError),
    /// The largest usable database, `file`, holds positions of at most `max_seeds` seeds,
    /// fewer than asked; `skipped`: the files passed over before it.
    TooFewSeeds {
        file: PathBuf,
        max_seeds: u32,
        skipped: Vec<(PathBuf, String)>,
    },
}

/// [`find_in`] for positions of up to `seeds` seeds in the houses: the largest usable K is
/// compared with `seeds` before its entries are read (no later candidate holds more). Given
/// up ([`EgdbError::Cancelled`]) once `cancel` is set.
pub(crate) fn find_holding<D: Database>(
    path: &Path,
    rules: &D::Rules,
    seeds: u32,
    cancel: Option<&AtomicBool>,
) -> Result<Found<D>, Refusal> {
    let folder = path.is_dir();
    let (candidates, mut skipped) = if folder {
        let scan = scan_folder::<D>(path, rules).map_err(Refusal::Error)?;
        (scan.candidates, scan.skipped)
    } else {
        // The header alone says whether the file can serve, before its entries are read.
        let info = D::info(path).map_err(Refusal::Error)?;
        if D::info_serves(&info, rules).is_err() {
            return Err(Refusal::Error(EgdbError::RulesMismatch {
                database: info.describe(),
                wanted: rules.to_string(),
            }));
        }
        (vec![(info.max_seeds(), path.to_path_buf())], Vec::new())
    };
    for (max_seeds, file) in candidates {
        if seeds > max_seeds {
            return Err(Refusal::TooFewSeeds {
                file,
                max_seeds,
                skipped,
            });
        }
        match open_serving::<D>(&file, rules, cancel) {
            Ok(database) => {
                return Ok(Found {
                    database,
                    path: file,
                    skipped,
                })
            }
            Err(e @ EgdbError::Cancelled) => return Err(Refusal::Error(e)),
            Err(e) if !folder => return Err(Refusal::Error(e)),
            Err(e) => {
                let why = e.reason();
                skipped.push((file, why));
            }
        }
    }
    Err(Refusal::Error(EgdbError::NotFound {
        dir: path.to_path_buf(),
        rules: rules.to_string(),
        skipped,
    }))
}

impl Egdb {
    /// [`scan_folder`] for Kalah databases.
    ///
    /// # Errors
    /// As [`scan_folder`].
    pub fn scan_folder(dir: &Path, rules: &KalahRules) -> Result<FolderScan, EgdbError> {
        scan_folder::<Egdb>(dir, rules)
    }

    /// [`find_in`] for Kalah databases: the database serving `rules` with the largest K in
    /// the folder `path`, or the file `path`.
    ///
    /// # Errors
    /// As [`find_in`].
    pub fn find_in(path: &Path, rules: &KalahRules) -> Result<Found, EgdbError> {
        find_in::<Egdb>(path, rules)
    }
}

/// The one-line message of an error of opening or finding a database at `path` (a file or
/// a folder, as `--egdb` takes it), as the commands say it after `--egdb: `: for a folder
/// without a database for the rules ([`EgdbError::NotFound`]), what was searched, the
/// `mancala egdb build` command that builds one and every file passed over with its
/// reason; else the error naming its file once ([`EgdbError::about`]). Never fails.
pub fn lookup_error(path: &Path, e: &EgdbError) -> String {
    match e {
        EgdbError::NotFound {
            dir,
            rules,
            skipped,
        } if oware_rules(rules).is_some() => not_found_text(dir, rules, skipped, true),
        EgdbError::NotFound {
            dir,
            rules,
            skipped,
        } => {
            // `bench` asks for several rule sets at once ("R1 or R2").
            let build = if rules.contains(" or ") {
                format!(
                    "`mancala egdb build --rules R --max-seeds K --out {}` builds one for the rule set R",
                    shell_word(dir)
                )
            } else {
                format!(
                    "`mancala egdb build --rules \"{rules}\" --max-seeds K --out {}` builds one",
                    shell_word(dir)
                )
            };
            let mut msg = format!(
                "no endgame database for {rules} in {} ({build}, K the most seeds in the houses)",
                mancala_core::ShortenedPath(dir)
            );
            for (p, why) in skipped {
                msg.push_str(&format!(
                    "; skipped {}: {why}",
                    mancala_core::ShortenedPath(p)
                ));
            }
            msg
        }
        e => e.about(path).to_string(),
    }
}

/// The Oware rules `rules` names, `None` for a rule set of another game or a text that is
/// not one rule set (`bench`'s "R1 or R2").
fn oware_rules(rules: &str) -> Option<mancala_core::oware::OwareRules> {
    rules
        .parse::<mancala_core::rules::Rules>()
        .ok()
        .and_then(mancala_core::rules::Rules::oware)
}

/// The message of [`EgdbError::NotFound`] (the folder `dir` holds no database of `rules`;
/// `skipped`: the files passed over, with their reasons), in the terms of the rules' game:
/// for Kalah `no endgame database for R in DIR`; for Oware `no Oware database for R in DIR:
/// looked for the Awari database, a file awari.n<N>.egdb (N the most seeds in the houses)`,
/// or, for a rule set no Oware database holds, why. `command`: with the `mancala egdb build`
/// command that builds one (what [`lookup_error`] adds; the error's `Display` has not it),
/// for the Oware databases (the Kalah form of [`lookup_error`] is its own).
pub(crate) fn not_found_text(
    dir: &Path,
    rules: &str,
    skipped: &[(PathBuf, String)],
    command: bool,
) -> String {
    let mut msg = match oware_rules(rules) {
        Some(oware) => missing::<crate::awari::AwariDb>(&oware, dir, command),
        None => format!("no endgame database for {rules} in {}", path_text(dir)),
    };
    for (p, why) in skipped {
        msg.push_str(&format!("; skipped {}: {why}", path_text(p)));
    }
    msg
}

/// The letter of the most seeds a database of `rules` holds, as its game's documentation
/// names it: `N` for an Oware rule set ([`Database::SEEDS_BOUND`] of the Awari databases),
/// else `K`.
pub(crate) fn seeds_bound(rules: &str) -> &'static str {
    match oware_rules(rules) {
        Some(_) => <crate::awari::AwariDb as Database>::SEEDS_BOUND,
        None => <Egdb as Database>::SEEDS_BOUND,
    }
}

/// What a folder lacks for `rules`, in the terms of their game: `Oware database` for an
/// Oware rule set, else `endgame database`.
pub(crate) fn database_term(rules: &str) -> String {
    match oware_rules(rules) {
        Some(_) => format!("{} database", mancala_core::GameKind::Oware.name()),
        None => "endgame database".to_owned(),
    }
}

/// [`not_found_text`] for the database type `D` of `rules` (but the files passed over).
fn missing<D: Database>(rules: &D::Rules, dir: &Path, command: bool) -> String {
    let game = D::GAME.name();
    let mut msg = format!("no {game} database for {rules} in {}", path_text(dir));
    match D::entries(rules, 0) {
        Err(EgdbError::Unserved(refused)) => {
            msg.push_str(&format!(
                ": no {game} database holds the values of {}, which has {}",
                refused.rules,
                refused.differences.join(", ")
            ));
        }
        _ => {
            // The name `egdb build` gives the file, the number of seeds left open.
            let bound = D::SEEDS_BOUND;
            let name = D::file_name(rules, 0, super::Encoding::Byte).replacen(
                ".n0.",
                &format!(".n<{bound}>."),
                1,
            );
            let build = if command {
                format!(
                    "; `mancala egdb build --rules {rules} --max-seeds {bound} --out {}` builds one",
                    shell_word(dir)
                )
            } else {
                String::new()
            };
            msg.push_str(&format!(
                ": looked for {}, a file {name} ({bound} the most seeds in the houses{build})",
                D::a_kind_of(rules)
            ));
        }
    }
    msg
}

/// `path` as an error message shows it: `(an empty path)` for the empty one, which would
/// otherwise leave the message starting with a bare `: `; a long one cut
/// ([`mancala_core::ShortenedPath`]).
pub(crate) fn path_text(path: &Path) -> String {
    if path.as_os_str().is_empty() {
        "(an empty path)".to_owned()
    } else {
        mancala_core::ShortenedPath(path).to_string()
    }
}

/// `path` as one word of a POSIX shell command, for a command a message suggests, so that it
/// can be pasted: as it is when it holds only letters, digits and `/._-+,:=@%`, else in
/// single quotes (a single quote in it written `'\''`); a path beginning with `-` gets `./`
/// first, so that the command does not take it for an option.
///
/// ```
/// use mancala_solver::egdb::shell_word;
/// use std::path::Path;
/// // As `sh -c 'printf %s WORD'` prints each back (inside single quotes every character
/// // stands for itself; `'\''` ends the quotes, gives a quote and opens them again).
/// assert_eq!(shell_word(Path::new("egdb/kalah6.k20.egdb")), "egdb/kalah6.k20.egdb");
/// assert_eq!(shell_word(Path::new("/tmp/a b/k 18.egdb")), "'/tmp/a b/k 18.egdb'");
/// assert_eq!(shell_word(Path::new("it's.egdb")), "'it'\\''s.egdb'");
/// assert_eq!(shell_word(Path::new("-x.egdb")), "./-x.egdb");
/// assert_eq!(shell_word(Path::new("-a b")), "'./-a b'");
/// assert_eq!(shell_word(Path::new("$HOME;rm")), "'$HOME;rm'");
/// assert_eq!(shell_word(Path::new("")), "''");
/// ```
pub fn shell_word(path: &Path) -> String {
    let mut p = path.display().to_string();
    if p.starts_with('-') {
        p.insert_str(0, "./");
    }
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:=@%".contains(c);
    if !p.is_empty() && p.chars().all(plain) {
        p
    } else {
        format!("'{}'", p.replace('\'', "'\\''"))
    }
}
