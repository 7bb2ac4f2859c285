//! Saving database files, for `egdb`, the Awari commands and the cache alike: the folders a
//! save or a conversion writes into (made, and removed again when the work fails or is
//! interrupted), the
//! temporary files of a save removed on an interrupt or reported when an earlier save left
//! them, and sizes in the units a person reads.

use std::path::{Path, PathBuf};

use mancala_core::ShortenedPath;
use mancala_solver::egdb::{occupant, DatabaseInfo, EgdbError, Encoding, Occupant};
use mancala_solver::Egdb;

/// `bytes` in the unit a person reads (`215 MiB`, `6.4 GiB`), as the library's messages give sizes.
pub(crate) use mancala_solver::readable_bytes as human;

/// Ctrl-C, SIGTERM or SIGHUP from now on: remove this process's temporary file of a save of
/// `path` before the exit (`crate::interrupt`), naming each removed file on standard error.
/// Kalah and Awari files are saved by the same code, under the same temporary names.
pub(crate) fn remove_saves_on_interrupt(path: PathBuf) {
    crate::interrupt::on_interrupt(move || {
        for p in Egdb::remove_unfinished_saves(&path) {
            eprintln!("mancala: removed {}", p.display());
        }
    });
}

/// Names on standard error each temporary file of a killed save that a save removed
/// (`SaveReport::removed_stale`).
pub(crate) fn report_removed(stale: &[PathBuf]) {
    for s in stale {
        eprintln!(
            "mancala: removed {}: a temporary file left by an earlier save that was killed",
            s.display()
        );
    }
}

/// The folder `egdb convert` writes to (and the file, when `--out` named one), and the
/// folders it created for that (deepest first), removed again by [`OutFolder::undo`] when the
/// conversion fails.
pub(crate) struct OutFolder {
    /// The folder the converted file goes to.
    pub(crate) dir: PathBuf,
    /// `--out FILE.egdb` (a path ending in `.egdb` that is not a folder): the file itself.
    pub(crate) file: Option<PathBuf>,
    created: Vec<PathBuf>,
}

impl OutFolder {
    /// The converted file of `input`: `--out`'s file, else `name` in the folder.
    ///
    /// # Errors
    /// When that is `input` itself (a file named as the conversion names its output, in the
    /// folder it goes to): it is never written over.
    pub(crate) fn path(&self, name: &str, input: &std::path::Path) -> Result<PathBuf, String> {
        let path = self.file.clone().unwrap_or_else(|| self.dir.join(name));
        if same_file(&path, input) {
            return Err(self.undo(format!(
                "{}: the file being converted is where the converted file would go; give --out another folder or file",
                ShortenedPath(&path)
            )));
        }
        Ok(path)
    }

    /// Removes the folders this conversion created, when they are still empty (a failed
    /// conversion leaves the disk as it found it), and passes `e` on.
    pub(crate) fn undo(&self, e: String) -> String {
        remove_made(&self.created);
        e
    }
}

/// The checks of `egdb convert FILE` before the file is read: `needs` bytes (both
/// encodings at once) must fit the memory available; then the folder the new file goes
/// to, `out` or else the folder of `file`, created, and checked to take a file (a probe
/// with a fresh unpredictable name, created exclusively and removed), so that a folder
/// that cannot be written is refused as such before the file is read, never as a file in
/// the way that `--force` would write over.
///
/// # Errors
/// The memory needed and available, or the folder's error.
pub(crate) fn convert_folder(
    file: &std::path::Path,
    out: Option<&std::path::Path>,
    needs: u64,
) -> Result<OutFolder, String> {
    if let Some(avail) = mancala_solver::available_memory() {
        if needs > avail.bytes {
            return Err(format!(
                "{}: converting needs both encodings in memory, {needs} bytes ({}), more than the {avail}",
                ShortenedPath(file),
                human(needs)
            ));
        }
    }
    let (dir, out_file) = match out {
        Some(o) => out_target(o),
        None => (folder_of(file), None),
    };
    // The folder as the user named it: `--out`, or the folder of the file converted.
    let refused = |e: std::io::Error| {
        if let Some(given) = out {
            crate::paths::out_error(given, &dir, &e)
        } else {
            let why = crate::paths::folder_error(&dir, &e);
            format!(
                "{} (the folder of the file, where the converted file goes; --out names another): {why}",
                ShortenedPath(&dir)
            )
        }
    };
    let created = make_folders(&dir).map_err(refused)?;
    if let Err(e) = mancala_solver::egdb::probe_folder(&dir) {
        remove_made(&created);
        return Err(refused(e));
    }
    Ok(OutFolder {
        dir,
        file: out_file,
        created,
    })
}

/// Where `--out` puts a database file: the folder it names (the file then named after the
/// database), or, for a path ending in `.egdb` that is not a folder, that file itself in its
/// folder. A path ending in `/` names a folder whatever its name (`--out new.egdb/` makes
/// the folder `new.egdb`). Returns the folder, and the file when `--out` names one.
pub(crate) fn out_target(out: &std::path::Path) -> (PathBuf, Option<PathBuf>) {
    let names_folder = out.as_os_str().as_encoded_bytes().ends_with(b"/");
    if !names_folder && out.extension().is_some_and(|e| e == "egdb") && !out.is_dir() {
        (folder_of(out), Some(out.to_path_buf()))
    } else {
        (out.to_path_buf(), None)
    }
}

