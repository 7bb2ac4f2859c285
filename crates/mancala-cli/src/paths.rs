//! Folders the command writes into (`egdb build --out`, the cache folder): a file standing
//! where a folder should be is named in words, instead of the system's bare "File exists" or
//! "Not a directory"; and the reverse, a folder given where a file is read (`bench --file`),
//! instead of "Is a directory".

use mancala_core::ShortenedPath;
use std::path::{Path, PathBuf};

/// The first of `dir` and its ancestors that exists and is not a folder (a file, or a link to
/// one), or `None`.
pub fn file_in_the_way(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .filter(|p| !p.as_os_str().is_empty())
        .find(|p| std::fs::metadata(p).is_ok_and(|m| !m.is_dir()))
        .map(Path::to_path_buf)
}

/// Why the folder `dir` cannot be created or written, for a message about `dir`: `it is a
/// file, not a folder`, or `<ancestor> is a file, not a folder`, when a file stands in the
/// way (`a FIFO, socket or device` for one that is not a regular file), else the system's
/// error `e`.
pub fn folder_error(dir: &Path, e: &std::io::Error) -> String {
    let what = |p: &Path| {
        if p.is_file() {
            "a file"
        } else {
            "a FIFO, socket or device"
        }
    };
    match file_in_the_way(dir) {
        Some(f) if f == dir => format!("it is {}, not a folder", what(&f)),
        Some(f) => format!("{} is {}, not a folder", ShortenedPath(&f), what(&f)),
        None => e.to_string(),
    }
}

/// Checks that the folder `dir` takes a new file before any work is done for it: a probe
/// with a fresh unpredictable name, created exclusively (a planted symbolic link is never
/// followed) and removed at once.
///
/// # Errors
/// The system's error of the creation (`Permission denied (os error 13)`), without the
/// probe's own name.
pub fn probe_folder(dir: &Path) -> std::io::Result<()> {
    match tempfile::Builder::new()
        .prefix(".mancala-write-check-")
        .tempfile_in(dir)
    {
        Ok(_) => Ok(()),
        Err(e) => {
            // `tempfile` writes the probe's path after the system's error (`… at path
            // "dir/.mancala-write-check-x1Yz2w"`): only the system's.
            let text = e.to_string();
            let system = text.split(" at path ").next().unwrap_or_default();
            Err(std::io::Error::new(e.kind(), system.to_string()))
        }
    }
}

/// The message for a file `path` that could not be read: `<path>: it is a folder, not a
/// file` when a folder stands there, else `<path>: <e>`.
pub fn read_error(path: &Path, e: &std::io::Error) -> String {
    if path.is_dir() {
        format!("{}: it is a folder, not a file", ShortenedPath(path))
    } else {
        format!("{}: {e}", ShortenedPath(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_in_the_way_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("some-file");
        std::fs::write(&file, b"x").unwrap();
        let e = std::io::Error::from_raw_os_error(17);
        assert_eq!(folder_error(&file, &e), "it is a file, not a folder");
        assert_eq!(
            folder_error(&file.join("sub/deeper"), &e),
            format!("{} is a file, not a folder", ShortenedPath(&file))
        );
        assert_eq!(file_in_the_way(dir.path()), None);
        assert_eq!(folder_error(dir.path(), &e), e.to_string());
    }

    #[test]
    fn a_folder_where_a_file_is_read_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let e = std::fs::read_to_string(dir.path()).unwrap_err();
        assert_eq!(
            read_error(dir.path(), &e),
            format!("{}: it is a folder, not a file", ShortenedPath(dir.path()))
        );
        let missing = dir.path().join("missing.txt");
        let e = std::fs::read_to_string(&missing).unwrap_err();
        assert_eq!(
            read_error(&missing, &e),
            format!("{}: {e}", ShortenedPath(&missing))
        );
    }
}
