//! Crash-safe writing of a database file ([`Egdb::save_checked`]): a new temporary file in
//! the same folder, flushed and published under the name in one step (renamed over it, or,
//! for a save that keeps another file, hard-linked to it where nothing is), and the
//! temporary files that a killed save leaves behind, recognised by their name and their
//! process being gone.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::load::{entry_itself, parallel_crc32};
use super::{Egdb, EgdbError};

/// What [`Egdb::save`] did besides writing the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SaveReport {
    /// Temporary files of earlier saves of the same file name whose process is gone (killed
    /// during its save), removed before this save began.
    pub removed_stale: Vec<PathBuf>,
}

/// Whose temporary files [`remove_temporary_files`] removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TemporaryOwners {
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
fn remove_temporary_files(path: &Path, owners: TemporaryOwners) -> Vec<PathBuf> {
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
pub(crate) struct TemporaryFile {
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
    pub(crate) fn create(dir: &Path, name: &str) -> std::io::Result<TemporaryFile> {
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

    /// Gives the file the name `to` only where nothing stands at `to`, in one step: a hard
    /// link (`link`, which fails with [`std::io::ErrorKind::AlreadyExists`] when anything is
    /// at `to`, a symbolic link included, and never follows it), then the temporary name
    /// removed. On an error the file is given back, still under its temporary name.
    fn persist_new(mut self, to: &Path) -> Result<(), (TemporaryFile, std::io::Error)> {
        match std::fs::hard_link(&self.path, to) {
            Ok(()) => {
                // The file is at `to` whatever becomes of its second name; a temporary name
                // that cannot be removed is left to the next save of a gone process.
                let _ = std::fs::remove_file(&self.path);
                self.persisted = true;
                Ok(())
            }
            Err(e) => Err((self, e)),
        }
    }
}

impl Drop for TemporaryFile {
    fn drop(&mut self) {
        if !self.persisted {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The folder and file name of `path` (the folder `.` for a bare name). Errors
/// ([`std::io::ErrorKind::InvalidInput`]): the path is empty, it ends without a file name
/// (`/`, `..`), or its file name is not UTF-8; the message says which.
pub(crate) fn split_path(path: &Path) -> std::io::Result<(PathBuf, String)> {
    let invalid = |text: &str| std::io::Error::new(std::io::ErrorKind::InvalidInput, text);
    if path.as_os_str().is_empty() {
        return Err(invalid("the path is empty"));
    }
    let name = path
        .file_name()
        .ok_or_else(|| invalid("the path ends without a file name"))?
        .to_str()
        .ok_or_else(|| invalid("the file name is not UTF-8"))?
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

impl Egdb {
    /// Removes the temporary files that saves of `path` ([`Egdb::save`]) by this process
    /// have left unfinished, and returns them: for a program about to exit on a signal while
    /// a save runs (the save's own clean-up then never runs). The files are
    /// `.<file name>.<process id>.<random>.tmp` in the folder of `path`, with this process's
    /// id; only regular files of this user (not symlinks, not other users' files) with
    /// exactly that name are removed, and anything that cannot be read or removed is left
    /// alone. The temporary files of a killed process are removed by the next save of the
    /// same file ([`SaveReport::removed_stale`]).
    pub fn remove_unfinished_saves(path: &Path) -> Vec<PathBuf> {
        remove_temporary_files(path, TemporaryOwners::ThisProcess)
    }

    /// Writes the database to `path`, over nothing or over a file that holds this same
    /// database only: [`Egdb::save_checked`] without `overwrite`. A file holding another
    /// database, or no database, is left as it is ([`Egdb::save_over`] writes over it).
    ///
    /// # Errors
    /// Those of [`Egdb::save_checked`]: [`EgdbError::Occupied`] for a file in the way,
    /// [`EgdbError::Io`].
    pub fn save(&self, path: &Path) -> Result<SaveReport, EgdbError> {
        self.save_checked(path, false)
    }

    /// Writes the database to `path` over whatever regular file is there:
    /// [`Egdb::save_checked`] with `overwrite`. For a caller that has decided already (a
    /// cache replacing a damaged file, a command told `--force`).
    ///
    /// # Errors
    /// Those of [`Egdb::save_checked`] but [`EgdbError::Occupied`].
    pub fn save_over(&self, path: &Path) -> Result<SaveReport, EgdbError> {
        self.save_checked(path, true)
    }

    /// Writes the database to `path`, so that the file at `path` is always either the old one
    /// or the whole new one, and nothing in the folder can redirect the write:
    ///
    /// 1. unless `overwrite`, a file at `path` that holds anything but this same database
    ///    (the same game, rule family, K and encoding, by its header:
    ///    [`occupant`](super::occupant)) is refused before anything is written;
    /// 2. temporary files that an earlier save of this same file name left behind, whose
    ///    process is gone (killed during its save), are removed and listed in the report
    ///    (a process is gone when `kill(pid, 0)` fails with `ESRCH`; elsewhere than Unix
    ///    none is removed);
    /// 3. the bytes go to a new temporary file in the same folder, named
    ///    `.<file name>.<process id>.<12 random letters or digits>.tmp`, created with
    ///    `O_CREAT | O_EXCL` (an existing name, symlinks included, is never opened, let alone
    ///    followed) and the permissions `0666` less the user's umask;
    /// 4. the file is flushed to disk (`fsync`) and published at `path` in one step, and the
    ///    folder is flushed so that this is durable. With `overwrite` it is renamed over
    ///    `path` (`rename` replaces a symlink planted at `path`; it never writes through it).
    ///    Without, it is hard-linked to `path` where nothing is there (`link` fails when
    ///    anything is, and never follows a symlink) and its temporary name removed; when
    ///    something appeared at `path` since step 1, it is looked at again and replaced (by
    ///    `rename`) only when it holds this same database or is a symlink. Of two saves
    ///    started at once to a new path, the later one is refused with
    ///    [`EgdbError::Occupied`] when the earlier one's file holds another database, and
    ///    replaces it when it holds the same one. On a file system without hard links (FAT)
    ///    the look and the rename are made one after the other.
    ///
    /// On any error (a full disk, a folder that cannot be written) or a panic the temporary
    /// file is removed. A process killed during its save leaves its temporary file, which
    /// the next save removes.
    ///
    /// # Errors
    /// [`EgdbError::Occupied`] (unless `overwrite`: a file holding another database or no
    /// database, named with what it holds; nothing is written). [`EgdbError::Io`] naming
    /// `path` (an error in writing the temporary file names it in its reason, as removed),
    /// also when `path` is a folder or a file that is not a regular one (a device such as
    /// `/dev/null`, a FIFO, a socket), which the rename would replace.
    pub fn save_checked(&self, path: &Path, overwrite: bool) -> Result<SaveReport, EgdbError> {
        let name = <Egdb as super::Database>::own_file_name(self);
        let what = saved_words(self);
        let keep = if overwrite {
            Keep::Nothing
        } else {
            Keep::Others {
                name: &name,
                what: &what,
            }
        };
        let payload = self.payload();
        let header = self.header(parallel_crc32(payload)).encode();
        write_file(path, &header, keep, &mut |w| w.write_all(payload))
    }
}

/// Why a save refuses the path of a device, a FIFO or a socket ([`is_not_regular`]): the
/// text of its error and of [`super::Occupant::NotRegular`].
pub(crate) const NOT_REGULAR: &str = "not a regular file, which a save does not replace";

/// Whether something that is neither a regular file, nor a folder, nor a symbolic link
/// stands at `path` (a device such as `/dev/null`, a FIFO, a socket; the link itself is
/// looked at, not followed): what a save refuses, since its rename would replace it rather
/// than write to it. `false` when nothing is there or it cannot be looked at. The one test
/// of [`write_file`] and [`super::occupant`].
pub(crate) fn is_not_regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| {
        let t = m.file_type();
        !(t.is_file() || t.is_dir() || t.is_symlink())
    })
}

/// Why a save refuses `path` before it writes anything, or `None`: a folder (the rename
/// would fail with the system's "Is a directory"), or a device, a FIFO or a socket
/// ([`is_not_regular`]), which the rename would replace (`/dev/null` by a regular file, for
/// a user who may write `/dev`) rather than write to, as a load refuses it. A symlink is
/// replaced, as step 4 of [`Egdb::save_checked`] says, whatever it leads to (a folder included:
/// the link itself is looked at). The test of [`write_file`], and of the cache
/// before it says that a database it builds will be kept.
pub(crate) fn refusal(path: &Path) -> Option<std::io::Error> {
    // The entry itself: a symbolic link, even to a folder, is replaced.
    let why = if std::fs::symlink_metadata(entry_itself(path)).is_ok_and(|m| m.is_dir()) {
        "it is a folder, not a file"
    } else if is_not_regular(path) {
        NOT_REGULAR
    } else {
        return None;
    };
    Some(std::io::Error::new(std::io::ErrorKind::InvalidInput, why))
}

/// Whether `e` says that a folder cannot be written: `EACCES` (its permissions) or `EROFS`
/// (a read-only file system), as creating, linking or renaming a file in it fails. `EPERM`
/// (a file system without hard links) and `EEXIST` (a name taken) are not.
pub(crate) fn is_unwritable_folder(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(e.raw_os_error(), Some(libc::EACCES | libc::EROFS))
    }
    #[cfg(not(unix))]
    {
        e.kind() == std::io::ErrorKind::PermissionDenied
    }
}

/// `e`, an error of creating, linking or renaming a file in the folder `dir`: when the folder
/// cannot be written (`EACCES`: its permissions, or `EROFS`: a read-only file system), an
/// error of the same kind saying so, naming the folder (shortened as
/// [`mancala_core::ShortenedPath`] does), with the system's error ("the folder /srv/db is
/// not writable: Permission denied (os error 13)"), as a save says it; any other error as it
/// is. For the checks a command makes before it writes into `dir` ([`super::probe_folder`]
/// uses it), so that they say it in the save's words.
pub fn unwritable_folder_error(dir: &Path, e: std::io::Error) -> std::io::Error {
    if !is_unwritable_folder(&e) {
        return e;
    }
    std::io::Error::new(
        e.kind(),
        format!(
            "the folder {} is not writable: {e}",
            mancala_core::ShortenedPath(dir)
        ),
    )
}

/// Writes a database file at `path` crash-safely, as [`Egdb::save_checked`] documents (a
/// file in the way refused unless `keep` is [`Keep::Nothing`], stale temporary files of the
/// same name removed, a new temporary file created exclusively in the same folder, flushed
/// to disk, published at `path` by [`publish`], the folder flushed): `header` first, then
/// whatever `payload` writes. The file of every game's database is written by
/// this one function ([`Egdb::save`], `AwariDb::save`).
///
/// # Errors
/// [`EgdbError::Occupied`] (see [`Keep`]); [`EgdbError::Io`] naming `path`, including any
/// error `payload` returns; an error in writing the temporary file (a full disk, the
/// file-size limit) names `path` too, and the temporary file, removed, in its reason.
pub(crate) fn write_file(
    path: &Path,
    header: &[u8],
    keep: Keep<'_>,
    payload: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<SaveReport, EgdbError> {
    let io = |source| EgdbError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(e) = refusal(path) {
        return Err(io(e));
    }
    // Before any byte is written: a file in the way is refused at once, not after the write.
    keep.check(path)?;
    let (dir, name) = split_path(path).map_err(io)?;
    let removed_stale = remove_temporary_files(path, TemporaryOwners::Gone);
    let tmp =
        TemporaryFile::create(&dir, &name).map_err(|e| io(unwritable_folder_error(&dir, e)))?;
    // From here on, dropping `tmp` (an error, a panic) removes the temporary file. An error
    // in writing it names the file the caller asked for (the one a user named, or the
    // cache's), with the temporary file as the place that was written and is removed.
    let tmp_io = |source: std::io::Error| EgdbError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::new(
            source.kind(),
            format!(
                "{source}; its temporary file {} was removed",
                tmp.path
                    .file_name()
                    .map_or(tmp.path.as_path(), Path::new)
                    .display()
            ),
        ),
    };
    {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, &tmp.file);
        w.write_all(header).map_err(tmp_io)?;
        payload(&mut w).map_err(tmp_io)?;
        w.flush().map_err(tmp_io)?;
    }
    tmp.file.sync_all().map_err(tmp_io)?;
    publish(tmp, path, keep)?;
    sync_dir(&dir).map_err(io)?;
    Ok(SaveReport { removed_stale })
}

/// What a save may write over ([`write_file`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keep<'a> {
    /// Nothing: any regular file at the path is replaced (a save told to overwrite).
    Nothing,
    /// Every file but one holding the database whose file name
    /// ([`super::Database::file_name`]) is `name`: nothing else at the path is written over
    /// ([`super::occupant`]). `what` is that database in words, for the refusal
    /// ([`EgdbError::Occupied::with`]).
    Others {
        /// The database's file name.
        name: &'a str,
        /// The database in words (`kalah(6,·), K = 20, byte encoding`).
        what: &'a str,
    },
}

impl Keep<'_> {
    /// Ok when the save may write over what stands at `path` now: always for
    /// [`Keep::Nothing`]; for [`Keep::Others`], nothing there, or a file holding that same
    /// database, or something the save refuses in its own words (a folder, a device).
    ///
    /// # Errors
    /// [`EgdbError::Occupied`] naming `path` and what holds it.
    fn check(self, path: &Path) -> Result<(), EgdbError> {
        let Keep::Others { name, what } = self else {
            return Ok(());
        };
        match super::occupant(path, name) {
            // A device, a FIFO or a socket: the save refuses it in its own words.
            Ok(()) | Err(super::Occupant::NotRegular) => Ok(()),
            Err(holds) => Err(EgdbError::Occupied {
                path: path.to_path_buf(),
                holds: holds.to_string(),
                with: what.to_string(),
            }),
        }
    }
}