/// The folder of the file `file` (`.` for a bare name).
fn folder_of(file: &std::path::Path) -> PathBuf {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Creates the folder `dir` and those above it that are missing; returns the folders it
/// created, deepest first, for [`remove_made`] when the work they were made for fails. An
/// interrupt (Ctrl-C, SIGTERM, SIGHUP) removes them too when they are still empty
/// ([`crate::interrupt::make_folders`]).
///
/// # Errors
/// The system's error of the creation; for a folder that cannot be written in (the deepest
/// one that is there), in the words of a save into it (`the folder … is not writable: …`).
pub(crate) fn make_folders(dir: &std::path::Path) -> std::io::Result<Vec<PathBuf>> {
    // The folders missing now: the deepest one that is there is named when the first
    // missing one cannot be made in it.
    let missing: Vec<&Path> = dir
        .ancestors()
        .take_while(|p| !p.as_os_str().is_empty() && std::fs::symlink_metadata(p).is_err())
        .collect();
    crate::interrupt::make_folders(dir).map_err(|e| {
        // A folder that cannot be written in is named as a save names it.
        let there = missing
            .last()
            .and_then(|p| p.parent())
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(if missing.is_empty() {
                dir
            } else {
                Path::new(".")
            });
        mancala_solver::egdb::unwritable_folder_error(there, e)
    })
}

/// Removes the folders of [`make_folders`] that are still empty, deepest first: a failed
/// build or conversion leaves the disk as it found it.
pub(crate) fn remove_made(made: &[PathBuf]) {
    for d in made {
        let _ = std::fs::remove_dir(d);
    }
}

/// The database a command is about to write to `path`: its conventional file name (what
/// makes two databases the same: game, rule family, K or N, encoding) and its description
/// (`kalah(6,·), K = 16, byte encoding`).
pub(crate) struct Writing {
    /// `Database::file_name` of the database being written.
    pub(crate) name: String,
    /// What it holds, in words.
    pub(crate) what: String,
}

impl Writing {
    /// The database `D` of `rules` with K (or N) = `max_seeds` in `encoding`.
    pub(crate) fn of<D: mancala_solver::egdb::Database>(
        rules: &D::Rules,
        max_seeds: u32,
        encoding: Encoding,
    ) -> Writing {
        Writing {
            name: D::file_name(rules, max_seeds, encoding),
            what: D::in_words(rules, max_seeds, encoding),
        }
    }

    /// The database of the header `info` in `encoding` (a conversion's output).
    pub(crate) fn converted<I: DatabaseInfo>(info: &I, encoding: Encoding) -> Writing {
        Writing {
            name: info.file_name(encoding),
            what: format!("{}, {encoding} encoding", info.describe()),
        }
    }
}

/// Refuses to write the database `writing` over the file at `path` unless `force`
/// (`--force`) or the library's check ([`occupant`], the file's own game read from its
/// header, which is read once) finds nothing
/// in the way: no regular file there (a symbolic link is replaced, never written through), or
/// one whose header and size say it holds the same database (the same game, rule family, K
/// or N and encoding: a rebuild, or a repair of damaged entries). Nothing that is not the
/// same database is destroyed unasked.
///
/// Called once the folder is known to take a file, so that `--force` would write over it.
///
/// # Errors
/// One line naming the file, what it holds (another database, or no database and why) and
/// `--force`; a file that is not a regular one (a device, a FIFO, a socket) is refused even
/// with `force` ([`Occupant::NotRegular`]), as the save would refuse it.
pub(crate) fn check_overwrite(path: &Path, writing: &Writing, force: bool) -> Result<(), String> {
    // The header is read once, and checked as its own game's database's.
    match occupant(path, &writing.name) {
        Ok(()) => Ok(()),
        // The save refuses it whatever `--force` says (its rename would replace it), so say
        // so before the work rather than after it.
        Err(holds @ Occupant::NotRegular) => Err(format!("{}: {holds}", ShortenedPath(path))),
        Err(_) if force => Ok(()),
        Err(holds) => Err(format!(
            "{} already exists and {holds}: not written over with {}; --force writes over it",
            ShortenedPath(path),
            writing.what
        )),
    }
}

/// The one-line message of a failed save of the database `writing` at `path` told `--force`
/// or not (`Database::save_checked`): a file that appeared at `path` during the work and
/// holds something else is said as [`check_overwrite`] says it before the work; any other
/// error in the library's words.
pub(crate) fn save_error(path: &Path, writing: &Writing, e: &EgdbError) -> String {
    match e {
        EgdbError::Occupied { holds, .. } => format!(
            "{} already exists and {holds}: not written over with {}; --force writes over it",
            ShortenedPath(path),
            writing.what
        ),
        _ => e.to_string(),
    }
}

/// The bits an entry takes as `egdb info`, `verify`, `convert` and `build` print them, from
/// the library's one figure (`Database::average_bits`, `DatabaseInfo::average_bits`): the
/// whole width of a one-byte or packed encoding (`8`, `5`), the payload's bits over the
/// entries to three decimals for the compact encoding, which has no fixed width (`3.301`).
pub(crate) fn bits_text(encoding: Encoding, bits: f64) -> String {
    match encoding {
        Encoding::Compact => format!("{bits:.3}"),
        _ => format!("{bits:.0}"),
    }
}

/// The size of a database's file as `egdb build` and `egdb convert` print it, from the
/// library's exact figures (`Database::file_bytes`, `Database::payload_bytes`): `41422 bytes
/// on disk (a payload of 41381)`, the payload being the file less its header.
pub(crate) fn size_text<D: mancala_solver::egdb::Database>(db: &D) -> String {
    format!(
        "{} bytes on disk (a payload of {})",
        db.file_bytes(),
        db.payload_bytes()
    )
}

/// Whether `a` and `b` name the same existing file.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}
