//! Folders the command writes into (`egdb build --out`, the cache folder): a file standing
//! where a folder should be is named in words, instead of the system's bare "File exists" or
//! "Not a directory"; and the reverse, a folder given where a file is read (`bench --file`),
//! instead of "Is a directory".

use mancala_core::ShortenedPath;
use mancala_solver::egdb::file_in_the_way;
use std::path::Path;

/// Why the folder `dir` cannot be created or written, for a message about `dir`: what stands
/// in the way when something does (the library's words, [`file_in_the_way`]: `it is a file,
/// not a folder`, `<ancestor> is a FIFO, socket or device, not a folder`), else the system's
/// error `e`.
pub fn folder_error(dir: &Path, e: &std::io::Error) -> String {
    file_in_the_way(dir).map_or_else(|| e.to_string(), |f| f.to_string())
}

/// The message for the folder `dir` of `--out given` (`given` itself, or the file named in
/// it) that cannot be created or written: `--out <given>: <why>`, the path as the user gave
/// it, and what stands in the way named as seen from it ([`file_in_the_way`]: `it is …` for
/// `given` itself, `<dir> is …, not a folder` for the folder of a file), as `mancala-mpi`
/// says it; else the system's error `e`.
pub fn out_error(given: &Path, dir: &Path, e: &std::io::Error) -> String {
    let why = file_in_the_way(dir).map_or_else(
        || e.to_string(),
        |mut f| {
            f.itself &= f.path.as_path() == given;
            f.to_string()
        },
    );
    format!("--out {}: {why}", ShortenedPath(given))
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

    #[cfg(unix)]
    #[test]
    fn a_broken_link_above_an_out_file_is_named_from_the_path_given() {
        let dir = tempfile::tempdir().unwrap();
        let dang = dir.path().join("dang");
        std::os::unix::fs::symlink(dir.path().join("missing"), &dang).unwrap();
        let e = std::io::Error::from_raw_os_error(17);
        let nowhere = "a symbolic link that leads nowhere (a loop, or a missing target)";
        let file = dang.join("x.egdb");
        assert_eq!(
            out_error(&file, &dang, &e),
            format!(
                "--out {}: {} is {nowhere}, not a folder",
                ShortenedPath(&file),
                ShortenedPath(&dang)
            )
        );
        for given in [dang.clone(), dir.path().join("dang/")] {
            assert_eq!(
                out_error(&given, &given, &e),
                format!(
                    "--out {}: it is {nowhere}, not a folder",
                    ShortenedPath(&given)
                )
            );
        }
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
