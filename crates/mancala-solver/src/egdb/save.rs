//! Crash-safe writing of a database file ([`Egdb::save`]): a new temporary file in the same
//! folder, flushed and renamed over the name in one step, and the temporary files that a
//! killed save leaves behind, recognised by their name and their process being gone.

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

    /// Writes the database to `path`, so that the file at `path` is always either the old one
    /// or the whole new one, and nothing in the folder can redirect the write:
    ///
    /// 1. temporary files that an earlier save of this same file name left behind, whose
    ///    process is gone (killed during its save), are removed and listed in the report
    ///    (a process is gone when `kill(pid, 0)` fails with `ESRCH`; elsewhere than Unix
    ///    none is removed);
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
    /// [`EgdbError::Io`] naming `path` (an error in writing the temporary file names it in
    /// its reason, as removed), also when `path` is a folder
    /// or a file that is not a regular one (a device such as `/dev/null`, a FIFO, a socket),
    /// which the rename would replace.
    pub fn save(&self, path: &Path) -> Result<SaveReport, EgdbError> {
        let payload = self.payload();
        let header = self.header(parallel_crc32(payload)).encode();
        write_file(path, &header, &mut |w| w.write_all(payload))
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
/// replaced, as step 3 of [`Egdb::save`] says, whatever it leads to (a folder included:
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

/// Writes a database file at `path` crash-safely, as [`Egdb::save`] documents (stale
/// temporary files of the same name removed, a new temporary file created exclusively in
/// the same folder, flushed to disk, renamed over `path`, the folder flushed): `header`
/// first, then whatever `payload` writes. The file of every game's database is written by
/// this one function ([`Egdb::save`], `AwariDb::save`).
///
/// # Errors
/// [`EgdbError::Io`] naming `path`, including any error `payload` returns; an error in
/// writing the temporary file (a full disk, the file-size limit) names `path` too, and the
/// temporary file, removed, in its reason.
pub(crate) fn write_file(
    path: &Path,
    header: &[u8],
    payload: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<SaveReport, EgdbError> {
    let io = |source| EgdbError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(e) = refusal(path) {
        return Err(io(e));
    }
    let (dir, name) = split_path(path).map_err(io)?;
    let removed_stale = remove_temporary_files(path, TemporaryOwners::Gone);
    let tmp = TemporaryFile::create(&dir, &name).map_err(io)?;
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
    tmp.persist(path).map_err(io)?;
    sync_dir(&dir).map_err(io)?;
    Ok(SaveReport { removed_stale })
}
