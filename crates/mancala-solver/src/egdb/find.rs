//! Database discovery: the database serving a rule set in a folder, chosen by what the file
//! headers say, never by the file names ([`Egdb::find_in`]).

use std::path::{Path, PathBuf};

use mancala_core::kalah::KalahRules;

use super::{Egdb, EgdbError};

/// What [`Egdb::scan_folder`] found in a folder: the database files that serve the rules,
/// largest K first, and every other `*.egdb` file with the reason it was passed over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FolderScan {
    /// The files whose headers serve the rules, with their K, largest K first (for equal K,
    /// the first path in byte order).
    pub candidates: Vec<(u32, PathBuf)>,
    /// The other `*.egdb` files and why each is not used (the error's text without the
    /// file's name in front).
    pub skipped: Vec<(PathBuf, String)>,
}

/// The database [`Egdb::find_in`] chose, with its file and the files passed over.
#[derive(Debug)]
pub struct Found {
    /// The loaded and completely checked database.
    pub database: Egdb,
    /// Its file.
    pub path: PathBuf,
    /// Every `*.egdb` file of the folder passed over, with its reason, in the order they were
    /// met: first the files whose headers do not serve the rules (or do not read), in path
    /// order, then any candidate with a larger K that failed to load (damaged entries).
    pub skipped: Vec<(PathBuf, String)>,
}

/// The text of `e` without `path: ` in front (errors of [`EgdbError::Io`] and others name
/// their file; the lists of [`FolderScan`] already do).
fn reason(path: &Path, e: &EgdbError) -> String {
    let msg = e.to_string();
    let shown = format!("{}: ", mancala_core::ShortenedPath(path));
    msg.strip_prefix(&shown).map_or(msg.clone(), str::to_string)
}

impl Egdb {
    /// Reads the header of every `*.egdb` file in the folder `dir` (the header is small: the
    /// entries are not read) and sorts the files by what the headers say, never by their
    /// names: those that serve `rules` (same m and value-relevant options, [`Egdb::serves`]),
    /// largest K first, and the others with their reasons. A K = 10 file renamed
    /// `kalah6.k99.egdb` counts as K = 10.
    ///
    /// # Errors
    /// [`EgdbError::Io`] (naming `dir`) when the folder cannot be listed.
    pub fn scan_folder(dir: &Path, rules: &KalahRules) -> Result<FolderScan, EgdbError> {
        let entries = std::fs::read_dir(dir).map_err(|source| EgdbError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let mut scan = FolderScan::default();
        let mut files: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("egdb"))
            .collect();
        files.sort();
        for p in files {
            match Egdb::info(&p) {
                // A header that reads at all has a rule set that parses and agrees with its
                // m and options (`Egdb::info`).
                Ok(info) if info.serves(rules) => scan.candidates.push((info.max_seeds, p)),
                Ok(info) => {
                    let why = format!(
                        "built for {} (K = {}), which does not serve {rules}",
                        info.rules, info.max_seeds
                    );
                    scan.skipped.push((p, why));
                }
                Err(e) => {
                    let why = reason(&p, &e);
                    scan.skipped.push((p, why));
                }
            }
        }
        scan.candidates
            .sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        Ok(scan)
    }

    /// Finds the database serving `rules` with the largest K in the folder `path`, by what
    /// the file headers say ([`Egdb::scan_folder`]), and loads it ([`Egdb::open`]: every
    /// checksum and entry checked). A candidate that fails to load (damaged entries) is
    /// passed over for the next. Anything that is not a folder (a file, a FIFO, a device) is
    /// opened as one database file ([`Egdb::open_for`]), with nothing skipped.
    ///
    /// This is what `mancala solve --egdb`, `bestmove --egdb` and `play --egdb` do; the
    /// search never builds anything and never writes (see [`Cache`](super::cache::Cache)
    /// for a folder that is filled on demand).
    ///
    /// # Errors
    /// For a folder: [`EgdbError::Io`] when it cannot be listed, [`EgdbError::NotFound`]
    /// (with every file passed over and its reason) when no file serves `rules` and loads.
    /// For a file: every error of [`Egdb::open_for`].
    pub fn find_in(path: &Path, rules: &KalahRules) -> Result<Found, EgdbError> {
        if !path.is_dir() {
            let database = Egdb::open_for(path, rules)?;
            return Ok(Found {
                database,
                path: path.to_path_buf(),
                skipped: Vec::new(),
            });
        }
        let scan = Egdb::scan_folder(path, rules)?;
        let mut skipped = scan.skipped;
        for (_, file) in scan.candidates {
            match Egdb::open_for(&file, rules) {
                Ok(database) => {
                    return Ok(Found {
                        database,
                        path: file,
                        skipped,
                    })
                }
                Err(e) => {
                    let why = reason(&file, &e);
                    skipped.push((file, why));
                }
            }
        }
        Err(EgdbError::NotFound {
            dir: path.to_path_buf(),
            rules: rules.to_string(),
            skipped,
        })
    }
}