/// The database `db` in words, as a refused save names what it was to write:
/// [`Database::describe`](super::Database::describe) and the encoding (`kalah(6,·), K = 20,
/// byte encoding`).
pub(crate) fn saved_words<D: super::Database>(db: &D) -> String {
    format!("{}, {} encoding", db.describe(), db.encoding())
}

/// Gives the written temporary file `tmp` the name `path`. With [`Keep::Nothing`] it is
/// renamed over whatever is there. With [`Keep::Others`] it is first linked to `path` where
/// nothing is there (a hard link fails when anything is, so that of two saves started at once
/// to a new path the later one finds the earlier one's file); when something is, it is
/// looked at again ([`Keep::check`]) and replaced only when it holds the same database (the
/// file of another save of it: the same bytes, or a damaged copy). On a file system without
/// hard links (the link refused with `EPERM` or as unsupported: FAT) the check is made
/// again and the file renamed, as close as such a file system allows.
///
/// # Errors
/// [`EgdbError::Occupied`] when a file holding something else stands at `path`;
/// [`EgdbError::Io`] naming `path` for an error of the link or the rename. The temporary
/// file is removed on any error.
pub(crate) fn publish(tmp: TemporaryFile, path: &Path, keep: Keep<'_>) -> Result<(), EgdbError> {
    let io = |source| EgdbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if keep == Keep::Nothing {
        return tmp
            .persist(path)
            .map_err(|e| io(unwritable_folder_error(dir, e)));
    }
    let (tmp, e) = match tmp.persist_new(path) {
        Ok(()) => return Ok(()),
        Err(failed) => failed,
    };
    // A folder that cannot be written (`EACCES`, `EROFS`) is said as such, not taken for a
    // file system without hard links (`EPERM`) and checked for an occupant.
    if is_unwritable_folder(&e) {
        return Err(io(unwritable_folder_error(dir, e)));
    }
    match e.kind() {
        std::io::ErrorKind::AlreadyExists
        | std::io::ErrorKind::PermissionDenied
        | std::io::ErrorKind::Unsupported => {}
        _ => return Err(io(e)),
    }
    // Something appeared since the first check (or links cannot be made here): what it holds
    // decides. `tmp` is removed when this returns an error.
    keep.check(path)?;
    if let Some(e) = refusal(path) {
        return Err(io(e));
    }
    tmp.persist(path)
        .map_err(|e| io(unwritable_folder_error(dir, e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egdb::{BuildOptions, Database};
    use mancala_core::kalah::KalahRules;

    /// The header and payload of a small Kalah database, its file name, and its saved bytes.
    fn small(k: u32) -> (Egdb, Vec<u8>, String) {
        let rules: KalahRules = "kalah(2,1)".parse().unwrap();
        let db = Egdb::build(&rules, k, BuildOptions::new()).unwrap();
        let header = db.header(parallel_crc32(db.payload())).encode();
        let name = db.own_file_name();
        (db, header, name)
    }

    /// The system's errors of a folder that cannot be written (its permissions, a read-only
    /// file system) are told from a name taken and from a file system without hard links,
    /// and said naming the folder, with the system's error.
    #[test]
    #[cfg(unix)]
    fn an_unwritable_folder_is_told_from_a_taken_name() {
        use std::io::Error;
        assert!(is_unwritable_folder(&Error::from_raw_os_error(
            libc::EACCES
        )));
        assert!(is_unwritable_folder(&Error::from_raw_os_error(libc::EROFS)));
        assert!(!is_unwritable_folder(&Error::from_raw_os_error(
            libc::EPERM
        )));
        assert!(!is_unwritable_folder(&Error::from_raw_os_error(
            libc::EEXIST
        )));
        let e =
            unwritable_folder_error(Path::new("/srv/db"), Error::from_raw_os_error(libc::EACCES));
        assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied);
        assert_eq!(
            e.to_string(),
            format!(
                "the folder /srv/db is not writable: {}",
                Error::from_raw_os_error(libc::EACCES)
            )
        );
        let taken =
            unwritable_folder_error(Path::new("/srv/db"), Error::from_raw_os_error(libc::EEXIST));
        assert_eq!(taken.raw_os_error(), Some(libc::EEXIST));
    }

    /// A save into a folder of mode 0555, kept or told to overwrite, says the folder is not
    /// writable (not "occupied", not the bare "permission denied"). Root ignores modes: the
    /// test is skipped, with a message, under euid 0.
    #[test]
    #[cfg(unix)]
    fn a_save_into_a_read_only_folder_says_the_folder_is_not_writable() {
        use std::os::unix::fs::PermissionsExt;
        // SAFETY: `geteuid` has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            eprintln!("skipped: root writes into a folder of mode 0555");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let (db, header, name) = small(2);
        let path = dir.path().join(&name);
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
        let words = saved_words(&db);
        for keep in [
            Keep::Nothing,
            Keep::Others {
                name: &name,
                what: &words,
            },
        ] {
            let e = write_file(&path, &header, keep, &mut |_| Ok(())).unwrap_err();
            let text = e.to_string();
            assert!(
                text.contains(&format!(
                    "the folder {} is not writable: ",
                    mancala_core::ShortenedPath(dir.path())
                )),
                "{text}"
            );
        }
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// The names in `dir` besides `keep`: a temporary file left behind shows here.
    fn others(dir: &Path, keep: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !keep.contains(&n.as_str()))
            .collect();
        v.sort();
        v
    }

    /// A save that keeps other files checks before it writes; a file that another program
    /// (or a second save started at once) puts at the path after that check, while this save
    /// writes its temporary file, is kept too: the save is refused with `Occupied` when it
    /// is not this database, and the temporary file is removed. A save told to overwrite
    /// replaces it.
    #[test]
    fn a_file_that_appears_during_a_save_that_keeps_others_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let (db, header, name) = small(2);
        let path = dir.path().join(&name);
        let theirs = b"written by another program meanwhile\n";
        let e = write_file(
            &path,
            &header,
            Keep::Others {
                name: &name,
                what: &saved_words(&db),
            },
            &mut |w| {
                std::fs::write(&path, theirs)?;
                w.write_all(db.payload())
            },
        )
        .unwrap_err();
        assert!(matches!(e, EgdbError::Occupied { .. }), "{e}");
        assert_eq!(e.path(), Some(path.as_path()));
        assert!(
            e.reason()
                .starts_with("already exists and cannot be told to hold that database ("),
            "{e}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), theirs);
        assert_eq!(others(dir.path(), &[&name]), Vec::<String>::new());
        // Another database appearing meanwhile (a second save of K = 1 to the same new
        // path, finished first): kept, the later save refused.
        let (one, _, _) = small(1);
        std::fs::remove_file(&path).unwrap();
        let e = write_file(
            &path,
            &header,
            Keep::Others {
                name: &name,
                what: &saved_words(&db),
            },
            &mut |w| {
                one.save_over(&path).map_err(std::io::Error::other)?;
                w.write_all(db.payload())
            },
        )
        .unwrap_err();
        assert_eq!(
            e.reason(),
            "already exists and holds another database (kalah(2,·), K = 1, byte encoding): not written over with kalah(2,·), K = 2, byte encoding; a save told to overwrite writes over it"
        );
        assert_eq!(Egdb::open(&path).unwrap().max_seeds(), 1);
        assert_eq!(others(dir.path(), &[&name]), Vec::<String>::new());
        // Told to overwrite: the file that appeared is replaced.
        write_file(&path, &header, Keep::Nothing, &mut |w| {
            std::fs::write(&path, theirs)?;
            w.write_all(db.payload())
        })
        .unwrap();
        assert_eq!(Egdb::open(&path).unwrap().max_seeds(), 2);
        assert_eq!(others(dir.path(), &[&name]), Vec::<String>::new());
    }

    /// Two saves of the same database started at once to a new path: the later one finds
    /// the earlier one's file, which holds the same database, and succeeds; the file is the
    /// database, whole, and no temporary file is left.
    #[test]
    fn a_same_database_that_appears_during_a_save_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let (db, header, name) = small(2);
        let path = dir.path().join(&name);
        write_file(
            &path,
            &header,
            Keep::Others {
                name: &name,
                what: &saved_words(&db),
            },
            &mut |w| {
                db.save(&path).map_err(std::io::Error::other)?;
                w.write_all(db.payload())
            },
        )
        .unwrap();
        let reference = dir.path().join("reference.egdb");
        db.save(&reference).unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&reference).unwrap()
        );
        assert_eq!(
            others(dir.path(), &[&name, "reference.egdb"]),
            Vec::<String>::new()
        );
    }
}
